public import ChimeAPI
import Foundation

/// An event of the list stream (`GET /v1/events`): what pages and `chime watch` follow.
public enum ListEvent: Sendable, Hashable {
    case delivered(DeliveredEvent)
    case deliveredRemoved(DeliveredRemovedEvent)
    case pendingChanged(PendingChangedEvent)
    case responded(RespondedEvent)
    /// The stream could not resume from the `lastEventID` given: what was missed is lost.
    case reset
}

/// The list stream, open from `DaemonClient.listEvents` until `close()` or until the daemon ends it
/// (`events` then finishes).
public final class ListEventStream: Sendable {
    public let events: AsyncStream<ListEvent>
    private let connection: EventStreamConnection

    fileprivate init(events: AsyncStream<ListEvent>, connection: EventStreamConnection) {
        self.events = events
        self.connection = connection
    }

    public func close() { connection.close() }
}

extension DaemonClient {
    /// Opens the list stream: every app's list changes and the user's responses, from now on, or from
    /// after `lastEventID` as far as the daemon still holds it. The user's, not an app's (an app
    /// connection is refused).
    public func listEvents(lastEventID: String? = nil) async throws -> ListEventStream {
        let (events, continuation) = AsyncStream.makeStream(of: ListEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let connection = try await EventStreamConnection.open(
            socketPath: transport.socketPath, token: transport.token, appHeader: transport.appHeader, path: Route.events.template, query: [],
            lastEventID: lastEventID,
            onEvent: { event in
                if let decoded = Self.decodeListEvent(event) { continuation.yield(decoded) }
            },
            onEnd: { continuation.finish() })
        return ListEventStream(events: events, connection: connection)
    }

    private static func decodeListEvent(_ event: ServerSentEvent) -> ListEvent? {
        let data = Data(event.data.utf8)
        let decoder = WireFormat.decoder()
        switch EventKind(rawValue: event.event) {
        case .delivered: return (try? decoder.decode(DeliveredEvent.self, from: data)).map(ListEvent.delivered)
        case .deliveredRemoved: return (try? decoder.decode(DeliveredRemovedEvent.self, from: data)).map(ListEvent.deliveredRemoved)
        case .pendingChanged: return (try? decoder.decode(PendingChangedEvent.self, from: data)).map(ListEvent.pendingChanged)
        case .responded: return (try? decoder.decode(RespondedEvent.self, from: data)).map(ListEvent.responded)
        case .reset: return .reset
        default: return nil
        }
    }
}
