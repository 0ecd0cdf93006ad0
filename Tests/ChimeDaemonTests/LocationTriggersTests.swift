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

    /// A repeating trigger fires on every entry, and GeoClue keeps running between them.
    @Test func aRepeatingTriggerFiresOnEveryEntry() async throws {
        let bus = try await PrivateBus.start(.system)
        let geoclue = try await GeoCluePeer.start(on: bus)
        let home = try DaemonHome()
        let daemon = try await home.start(bus: bus)
        _ = await chime(["add", "--region", "37.5665,126.978,150", "--on-entry", "--repeats", "--title", "Office", "--id", "office"], home)
        _ = try await geoclue.next("Start")
        for round in 1...2 {
            try await geoclue.move(latitude: 37.5765, longitude: 126.978, accuracy: 20)
            try await geoclue.move(latitude: 37.5665, longitude: 126.978, accuracy: 20)
            try await daemon.presented("chime", "office")
            #expect(await chime(["pending"], home).standardOutput.contains("on entering 37.5665,126.978 (150 m)"), "round \(round): still waiting")
        }
        #expect(geoclue.count("Stop") == 0 && geoclue.count("CreateClient") == 1, "one GeoClue client all along")
        #expect(await daemon.terminate() == 0)
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
