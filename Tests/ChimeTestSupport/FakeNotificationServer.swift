public import ChimeCore
import Foundation

/// The scripted notification server (`fake_notification_server.py`, Python dbus-next) on a private bus:
/// a peer that speaks the real protocol, logs every call, and sends the signals the test asks for.
///
/// ```swift
/// let notify = try await server.nextCall("Notify")
/// try await server.invoke(id: notify.id, key: "ACTION_LIKE")   // the user pressed "Like"
/// ```
public final class FakeNotificationServer: Sendable {
    public struct Options: Sendable {
        public var capabilities = ["actions", "body", "body-markup", "persistence", "sound"]
        public var inhibitedProperty = false
        public var logind = false
        /// The server's name in `GetServerInformation` (`gnome-shell` passes for GNOME).
        public var name = "chime-fake"

        public init(capabilities: [String]? = nil, inhibitedProperty: Bool = false, logind: Bool = false) {
            if let capabilities { self.capabilities = capabilities }
            self.inhibitedProperty = inhibitedProperty
            self.logind = logind
        }
    }

    /// One logged call: the JSON object the server printed.
    public struct Call: Sendable {
        public let json: JSONValue

        public subscript(key: String) -> JSONValue? { json[key] }
        public var id: Int { json["id"]?.intValue ?? -1 }
        public var summary: String { json["summary"]?.stringValue ?? "" }
        public var body: String { json["body"]?.stringValue ?? "" }
        public var replacesID: Int { json["replaces_id"]?.intValue ?? -1 }
        public var expireTimeout: Int { json["expire_timeout"]?.intValue ?? -99 }
        public var actions: [String] { json["actions"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        public func hint(_ name: String) -> JSONValue? { json["hints"]?[name] }
    }

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fake_notification_server.py").path

    private let process: ChildProcess
    /// The server's unique name on the bus.
    public let uniqueName: String

    private init(process: ChildProcess, uniqueName: String) {
        self.process = process
        self.uniqueName = uniqueName
    }

    /// Starts the server on `bus` and waits until it owns its names.
    public static func start(on bus: PrivateBus, options: Options = Options()) async throws -> FakeNotificationServer {
        var arguments = [script, "--capabilities", options.capabilities.joined(separator: ",")]
        if options.inhibitedProperty { arguments.append("--inhibited-property") }
        if options.logind { arguments.append("--logind") }
        arguments += ["--name", options.name]
        let process = try ChildProcess(Tool.pythonWithDBusNext(), ["-u"] + arguments, environment: bus.environment, name: "the fake notification server")
        do {
            let ready = try await process.output.take("the server's ready line") { $0.contains("\"event\": \"ready\"") }
            let name = try Self.parse(ready)["unique_name"]?.stringValue ?? ""
            return FakeNotificationServer(process: process, uniqueName: name)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Waits for the next call of `member` not yet taken (and, when given, one that fits `predicate`).
    public func nextCall(_ member: String, where predicate: @escaping @Sendable (Call) -> Bool = { _ in true }) async throws -> Call {
        let line = try await process.output.take("a \(member) call") { line in
            guard line.contains("\"call\": \"\(member)\""), let json = try? Self.parse(line) else { return false }
            return predicate(Call(json: json))
        }
        return Call(json: try Self.parse(line))
    }

    /// Every call of `member` so far, taken or not.
    public func calls(_ member: String) throws -> [Call] {
        try process.output.lines.filter { $0.contains("\"call\": \"\(member)\"") }.map { Call(json: try Self.parse($0)) }
    }

    /// Waits for the next `LauncherEntry.Update` signal the server saw on the bus.
    public func nextBadge() async throws -> Call {
        let line = try await process.output.take("a LauncherEntry.Update signal") { $0.contains("\"signal\": \"LauncherEntry.Update\"") }
        return Call(json: try Self.parse(line))
    }

    // MARK: The user, through the server

    public func invoke(id: Int, key: String) async throws { try await command(["invoke": .array([.int(id), .string(key)])]) }
    public func close(id: Int, reason: Int) async throws { try await command(["close": .array([.int(id), .int(reason)])]) }
    public func reply(id: Int, text: String) async throws { try await command(["reply": .array([.int(id), .string(text)])]) }
    /// `ActionInvoked` sent by another connection, which does not own the server's name.
    public func spoofInvoke(id: Int, key: String) async throws { try await command(["spoof_invoke": .array([.int(id), .string(key)])]) }
    public func setInhibited(_ inhibited: Bool) async throws { try await command(["inhibited": .bool(inhibited)]) }
    public func setLocked(_ locked: Bool) async throws { try await command(["locked": .bool(locked)]) }
    /// From now on `Notify` never answers.
    public func hang() async throws { try await command(["hang": .bool(true)]) }

    /// Sends a command and waits until the server has sent what it asked for.
    private func command(_ command: [String: JSONValue]) async throws {
        let line = String(decoding: try JSONEncoder().encode(JSONValue.object(command)), as: UTF8.self)
        let key = command.keys.first!
        process.send(line)
        _ = try await process.output.take("the end of command \(key)") { $0.contains("\"event\": \"done\"") && $0.contains("\"\(key)\"") }
    }

    public func stop() async {
        await process.stop()
    }

    private static func parse(_ line: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
    }
}
