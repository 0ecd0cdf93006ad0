import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Distances on the WGS 84 ellipsoid and region monitoring's decisions, against Karney's GeographicLib
/// (`geodesic_oracle.py`) as the independent judge: it measures the distances, and it places the fixes of
/// a walk at exact distances from a region's centre.
@Suite("Region monitoring")
struct RegionMonitoringTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("geodesic_oracle.py").path

    func judge(_ mode: String, _ lines: [String]) async throws -> [[Double]] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("chime-geodesics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let judged = try await Subprocess.run("/usr/bin/python3", [Self.oracle, mode, input.path])
        try #require(judged.status == 0, "\(judged.standardError)")
        let answers = judged.standardOutput.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
        try #require(answers.count == lines.count, "the judge answered each line")
        return answers
    }

    /// Textbook values: Vincenty's own example (Flinders Peak to Buninyong), a degree along the equator and
    /// one along the meridian.
    @Test func knownDistances() {
        let flindersToBuninyong = GeodesicDistance.metres(
            fromLatitude: -(37 + 57 / 60.0 + 3.72030 / 3600), longitude: 144 + 25 / 60.0 + 29.52440 / 3600,
            toLatitude: -(37 + 39 / 60.0 + 10.15610 / 3600), longitude: 143 + 55 / 60.0 + 35.38390 / 3600)
        #expect(abs(flindersToBuninyong - 54_972.271) < 0.001)
        #expect(abs(GeodesicDistance.metres(fromLatitude: 0, longitude: 0, toLatitude: 0, longitude: 1) - 111_319.491) < 0.001)
        #expect(abs(GeodesicDistance.metres(fromLatitude: 0, longitude: 0, toLatitude: 1, longitude: 0) - 110_574.389) < 0.001)
        #expect(GeodesicDistance.metres(fromLatitude: 37.5665, longitude: 126.978, toLatitude: 37.5665, longitude: 126.978) == 0)
    }

    /// Near pairs (within 20 km, where regions are) to a millimetre; any two points on the globe to a
    /// millionth; nearly antipodal ones, where the formula falls back to the sphere, to half a percent.
    @Test func distancesAgreeWithGeographicLib() async throws {
        var pairs: [(Double, Double, Double, Double, tolerance: (Double) -> Double)] = []
        for _ in 0..<1500 {
            let latitude = Double.random(in: -89...89), longitude = Double.random(in: -180...180)
            pairs.append((latitude, longitude, latitude + .random(in: -0.15...0.15), longitude + .random(in: -0.15...0.15), { _ in 0.001 }))
        }
        for _ in 0..<1500 {
            pairs.append((.random(in: -90...90), .random(in: -180...180), .random(in: -90...90), .random(in: -180...180), { $0 * 1e-6 + 0.001 }))
        }
        for _ in 0..<100 {
            let latitude = Double.random(in: -10...10), longitude = Double.random(in: -180...0)
            pairs.append((latitude, longitude, -latitude + .random(in: -0.5...0.5), longitude + 180 + .random(in: -0.5...0.5), { $0 * 0.005 }))
        }
        let judged = try await judge("inverse", pairs.map { "\($0.0) \($0.1) \($0.2) \($0.3)" })
        var disagreements: [String] = []
        for (pair, answer) in zip(pairs, judged) {
            let ours = GeodesicDistance.metres(fromLatitude: pair.0, longitude: pair.1, toLatitude: pair.2, longitude: pair.3)
            if abs(ours - answer[0]) > pair.tolerance(answer[0]) { disagreements.append("\(pair.0),\(pair.1) → \(pair.2),\(pair.3): \(ours) against \(answer[0])") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(5))")
    }

    /// A walk towards a 150 m region and out again, with fixes placed by the judge: the first fix decides
    /// where the device is by its centre, without a crossing; an exit needs the fix beyond the radius by
    /// the cushion (its accuracy, at least 15 m here), an entry within it by as much, at most 75 m; fixes
    /// jittering across the boundary in between change nothing; a fix coarser than 600 m decides nothing.
    @Test func aWalkInAndOutCrossesOnceEachWay() async throws {
        let region = try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150, identifier: "office")
        // (metres from the centre, accuracy, the state after it)
        let walk: [(Double, Double, RegionState)] = [
            (0, 601, .unknown),  // too coarse to decide anything, even first
            (400, 20, .outside),  // the first fix: outside, no crossing
            (200, 20, .outside),
            (140, 20, .outside),  // inside the circle, but not by the cushion: not yet an entry
            (129.99, 20, .inside),  // 150 − 20: entered
            (160, 20, .inside), (140, 20, .inside), (165, 20, .inside),  // jitter at the boundary
            (170.01, 20, .outside),  // 150 + 20: left
            (135.01, 5, .outside),  // a better fix: the cushion is then a tenth of the radius (15 m)
            (134.99, 5, .inside),
            (0, 500, .inside),  // coarse: the cushion is half the radius (75 m)
            (224.99, 500, .inside),
            (649.99, 500, .inside),  // leaving takes the coarse fix's whole accuracy
            (650.01, 500, .outside),  // 150 + 500: left
            (75.01, 500, .outside),
            (74.99, 160, .inside),  // coarser than the region, but within half its radius of the centre: entered
            (2000, 601, .inside),  // too coarse: stays
        ]
        let lines = walk.enumerated().map { index, step in "\(region.latitude) \(region.longitude) \(Double(index * 37 % 360)) \(step.0)" }
        let points = try await judge("direct", lines)
        var state = RegionState.unknown
        var events: [RegionEvent?] = []
        for (step, point) in zip(walk, points) {
            let fix = LocationFix(latitude: point[0], longitude: point[1], accuracy: step.1, timestamp: Date())
            let next = region.state(after: fix, from: state)
            #expect(next == step.2, "\(step.0) m ± \(step.1) m (judged \(region.distance(to: fix)) m) from \(state)")
            events.append(region.event(from: state, to: next))
            state = next
        }
        #expect(events.compactMap(\.self) == [.entry, .exit, .entry, .exit, .entry])
        #expect(events.firstIndex { $0 != nil } == 4, "the first fix decided without a crossing")
    }

    /// The first usable fix decides by its centre when it is no coarser than the region; a coarser one only
    /// when it is clearly outside, so a coarse fix that happens to be centred inside does not make the
    /// precise one after it an exit. The cushion of a large region stops at 50 m, so a 10 km region is
    /// entered 50 m inside its edge with a precise fix, not a kilometre.
    @Test func theFirstFixAndLargeRegions() throws {
        let region = try CircularRegion(latitude: 0, longitude: 0, radius: 150, identifier: "office")
        let metre = 1 / 110_574.389  // degrees of latitude at the equator, per metre
        func fix(_ metres: Double, _ accuracy: Double) -> LocationFix { LocationFix(latitude: metres * metre, longitude: 0, accuracy: accuracy, timestamp: Date()) }
        #expect(region.state(after: fix(149, 150), from: .unknown) == .inside)
        #expect(region.state(after: fix(151, 1), from: .unknown) == .outside)
        #expect(region.state(after: fix(0, 601), from: .unknown) == .unknown, "too coarse to decide anything")
        #expect(region.state(after: fix(140, 500), from: .unknown) == .unknown, "coarser than the region and not clearly outside")
        #expect(region.state(after: fix(650.01, 500), from: .unknown) == .outside, "coarse, but clearly outside")
        let then = region.state(after: fix(200, 20), from: region.state(after: fix(140, 500), from: .unknown))
        #expect(then == .outside && region.event(from: .unknown, to: then) == nil, "the precise fix after it decides, without a crossing")
        let city = try CircularRegion(latitude: 0, longitude: 0, radius: 10_000, identifier: "city")
        #expect(city.cushion(for: LocationFix(latitude: 0, longitude: 0, accuracy: 10, timestamp: Date())) == 50)
        #expect(city.state(after: LocationFix(latitude: 9_949 * metre, longitude: 0, accuracy: 10, timestamp: Date()), from: .outside) == .inside)
        #expect(city.state(after: LocationFix(latitude: 9_951 * metre, longitude: 0, accuracy: 10, timestamp: Date()), from: .outside) == .outside)
    }

    @Test func theFlagsTheFloorAndInvalidFixes() throws {
        let small = try CircularRegion(latitude: 0, longitude: 0, radius: 20, identifier: "desk", notifyOnEntry: false, notifyOnExit: true)
        #expect(small.monitoredRadius == CircularRegion.monitoredRadiusFloor)
        #expect(small.event(from: .outside, to: .inside) == nil, "no entries asked")
        #expect(small.event(from: .inside, to: .outside) == .exit)
        #expect(small.event(from: .unknown, to: .inside) == nil)
        #expect(small.event(from: .unknown, to: .outside) == nil)
        // 50 m away is inside the floor's 100 m circle (50 + 10 ≤ 100).
        let fifty = LocationFix(latitude: 0.000_452_2, longitude: 0, accuracy: 10, timestamp: Date())
        #expect(small.state(after: fifty, from: .outside) == .inside)
        let fixed = LocationFix(latitude: 0.000_452_2, longitude: 0, accuracy: 0, timestamp: Date())
        #expect(fixed.isValid && small.state(after: fixed, from: .outside) == .inside, "a fixed position's accuracy of 0 is valid")
        for invalid in [
            LocationFix(latitude: 0, longitude: 0, accuracy: -1, timestamp: Date()), LocationFix(latitude: 0, longitude: 0, accuracy: .nan, timestamp: Date()),
            LocationFix(latitude: 91, longitude: 0, accuracy: 5, timestamp: Date()), LocationFix(latitude: 0, longitude: .infinity, accuracy: 5, timestamp: Date()),
        ] {
            #expect(small.state(after: invalid, from: .outside) == .outside)
        }
    }
}
