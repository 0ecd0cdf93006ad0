import Foundation

/// A `dbus-daemon` of the test's own, so no test ever touches the machine's session or system bus.
///
/// Its configuration is the session bus's, less the machine's service directories: nothing on it is
/// started by D-Bus activation (the machine's dunst would otherwise answer for a test that wants no
/// server), unless the test names a directory of its own. A `.system` one stands in for the system bus
/// (where GeoClue and logind live), and its address goes to clients as `DBUS_SYSTEM_BUS_ADDRESS`.
public final class PrivateBus: Sendable {
    public enum Kind: String, Sendable {
        case session, system
    }

    public let address: String
    public let kind: Kind
    private let daemon: ChildProcess
    private let directory: URL

    private init(address: String, kind: Kind, daemon: ChildProcess, directory: URL) {
        self.address = address
        self.kind = kind
        self.daemon = daemon
        self.directory = directory
    }

    /// Starts the daemon and waits until it prints its address.
    ///
    /// - Parameter services: `.service` files (name → contents) for D-Bus activation on this bus.
    public static func start(_ kind: Kind = .session, services: [String: String] = [:]) async throws -> PrivateBus {
        let executable = try Tool.path("dbus-daemon", package: "dbus")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bus-\(UUID().uuidString)")
        let servicesDirectory = directory.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: servicesDirectory, withIntermediateDirectories: true)
        for (name, contents) in services {
            try contents.write(to: servicesDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(kind.rawValue)</type>
              <listen>unix:dir=\(directory.path)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(servicesDirectory.path)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configurationFile = directory.appendingPathComponent("bus.conf")
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        let daemon = try ChildProcess(
            executable, ["--config-file=\(configurationFile.path)", "--nofork", "--print-address=1"], name: "dbus-daemon")
        do {
            let address = try await daemon.output.take("the bus address") { $0.hasPrefix("unix:") }
            return PrivateBus(address: address, kind: kind, daemon: daemon, directory: directory)
        } catch {
            await daemon.stop()
            throw error
        }
    }

    public var environment: [String: String] { [kind == .session ? "DBUS_SESSION_BUS_ADDRESS" : "DBUS_SYSTEM_BUS_ADDRESS": address] }

    public func stop() async {
        await daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
