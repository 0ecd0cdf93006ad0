/// Finds the user's session object on logind (`org.freedesktop.login1`, system bus), whose `LockedHint`
/// says whether the screen is locked. See https://www.freedesktop.org/software/systemd/man/latest/org.freedesktop.login1.html.
///
/// In order: the session named by `XDG_SESSION_ID` (`GetSession`); the session of this process
/// (`GetSessionByPID`, which fails for a service started outside the session, like a systemd user
/// service); the user's display session (`GetUser`, then its `Display` property).
enum LoginSession {
    static let service = "org.freedesktop.login1"
    static let sessionInterface = "org.freedesktop.login1.Session"

    static func path(
        on connection: BusConnection, owner: String, sessionID: String?, processID: UInt32, userID: UInt32, timeout: Duration
    ) async -> String? {
        func manager(_ member: String, _ argument: BusValue) async -> String? {
            let reply = try? await connection.call(
                destination: owner, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager", member: member,
                arguments: [argument], timeout: timeout)
            return reply?.values.first?.string
        }
        if let sessionID, !sessionID.isEmpty, let path = await manager("GetSession", .string(sessionID)) { return path }
        if let path = await manager("GetSessionByPID", .uint32(processID)) { return path }
        guard let user = await manager("GetUser", .uint32(userID)),
            let display = try? await connection.property(
                destination: owner, path: user, interface: "org.freedesktop.login1.User", name: "Display", timeout: timeout),
            case .structure(let fields) = display, fields.count == 2, let path = fields[1].string, path != "/"
        else { return nil }
        return path
    }
}
