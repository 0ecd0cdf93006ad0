public import ChimeCore
import Foundation

/// The scripted GeoClue 2 service (`geoclue_peer.py`, Python dbus-next) on a private system bus: a peer
/// that speaks GeoClue's real interface, checks its callers as GeoClue does, logs every call, and sends
/// the positions the test gives.
public final class GeoCluePeer: Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("geoclue_peer.py").path

    private let process: ChildProcess

    private init(process: ChildProcess) {
        self.process = process
    }

    /// Starts the service on `bus` (a `.system` private bus) and waits until it owns its name.
    ///
    /// - Parameters:
    ///   - denying: desktop ids whose `Start` GeoClue refuses, as its configuration would.
    ///   - holdingStart: `Start` never answers, as while GeoClue's agent waits for the user.
    public static func start(on bus: PrivateBus, denying: [String] = [], holdingStart: Bool = false) async throws -> GeoCluePeer {
        let arguments = [script] + denying.flatMap { ["--deny", $0] } + (holdingStart ? ["--hold"] : [])
        let process = try ChildProcess(Tool.pythonWithDBusNext(), ["-u"] + arguments, environment: bus.environment, name: "the GeoClue peer")
        do {
            _ = try await process.output.take("GeoClue's ready line") { $0.contains("\"event\": \"ready\"") }
            return GeoCluePeer(process: process)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Waits for the next logged line with `"call": member` (or `"refused": member`) and returns it.
    public func next(_ member: String, refused: Bool = false) async throws -> JSONValue {
        let key = refused ? "refused" : "call"
        let line = try await process.output.take("a \(key) \(member)") { $0.contains("\"\(key)\": \"\(member)\"") }
        return try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
    }

    /// How many lines with `"call": member` were logged so far.
    public func count(_ member: String) -> Int {
        process.output.lines.filter { $0.contains("\"call\": \"\(member)\"") }.count
    }

    /// A new position for every started client.
    public func move(latitude: Double, longitude: Double, accuracy: Double) async throws {
        try await command("fix", [latitude, longitude, accuracy])
    }

    /// A position signalled from GeoClue's own connection on the path of every client it deleted, which a
    /// later client must ignore.
    public func stale(latitude: Double, longitude: Double, accuracy: Double) async throws {
        try await command("stale", [latitude, longitude, accuracy])
    }

    /// A position sent by another connection than GeoClue's own, which a client must ignore.
    public func spoof(latitude: Double, longitude: Double, accuracy: Double) async throws {
        try await command("spoof", [latitude, longitude, accuracy])
    }

    private func command(_ key: String, _ values: [Double]) async throws {
        let line = String(decoding: try JSONEncoder().encode(JSONValue.object([key: .array(values.map { .double($0) })])), as: UTF8.self)
        process.send(line)
        _ = try await process.output.take("the end of command \(key)") { $0.contains("\"event\": \"done\"") && $0.contains("\"\(key)\"") }
    }

    public func stop() async {
        await process.stop()
    }
}
