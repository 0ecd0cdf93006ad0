import ChimeCore

/// Notifications on screen that are not in the delivered list: presented without `.list` (a foreground
/// app's `willPresent` left it out, or the user turned the list off for the app).
///
/// Apple's delivered list is what Notification Center shows, so these are not in it. But while such a
/// banner is up, the user may still press its buttons; the engine keeps the last ones per app here, in
/// memory, to route those responses. A banner outlives neither the process nor `limitPerApp` newer ones.
struct UnlistedNotifications {
    static let limitPerApp = 256

    private var byApp: [String: [DeliveredNotification]] = [:]

    /// Keeps `notification` (replacing one with its identifier); returns the identifier that made room, if
    /// the app had `limitPerApp` already.
    mutating func insert(_ notification: DeliveredNotification, appIdentifier: String) -> String? {
        var list = byApp[appIdentifier, default: []]
        list.removeAll { $0.identifier == notification.identifier }
        list.append(notification)
        let evicted = list.count > Self.limitPerApp ? list.removeFirst().identifier : nil
        byApp[appIdentifier] = list
        return evicted
    }

    func notification(appIdentifier: String, identifier: String) -> DeliveredNotification? {
        byApp[appIdentifier]?.last { $0.identifier == identifier }
    }

    /// Forgets the app's notifications with `identifiers` (all of them for `nil`); returns those it had.
    @discardableResult
    mutating func remove(appIdentifier: String, identifiers: [String]?) -> [String] {
        guard let list = byApp[appIdentifier] else { return [] }
        let wanted = identifiers.map(Set.init)
        let removed = list.filter { wanted?.contains($0.identifier) ?? true }.map(\.identifier)
        let kept = list.filter { !(wanted?.contains($0.identifier) ?? true) }
        byApp[appIdentifier] = kept.isEmpty ? nil : kept
        return removed
    }
}
