import ChimeCore
import ChimeDesktop
import ChimeTestSupport
import Foundation
import Testing

/// The GeoClue client against a scripted GeoClue 2 (`geoclue_peer.py`) on a private system bus: it names
/// itself and asks for exact accuracy before starting, hands on GeoClue's own positions and not a spoofer's,
/// stops and deletes its client, and tells an absent GeoClue from one that refuses.
@Suite("GeoClue location source", .serialized)
struct GeoClueLocationSourceTests {
    /// Fixes as they arrive, awaited one by one.
    final class Fixes: Sendable {
        let stream: AsyncStream<LocationFix>
        let continuation: AsyncStream<LocationFix>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream(of: LocationFix.self) }

        func next() async -> LocationFix? {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
    }

    @Test func itStartsNamedAndHandsOnGeoCluesOwnPositions() async throws {
        let bus = try await PrivateBus.start(.system)
        let peer = try await GeoCluePeer.start(on: bus)
        let fixes = Fixes()
        let source = GeoClueLocationSource(bus: .address(bus.address), desktopID: "chimed") { fixes.continuation.yield($0) }
        #expect(await source.start() == .running)
        let started = try await peer.next("Start")
        #expect(started["desktop_id"]?.stringValue == "chimed" && started["accuracy"]?.intValue == 8, "named, exact accuracy asked for")

        try await peer.spoof(latitude: 1, longitude: 2, accuracy: 3)
        try await peer.move(latitude: 37.5665, longitude: 126.978, accuracy: 25)
        let fix = try #require(await fixes.next())
        #expect(fix.latitude == 37.5665 && fix.longitude == 126.978 && fix.accuracy == 25, "GeoClue's position, not the spoofer's sent before it")
        #expect(abs(fix.timestamp.timeIntervalSinceNow) < 60, "the Location's own timestamp")

        await source.stop()
        _ = try await peer.next("Stop")
        _ = try await peer.next("DeleteClient")
        #expect(await source.state == .stopped)
        #expect(await source.start() == .running, "it starts again")
        try await peer.stale(latitude: 0, longitude: 0, accuracy: 10)  // on the deleted first client's path
        try await peer.move(latitude: 35.1798, longitude: 129.075, accuracy: 40)
        #expect(await fixes.next()?.latitude == 35.1798, "the position signalled on the deleted client was not handed on")
        #expect(peer.count("CreateClient") == 2)
        await source.stop()
        await peer.stop()
        await bus.stop()
    }

    @Test func aRefusalAndAnAbsentServiceAreToldApart() async throws {
        let bus = try await PrivateBus.start(.system)
        let source = GeoClueLocationSource(bus: .address(bus.address), desktopID: "chimed", timeout: .seconds(2)) { _ in }
        guard case .unavailable(let why) = await source.start() else {
            Issue.record("no GeoClue on the bus: \(await source.state)")
            return
        }
        #expect(why.contains("ServiceUnknown"), "\(why)")

        let peer = try await GeoCluePeer.start(on: bus, denying: ["chimed"])
        guard case .denied(let reason) = await source.start() else {
            Issue.record("GeoClue refused chimed: \(await source.state)")
            return
        }
        #expect(reason.contains("AccessDenied"), "\(reason)")
        _ = try await peer.next("Start", refused: true)
        _ = try await peer.next("DeleteClient")
        await peer.stop()
        await bus.stop()
    }
}
