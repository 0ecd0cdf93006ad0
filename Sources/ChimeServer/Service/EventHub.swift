public import ChimeAPI
import Foundation
import Synchronization

/// Every event stream the daemon serves, and the events they carry.
///
/// Events get ids `<epoch>.<sequence>`: the epoch is new at each start of the daemon, the sequence grows
/// by one per event. The hub keeps the last `retainedEvents` events, so a stream that reconnects with
/// `Last-Event-ID` gets what it missed; one that missed more, or comes from another run, is told it
/// cannot resume (`Subscription.resumed` is false) and its owner sends what stands instead (an app's
/// queued responses; `reset` for pages).
///
/// Publishing never waits for a reader: each stream is a bounded `StreamingBody`, and a stream whose
/// reader falls `streamCapacity` bytes behind is closed (it reconnects and resumes). Events reach every
/// stream in id order: publishing and subscribing take one lock in turn, so a stream's replay and the
/// live events that follow it never overlap or leave a gap.
public final class EventHub: Sendable {
    /// Who an event is for.
    public enum Audience: Sendable, Hashable {
        /// Pages: every app's list changes.
        case lists
        /// One app's own stream.
        case app(String)
    }

    public struct Configuration: Sendable {
        /// Events kept for streams that resume.
        public var retainedEvents = 4096
        /// Bytes a stream's reader may fall behind before the stream is closed.
        public var streamCapacity = 512 << 10
        /// Streams open at once; more are refused with `tooManyRequests`.
        public var streamLimit = 16_384
        public init() {}
    }

    /// One open stream: its body (what the HTTP layer sends) and whether it resumed.
    public struct Subscription: Sendable {
        public let id: Int
        public let body: StreamingBody
        /// The stream continued from its `Last-Event-ID` with everything it missed.
        public let resumed: Bool
    }

    private struct Retained {
        let sequence: UInt64
        let audience: Audience
        let frame: [UInt8]
    }

    private struct State {
        var nextSequence: UInt64 = 1
        var retained: [Retained] = []
        var retainedStart = 0
        var streams: [Int: (audience: Audience, body: StreamingBody)] = [:]
        var nextStream = 0
        /// The last event of each audience that nobody received (no stream was open for it): a stream
        /// cannot resume from before it.
        var unobservedThrough: [Audience: UInt64] = [:]
    }

    public let epoch: String
    public let configuration: Configuration
    /// Held across a whole publish or subscribe, so streams see events in id order.
    private let ordering = Mutex(())
    private let state = Mutex(State())

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        epoch = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Streams open now.
    public var streamCount: Int { state.withLock { $0.streams.count } }

    /// Streams open now for `audience`.
    public func streamCount(for audience: Audience) -> Int {
        state.withLock { $0.streams.values.count { $0.audience == audience } }
    }

    /// Opens a stream for `audience`.
    ///
    /// - Parameters:
    ///   - lastEventID: What the client saw last (`Last-Event-ID`), if it reconnects.
    ///   - initial: Sent first when the stream does not resume (an app's queued responses), each with an id.
    ///   - onClose: Called once when the stream ends, whoever ends it.
    /// - Throws: `APIError.tooManyRequests` when `streamLimit` streams are open.
    public func subscribe(
        _ audience: Audience, lastEventID: String?, initial: [(EventKind, any Encodable & Sendable)] = [],
        onClose: @escaping @Sendable (Int) -> Void
    ) throws(APIError) -> Subscription {
        try ordering.withLock { _ throws(APIError) -> Subscription in
            let (id, replay, resumed) = try state.withLock { state throws(APIError) -> (Int, [[UInt8]], Bool) in
                guard state.streams.count < configuration.streamLimit else {
                    throw APIError(.tooManyRequests, "\(configuration.streamLimit) event streams are open; close one first")
                }
                state.nextStream += 1
                let resumeFrom = lastEventID.flatMap(sequence(in:))
                let oldest = state.retained.count > state.retainedStart ? state.retained[state.retainedStart].sequence : state.nextSequence
                if let resumeFrom, resumeFrom + 1 >= oldest, resumeFrom < state.nextSequence,
                    resumeFrom >= state.unobservedThrough[audience, default: 0]
                {
                    let missed = state.retained[state.retainedStart...].filter { $0.sequence > resumeFrom && $0.audience == audience }.map(\.frame)
                    return (state.nextStream, missed, true)
                }
                let frames = initial.compactMap { kind, payload -> [UInt8]? in
                    defer { state.nextSequence += 1 }
                    return try? self.frame(kind, payload, sequence: state.nextSequence)
                }
                return (state.nextStream, frames, false)
            }
            let body = StreamingBody(capacity: configuration.streamCapacity) { [weak self] in
                self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
                onClose(id)
            }
            state.withLock { $0.streams[id] = (audience, body) }
            for frame in replay where body.write(frame) != .written { break }
            return Subscription(id: id, body: body, resumed: resumed)
        }
    }

    /// Sends an event to the streams of `audience`, and keeps it for streams that resume; returns its id,
    /// `nil` when no stream of `audience` is open (the event is then neither encoded nor kept, and no
    /// stream can resume across it: it gets what stands instead).
    @discardableResult
    public func publish(_ kind: EventKind, _ payload: some Encodable & Sendable, to audience: Audience) -> String? {
        ordering.withLock { _ -> String? in
            let (sequence, frame, bodies) = state.withLock { state -> (UInt64, [UInt8]?, [StreamingBody]) in
                let sequence = state.nextSequence
                state.nextSequence += 1
                let bodies = state.streams.values.filter { $0.audience == audience }.map(\.body)
                guard !bodies.isEmpty, let frame = try? self.frame(kind, payload, sequence: sequence) else {
                    state.unobservedThrough[audience] = sequence
                    return (sequence, nil, [])
                }
                state.retained.append(Retained(sequence: sequence, audience: audience, frame: frame))
                if state.retained.count - state.retainedStart > configuration.retainedEvents {
                    state.retainedStart += 1
                    // Compact now and then rather than shifting the array on every event.
                    if state.retainedStart >= configuration.retainedEvents {
                        state.retained.removeFirst(state.retainedStart)
                        state.retainedStart = 0
                    }
                }
                return (sequence, frame, bodies)
            }
            guard let frame else { return nil }
            for body in bodies { body.write(frame) }
            return "\(epoch).\(sequence)"
        }
    }

    /// Writes a comment to every stream, so idle connections stay open and dead peers show.
    public func heartbeat() {
        let bodies = state.withLock { $0.streams.values.map(\.body) }
        for body in bodies { body.write(ServerSentEvent.heartbeat) }
    }

    /// Ends every stream (the daemon stops).
    public func closeAll() {
        let bodies = state.withLock { $0.streams.values.map(\.body) }
        for body in bodies { body.finish() }
    }

    /// Ends every stream of `audience` but `kept` with a last event of `kind` (not kept for resuming: it
    /// concerns only those streams); returns how many ended.
    @discardableResult
    public func end(_ audience: Audience, except kept: Int, with kind: EventKind, _ payload: some Encodable & Sendable) -> Int {
        let bodies = state.withLock { $0.streams.filter { $0.key != kept && $0.value.audience == audience }.map(\.value.body) }
        guard !bodies.isEmpty, let data = try? WireFormat.encoder().encode(payload) else { return 0 }
        let frame = ServerSentEvent(id: nil, event: kind.rawValue, data: String(decoding: data, as: UTF8.self)).encoded
        for body in bodies {
            body.write(frame)
            body.finish()
        }
        return bodies.count
    }

    /// Closes the streams of `audience` now (a test of reconnection; an app removed).
    public func close(_ audience: Audience) {
        let bodies = state.withLock { $0.streams.values.filter { $0.audience == audience }.map(\.body) }
        for body in bodies { body.close() }
    }

    private func sequence(in eventID: String) -> UInt64? {
        Self.sequence(in: eventID, epoch: epoch)
    }

    /// The sequence a `Last-Event-ID` names, when it is one of `epoch`'s ids (`<epoch>.<sequence>`).
    package static func sequence(in eventID: String, epoch: String) -> UInt64? {
        let parts = eventID.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == epoch else { return nil }
        return UInt64(parts[1])
    }

    private func frame(_ kind: EventKind, _ payload: some Encodable, sequence: UInt64) throws -> [UInt8] {
        let data = try WireFormat.encoder().encode(payload)
        return ServerSentEvent(id: "\(epoch).\(sequence)", event: kind.rawValue, data: String(decoding: data, as: UTF8.self)).encoded
    }
}
