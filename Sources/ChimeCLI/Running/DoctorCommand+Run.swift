import ChimeClient
import ChimeDesktop
import ChimeEngine
import ChimeAPI
import Foundation

extension DoctorCommand {
    /// What `chime doctor` found.
    struct Report: Encodable {
        struct Check: Encodable {
            var name: String
            var ok: Bool
            var detail: String
        }

        var checks: [Check] = []
        /// Notifications can be delivered: chimed runs.
        var healthy = false
        var json = false
        /// Marks in colour (a terminal that takes it; see `Output.wantsColour`).
        var colour = false

        var output: String {
            if json { return Output.json(self) }
            // Details quote the notification server's name and what chimed reports.
            return checks.map { "\(mark($0.ok)) \(Output.shown($0.name)): \(Output.shown($0.detail))\n" }.joined()
        }

        private func mark(_ ok: Bool) -> String {
            guard colour else { return ok ? "ok " : "!! " }
            return ok ? "\u{1B}[32mok\u{1B}[0m " : "\u{1B}[1;33m!!\u{1B}[0m "
        }

        private enum CodingKeys: String, CodingKey { case checks, healthy }
    }

    func run(paths: DaemonPaths, environment: [String: String] = ProcessInfo.processInfo.environment) async -> Report {
        var report = Report(json: json)

        var daemonServer: StatusResult.Server?
        do {
            let client = try await DaemonClient.connect(paths: paths)
            defer { client.close() }
            let status = try await client.status()
            report.healthy = true
            report.checks.append(.init(name: "chimed", ok: true, detail: "\(status.version), pid \(status.processIdentifier), presenting through \(status.presenter), focus \(status.focus ? "on" : "off")"))
            let size = (try? FileManager.default.attributesOfItem(atPath: status.storePath)[.size] as? Int).map { " (\(ByteCountFormatter.string(fromByteCount: Int64($0), countStyle: .file)))" } ?? ""
            report.checks.append(.init(name: "store", ok: true, detail: "\(status.storePath)\(size): \(status.pending) pending, \(status.delivered) delivered, \(status.apps == 1 ? "1 app" : "\(status.apps) apps"), \(status.queuedResponses == 1 ? "1 response" : "\(status.queuedResponses) responses") waiting for their apps"))
            if let quarantined = status.quarantined {
                report.checks.append(.init(
                    name: "damaged records", ok: false,
                    detail: "\(quarantined) stored \(quarantined == 1 ? "record" : "records") could not be read and \(quarantined == 1 ? "was" : "were") set aside, bytes untouched, in the quarantine table of the store; everything else is served (chimed's log names each)"))
            }
            if let location = status.location {
                // Only while location triggers are pending: they fire only while GeoClue gives positions.
                report.checks.append(.init(name: "location", ok: location == "running" || location == "starting", detail: "GeoClue: \(location)"))
            }
            daemonServer = status.notificationServer
        } catch {
            report.checks.append(.init(name: "chimed", ok: false, detail: Self.diagnosis(error, paths: paths)))
        }

        guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else {
            report.checks.append(.init(name: "D-Bus session", ok: false, detail: "DBUS_SESSION_BUS_ADDRESS is not set: no desktop notifications (chimed logs them instead)"))
            return report
        }
        report.checks.append(.init(name: "D-Bus session", ok: true, detail: bus))

        let server: (name: String, version: String, capabilities: [String])?
        if let daemonServer {
            server = (daemonServer.name, daemonServer.version, daemonServer.capabilities)
        } else {
            let presenter = DesktopPresenter(log: SilentLog())
            server = await presenter.notificationServer().map { ($0.name, $0.version, $0.capabilities) }
        }
        guard let server else {
            report.checks.append(.init(name: "notification server", ok: false, detail: "nobody owns org.freedesktop.Notifications on the session bus; start one (dunst, a desktop shell)"))
            return report
        }
        report.checks.append(.init(name: "notification server", ok: true, detail: "\(server.name) \(server.version): \(server.capabilities.joined(separator: ", "))"))
        let missing: [(String, String)] = [
            ("actions", "no buttons: answer with 'chime respond'"),
            ("body", "no body text: it goes into the title"),
            ("inline-reply", "no typed replies in the notification: reply with 'chime respond --action <id> --text <reply>'"),
        ].filter { !server.capabilities.contains($0.0) }
        for (capability, consequence) in missing {
            report.checks.append(.init(name: "capability \(capability)", ok: capability == "inline-reply", detail: "missing: \(consequence)"))
        }
        return report
    }

    /// Why chimed could not be reached: not running, running but refusing this user's token, a runtime
    /// folder that is not this user's, or a socket nobody answers on.
    static func diagnosis(_ error: any Error, paths: DaemonPaths) -> String {
        let start = "start it with 'chimed', or 'systemctl --user start chimed' with the unit in Support/systemd"
        guard let error = error as? APIError else { return "cannot be asked: \(error)" }
        switch error.apiCode {
        case .untrustedRuntimeDirectory?:
            return "refusing its folder: \(error.message); remove it, or set XDG_RUNTIME_DIR to a folder of your own"
        case .unauthenticated?, .forbidden?:
            return "running, but refusing the token in \(paths.tokenFile.path) (another daemon's, or it restarted just now)"
        case .notConnected? where FileManager.default.fileExists(atPath: paths.socketFile.path):
            return "unreachable: \(paths.socketFile.path) exists but \(error.message); if chimed was killed, \(start)"
        default:
            return "not running (no socket at \(paths.socketFile.path)); \(start)"
        }
    }
}
