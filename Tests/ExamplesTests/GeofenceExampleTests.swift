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
        let run = try ExampleRun("geofence", [], data: data, environment: bus.environment)
        try await run.expect("[y/n] ")
        run.type("y")
        try await run.expect("Reminder set for when you arrive within 150 m of 37.5665,126.978.")
        let started = try await geoclue.next("Start")
        #expect(started["desktop_id"]?.stringValue == "com.example.geofence", "GeoClue is asked in the app's name")

        try await geoclue.move(latitude: 37.5665, longitude: 126.978, accuracy: 15)  // the first fix: already there
        try await geoclue.move(latitude: 37.58, longitude: 126.978, accuracy: 15)  // 1.5 km north
        try await geoclue.move(latitude: 37.5666, longitude: 126.978, accuracy: 15)  // back, 11 m from the centre
        let shown = try await run.expect("Check in at the front desk.")
        #expect(shown.contains("Welcome to the office"))
        #expect(shown.components(separatedBy: "Check in at the front desk.").count == 2, "shown once, at the second fix inside only")
        _ = try await geoclue.next("Stop")  // the one-shot reminder is spent: GeoClue is no longer needed
        run.endInput()
        #expect(try await run.exit() == 0)
        await geoclue.stop()
        await bus.stop()
    }
}
