import ChimeCore
import ChimeAPI
@testable import ChimeServer
import Synchronization
import Testing

/// The event hub without a server: what each stream's body holds is what its client would read.
@Suite("Event hub")
struct EventHubTests {
    struct Payload: Codable, Sendable { var n: Int }

    /// The events waiting in a body, as a client would parse them.
    func events(in subscription: EventHub.Subscription) throws -> [ServerSentEvent] {
        var buffer = [CChar](repeating: 0, count: 1 << 20)
        let count = subscription.body.read(into: &buffer, maximum: buffer.count)
        var parser = ServerSentEventParser()
        return try parser.append(buffer[..<max(0, count)].map { UInt8(bitPattern: $0) })
    }

    @Test func eachStreamGetsItsAudiencesEventsInOrder() throws {
        let hub = EventHub()
        let lists = try hub.subscribe(.lists, lastEventID: nil) { _ in }
        let app = try hub.subscribe(.app("a"), lastEventID: nil) { _ in }
        hub.publish(.delivered, Payload(n: 1), to: .lists)
        hub.publish(.response, Payload(n: 2), to: .app("a"))
        hub.publish(.response, Payload(n: 3), to: .app("b"))
        hub.publish(.delivered, Payload(n: 4), to: .lists)
        #expect(try events(in: lists).map(\.data) == [#"{"n":1}"#, #"{"n":4}"#])
        #expect(try events(in: app).map(\.event) == ["response"])
    }

    @Test func aReconnectingStreamGetsWhatItMissedAndNothingTwice() throws {
        let hub = EventHub()
        let first = try hub.subscribe(.lists, lastEventID: nil) { _ in }
        hub.publish(.delivered, Payload(n: 1), to: .lists)
        let seen = try events(in: first)
        first.body.close()
        let keeper = try hub.subscribe(.lists, lastEventID: nil) { _ in }  // keeps the audience observed
        hub.publish(.delivered, Payload(n: 2), to: .lists)
        hub.publish(.delivered, Payload(n: 3), to: .lists)
        let again = try hub.subscribe(.lists, lastEventID: seen.last?.id) { _ in }
        #expect(again.resumed)
        #expect(try events(in: again).map(\.data) == [#"{"n":2}"#, #"{"n":3}"#])
        _ = keeper
    }

    @Test func aStreamCannotResumeAcrossEventsNobodyReceivedOrFromAnotherRun() throws {
        let hub = EventHub()
        let first = try hub.subscribe(.lists, lastEventID: nil) { _ in }
        hub.publish(.delivered, Payload(n: 1), to: .lists)
        let last = try events(in: first).last?.id
        first.body.close()
        hub.publish(.delivered, Payload(n: 2), to: .lists)  // no stream open: not kept
        let again = try hub.subscribe(.lists, lastEventID: last, initial: [(.reset, ResetEvent())]) { _ in }
        #expect(!again.resumed)
        #expect(try events(in: again).map(\.event) == ["reset"])

        let otherRun = try EventHub().subscribe(.lists, lastEventID: last) { _ in }
        #expect(!otherRun.resumed)
    }

    @Test func aReaderThatFallsBehindIsDroppedNotWaitedFor() throws {
        var configuration = EventHub.Configuration()
        configuration.streamCapacity = 4096
        let hub = EventHub(configuration: configuration)
        let closed = Mutex(0)
        let slow = try hub.subscribe(.lists, lastEventID: nil) { _ in closed.withLock { $0 += 1 } }
        for n in 0..<1000 { hub.publish(.delivered, Payload(n: n), to: .lists) }
        #expect(slow.body.isClosed)
        #expect(closed.withLock { $0 } == 1, "told once")
        #expect(hub.streamCount == 0)
    }

    @Test func beyondTheStreamLimitSubscribersAreRefused() throws {
        var configuration = EventHub.Configuration()
        configuration.streamLimit = 2
        let hub = EventHub(configuration: configuration)
        let open = try (0..<2).map { _ in try hub.subscribe(.lists, lastEventID: nil) { _ in } }
        #expect(throws: APIError(.tooManyRequests, "2 event streams are open; close one first")) {
            _ = try hub.subscribe(.lists, lastEventID: nil) { _ in }
        }
        open[0].body.close()
        _ = try hub.subscribe(.lists, lastEventID: nil) { _ in }
    }
}

@Suite("App presence")
struct AppPresenceTests {
    @Test func theNewestStreamSaysHowAnAppIsConnectedUntilTheLastCloses() {
        let presence = AppPresence()
        presence.opened(.init(id: 1, foreground: false, decidesResponses: true), app: "a")
        presence.opened(.init(id: 2, foreground: true, decidesResponses: true), app: "a")
        #expect(presence.current("a")?.foreground == true)
        #expect(presence.closed(2, app: "a")?.id == 1)
        #expect(presence.closed(1, app: "a") == nil)
        #expect(presence.connectedApps.isEmpty)
    }

    @Test func twoMissedAnswersInARowMakeAnAppUnresponsiveUntilItAnswers() {
        let presence = AppPresence(missedAnswersLimit: 2)
        presence.opened(.init(id: 1, foreground: true, decidesResponses: false), app: "a")
        #expect(!presence.missedAnswer("a"))
        #expect(presence.isResponsive("a"))
        #expect(presence.missedAnswer("a"))
        #expect(!presence.isResponsive("a"))
        presence.answered("a")
        #expect(presence.isResponsive("a"))
    }
}

@Suite("Errors as statuses")
struct HTTPErrorMappingTests {
    @Test func eachErrorHasItsStatus() {
        let statuses: [(APIError, Int)] = [
            (APIError(.unauthenticated, ""), 401), (APIError(.forbidden, ""), 403), (APIError(.unknownRoute, ""), 404),
            (APIError(.methodNotAllowed, ""), 405), (APIError(.payloadTooLarge, ""), 413), (APIError(.unsupportedMediaType, ""), 415),
            (APIError(.tooManyRequests, ""), 429), (APIError(.unavailable, ""), 503), (APIError(.invalidParameters, ""), 400),
            (APIError(.internalError, ""), 500),
            (APIError(.init(.notificationsNotAllowed, "")), 403), (APIError(.init(.notificationNotFound, "")), 404),
            (APIError(.init(.actionNotAvailable, "")), 409), (APIError(.init(.sessionLocked, "")), 409),
            (APIError(.init(.invalidTimeInterval, "")), 400), (APIError(.init(.badgeInputInvalid, "")), 400),
        ]
        for (error, status) in statuses { #expect(HTTPErrorMapping.status(of: error) == status, "\(error)") }
    }
}
