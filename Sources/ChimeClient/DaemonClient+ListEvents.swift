public import ChimeAPI
import Foundation
import Synchronization

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
    private let lastID: LastEventID

    fileprivate init(events: AsyncStream<ListEvent>, connection: EventStreamConnection, lastID: LastEventID) {
        self.events = events
        self.connection = connection
        self.lastID = lastID
    }

    /// The id of the last event received: pass it to `listEvents(lastEventID:)` to go on from there after
    /// the stream ended (a daemon that restarted meanwhile answers `.reset`).
    public var lastEventID: String? { lastID.value.withLock { $0 } }

    public func close() { connection.close() }
}

extension DaemonClient {
    /// Opens the list stream: every app's list changes and the user's responses, from now on, or from
    /// after `lastEventID` as far as the daemon still holds it. The user's, not an app's (an app
    /// connection is refused).
    public func listEvents(lastEventID: String? = nil) async throws -> ListEventStream {
        let (events, continuation) = AsyncStream.makeStream(of: ListEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let lastID = LastEventID(lastEventID)
        let connection = try await EventStreamConnection.open(
            endpoint: transport.endpoint, token: transport.token, appHeader: transport.appHeader, path: Route.events.template, query: [],
            lastEventID: lastEventID,
            onEvent: { event in
                if let id = event.id { lastID.value.withLock { $0 = id } }
                if let decoded = Self.decodeListEvent(event) { continuation.yield(decoded) }
            },
            onEnd: { continuation.finish() })
        return ListEventStream(events: events, connection: connection, lastID: lastID)
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

/// The id of the last event a stream received, set on the stream's thread and read by its owner.
private final class LastEventID: Sendable {
    let value: Mutex<String?>

    init(_ id: String?) { value = Mutex(id) }
}
