/// Who shows the desktop's notifications, as `GetServerInformation` and `GetCapabilities` tell.
public struct NotificationServerInfo: Sendable, Hashable {
    /// The server's product name (`dunst`, `gnome-shell`), empty if it did not say.
    public let name: String
    public let vendor: String
    public let version: String
    /// The capabilities the server announced, sorted.
    public let capabilities: [String]

    public init(name: String, vendor: String, version: String, capabilities: [String]) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.capabilities = capabilities
    }
}

extension DesktopPresenter {
    /// The notification server now, or `nil` when there is no bus or nobody owns
    /// `org.freedesktop.Notifications`; for a daemon choosing its presenter and for `chime doctor`.
    /// Every call is bounded by `Configuration.callTimeout`.
    public func notificationServer() async -> NotificationServerInfo? {
        guard let (connection, server) = await link.current() else { return nil }
        var name = "", vendor = "", version = ""
        if let reply = try? await link.call("GetServerInformation", [], on: server, through: connection) {
            let strings = reply.values.map { $0.string ?? "" }
            if strings.count >= 3 { (name, vendor, version) = (strings[0], strings[1], strings[2]) }
        }
        return NotificationServerInfo(name: name, vendor: vendor, version: version, capabilities: server.capabilities.names.sorted())
    }
}
