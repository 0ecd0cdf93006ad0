import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// `geofence`: a geofenced reminder written as iOS code, fired from the positions of a scripted GeoClue on
/// a private system bus, asked for in the app's own name.
@Suite("Examples: geofence")
struct GeofenceExampleTests {
    @Test func arrivingAtTheOfficeShowsTheReminderOnce() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus)
        let data = try DataFolder()
        let run = try ExampleRun("geofence", [], data: data, environment: Self.environment(bus))
        try await run.expect("[y/n] ")
        run.type("y")
        let asked = try await geoclue.next("Start")
        #expect(asked["desktop_id"]?.stringValue == "com.example.geofence", "CLLocationManager asks GeoClue in the app's name")
        _ = try await geoclue.next("Stop")  // the permission request's client, done
        _ = try await geoclue.next("DeleteClient")
        try await run.expect("Reminder set for when you arrive within 150 m of 37.5665,126.978.")
        let started = try await geoclue.next("Start")
        #expect(started["desktop_id"]?.stringValue == "com.example.geofence", "the engine's positions too")

        try await geoclue.move(latitude: 37.5665, longitude: 126.978, accuracy: 15)  // the first fix: already there
        // An entry fired now would show within milliseconds and spend the one-shot reminder, stopping
        // GeoClue: a second is ample to see neither.
        try await Task.sleep(for: .seconds(1))
        #expect(!run.transcript.contains("Welcome to the office") && geoclue.count("Stop") == 1, "the first fix, already inside, fired nothing")
        try await geoclue.move(latitude: 37.58, longitude: 126.978, accuracy: 15)  // 1.5 km north
        try await geoclue.move(latitude: 37.5666, longitude: 126.978, accuracy: 15)  // back, 11 m from the centre
        let shown = try await run.expect("Check in at the front desk.")
        #expect(shown.contains("Welcome to the office"))
        let stopped = try await geoclue.next("Stop")  // the one-shot reminder is spent: GeoClue is no longer needed
        #expect(stopped["client"] == started["client"], "the engine's client")
        run.endInput()
        #expect(try await run.exit() == 0)
        #expect(run.transcript.components(separatedBy: "Welcome to the office").count == 2, "shown once: \(run.transcript)")
        await geoclue.stop()
        await bus.stop()
    }

    /// GeoClue refusing the app is `CLAuthorizationStatus.denied` to the app's delegate, and the app says
    /// so rather than set a reminder that could never fire.
    @Test func aRefusedLocationPermissionIsSaid() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus, denying: ["com.example.geofence"])
        let data = try DataFolder()
        let run = try ExampleRun("geofence", [], data: data, environment: Self.environment(bus))
        try await run.expect("[y/n] ")
        run.type("y")
        _ = try await geoclue.next("Start", refused: true)
        try await run.expect("location is not allowed")
        #expect(try await run.exit() != 0)
        await geoclue.stop()
        await bus.stop()
    }

    /// The private system bus; the app names itself (`configureEmbedded`), for notifications and location.
    static func environment(_ bus: PrivateBus) -> [String: String] {
        bus.environment
    }
}
