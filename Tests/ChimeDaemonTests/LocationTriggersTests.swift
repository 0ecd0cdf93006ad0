import ChimeCLI
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Location triggers in a real chimed with a scripted GeoClue on a private system bus: GeoClue runs only
/// while one is pending, a walk into the region fires it once, and a GeoClue that refuses chimed leaves
/// the trigger pending with `chime doctor` saying why.
@Suite("chimed: location triggers")
struct LocationTriggersTests {
    func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths)
    }

    @Test func aWalkIntoTheRegionFiresItOnceAndGeoClueStopsAfter() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus)
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)
        #expect(await chime(["doctor"], home).standardOutput.contains("location") == false, "no location trigger, no GeoClue")
        #expect(geoclue.count("CreateClient") == 0)

        let added = await chime(["add", "--region", "37.5665,126.978,150", "--on-entry", "--title", "Office", "--id", "office"], home)
        #expect(added.exitCode == .success, "\(added.standardError)")
        let started = try await geoclue.next("Start")
        #expect(started["desktop_id"]?.stringValue == "chimed")
        try await eventually("chime doctor says GeoClue runs") { await chime(["doctor"], home).standardOutput.contains("GeoClue: running") }

        try await geoclue.move(latitude: 37.5765, longitude: 126.978, accuracy: 20)  // 1.1 km north: outside
        try await geoclue.move(latitude: 37.5665, longitude: 126.978, accuracy: 20)
        try await daemon.presented("chime", "office")
        _ = try await geoclue.next("Stop")
        _ = try await geoclue.next("DeleteClient")
        #expect(await chime(["pending"], home).standardOutput == "No pending notifications.\n")
        #expect(await daemon.terminate() == 0)
        await geoclue.stop()
        await bus.stop()
    }

    /// A walk scripted through GeoClue: repeating entry and exit triggers fire on every entry and exit and
    /// stay, positions jittering across the edge fire neither (both repeat, so a flap would show twice),
    /// and GeoClue keeps running between them.
    @Test func entriesExitsAndJitterAlongAWalk() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus)
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)
        _ = await chime(["add", "--region", "37.5665,126.978,150", "--on-entry", "--repeats", "--title", "Office", "--id", "office"], home)
        _ = await chime(["add", "--region", "37.5665,126.978,150", "--on-exit", "--repeats", "--title", "Left", "--id", "left"], home)
        _ = try await geoclue.next("Start")
        /// A position `metres` north of the region's centre (0.0001° of latitude is 11.1 m there).
        func at(_ metres: Double, accuracy: Double = 20) async throws {
            try await geoclue.move(latitude: 37.5665 + metres / 111_000, longitude: 126.978, accuracy: accuracy)
        }
        func shown(_ identifier: String) -> Int { daemon.log.lines.filter { $0.contains("presented chime/\(identifier) — ") }.count }

        try await at(1100)  // the first fix: outside, nothing
        try await at(0)
        try await daemon.presented("chime", "office")
        for metres in [140.0, 165, 130, 170, 150] {  // at the edge, good to 30 m: neither in nor out by the cushion
            try await at(metres, accuracy: 30)
        }
        try await at(1100)
        try await daemon.presented("chime", "left")
        try await at(0)
        try await daemon.presented("chime", "office")
        let pending = await chime(["pending"], home).standardOutput
        #expect(pending.contains("on entering 37.5665,126.978 (150 m)") && pending.contains("on leaving 37.5665,126.978 (150 m)"), "both stay: \(pending)")
        #expect(geoclue.count("Stop") == 0 && geoclue.count("CreateClient") == 1, "one GeoClue client all along")
        #expect(await daemon.terminate() == 0)
        // Counted once chimed is gone, so a late extra notification would be counted too.
        #expect(shown("office") == 2 && shown("left") == 1, "no flapping at the edge, the exit once")
        await geoclue.stop()
        await bus.stop()
    }

    @Test func aRefusingGeoClueLeavesTheTriggerPendingAndDoctorSaysWhy() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus, denying: ["chimed"])
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)
        _ = await chime(["add", "--region", "37.5665,126.978,150", "--title", "Office", "--id", "office"], home)
        _ = try await geoclue.next("Start", refused: true)
        try await eventually("chime doctor says GeoClue refused") { await chime(["doctor"], home).standardOutput.contains("GeoClue: denied") }
        #expect(await chime(["pending"], home).standardOutput.contains("office"), "the trigger stays pending")
        #expect(await daemon.terminate() == 0)
        await geoclue.stop()
        await bus.stop()
    }
}
