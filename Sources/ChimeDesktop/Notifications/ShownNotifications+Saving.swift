/// What the presenter keeps on disk of the notifications it has on the server, so that a button pressed
/// after chimed restarted still reaches the app: the server's id of each, and what each key means.
///
/// It is only valid for the server instance that showed them (ids restart with the server, and another
/// client's notification could get one of ours), so it names that server by its unique bus name, which
/// no later server on the bus gets. Prompts are not kept: the process that asked is gone.
struct SavedShownNotifications: Codable, Sendable, Hashable {
    struct Entry: Codable, Sendable, Hashable {
        var serverID: UInt32
        var appIdentifier: String
        var identifier: String
        var meanings: [String: Meaning]
    }

    /// `NotifyRequest.ActionMeaning` as stored.
    struct Meaning: Codable, Sendable, Hashable {
        var kind: String
        var identifier: String?
        var title: String?
        var placeholder: String?
    }

    /// The notification server's unique name on the bus (`:1.42`).
    var server: String
    var entries: [Entry]
}

extension NotifyRequest.ActionMeaning {
    var saved: SavedShownNotifications.Meaning? {
        switch self {
        case .open: .init(kind: "open")
        case .action(let identifier): .init(kind: "action", identifier: identifier)
        case .inlineReply(let identifier): .init(kind: "inlineReply", identifier: identifier)
        case .replyElsewhere(let summary):
            .init(kind: "replyElsewhere", identifier: summary.identifier, title: summary.title, placeholder: summary.placeholder)
        case .allow, .deny: nil
        }
    }

    init?(_ saved: SavedShownNotifications.Meaning) {
        switch (saved.kind, saved.identifier) {
        case ("open", _): self = .open
        case ("action", let identifier?): self = .action(identifier)
        case ("inlineReply", let identifier?): self = .inlineReply(identifier)
        case ("replyElsewhere", let identifier?):
            self = .replyElsewhere(PresentationActionSummary(identifier: identifier, title: saved.title ?? "", placeholder: saved.placeholder ?? ""))
        default: return nil
        }
    }
}

extension ShownNotifications {
    /// The app notifications shown now, as they are saved.
    func saved(server: String) -> SavedShownNotifications {
        SavedShownNotifications(
            server: server,
            entries: savedEntries.map { key, serverID, meanings in
                .init(serverID: serverID, appIdentifier: key.appIdentifier, identifier: key.identifier, meanings: meanings.compactMapValues(\.saved))
            }.sorted { $0.serverID < $1.serverID })
    }

    /// Takes back what an earlier process showed on the same server, where nothing newer took its place.
    mutating func restore(_ saved: SavedShownNotifications) -> Int {
        var restored = 0
        for entry in saved.entries {
            let key = NotificationKey(appIdentifier: entry.appIdentifier, identifier: entry.identifier)
            let meanings = entry.meanings.compactMapValues(NotifyRequest.ActionMeaning.init)
            if adopt(key, serverID: entry.serverID, meanings: meanings) { restored += 1 }
        }
        return restored
    }
}
