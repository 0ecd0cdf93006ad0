import ChimeAPI
public import ChimePostgres
public import ChimeServer
import Foundation
import Synchronization

/// The event streams one node serves: it follows the database's event log (woken by `NOTIFY`, and when
/// the next recorded fire becomes due, polling at least every `pollInterval`) and hands each event to the
/// open streams of its tenant (and recipient, when a stream asked for one). A stream that resumes with
/// `Last-Event-ID` first gets what it missed from the log — whichever node wrote it — then the live
/// events, with no gap and no repeat: the feed hands a new stream only events past the position its replay
/// reads up to, holds them until the replay is written, and skips those the client already had (another
/// node's feed may have been ahead of this one's).
public final class TenantFeed: Sendable {
    struct Stream {
        let tenant: String
        let recipient: String?
        let body: StreamingBody
        /// The last event the client had (its `Last-Event-ID`): nothing up to it is sent again.
        let resumesAfter: Int64
        /// Live events held while the stream's replay is read; `nil` once it is live.
        var held: [[UInt8]]?
    }

    struct State {
        /// The number of the last event handed out.
        var position: Int64 = 0
        var streams: [Int: Stream] = [:]
        /// The streams of each tenant, so an event is offered only to its own tenant's streams.
        var byTenant: [String: Set<Int>] = [:]
        var nextStream = 0

        mutating func add(_ id: Int, _ stream: Stream) {
            streams[id] = stream
            byTenant[stream.tenant, default: []].insert(id)
        }

        mutating func remove(_ id: Int) {
            guard let stream = streams.removeValue(forKey: id) else { return }
            byTenant[stream.tenant]?.remove(id)
            if byTenant[stream.tenant]?.isEmpty == true { byTenant[stream.tenant] = nil }
        }
    }

    let log: PostgresEventLog
    let state = Mutex(State())
    let wake = AsyncWake()
    /// Bytes a reader may fall behind before its stream is closed (it reconnects and resumes).
    static let streamCapacity = 1 << 20
    static let pageSize = 1_000
    static let pollInterval: Duration = .seconds(1)
    /// The shortest sleep before reading events that become readable, in seconds.
    static let shortestWait = 0.001

    public init(log: PostgresEventLog) {
        self.log = log
    }

    public var streamCount: Int { state.withLock { $0.streams.count } }

    /// Follows the log until cancelled.
    public func run() async {
        do {
            let head = try await log.head(now: Date())
            state.withLock { $0.position = head }
        } catch {}
        while !Task.isCancelled {
            var wait = Self.pollInterval
            do {
                let (after, followed) = state.withLock { ($0.position, Set($0.byTenant.keys)) }
                let page = try await log.events(after: after, limit: Self.pageSize, now: Date(), bodiesOf: followed)
                // A tenant's first stream opened while the page was read without its bodies: read again.
                if !page.events.isEmpty, !dispatch(page.events, readWithBodiesOf: followed) { continue }
                if page.events.count == Self.pageSize { continue }
                if let next = page.nextReadable {
                    // A fire recorded ahead of its instant: read again the moment it is due — at most once
                    // a millisecond, so a burst due a fraction of a millisecond apart costs one read per
                    // millisecond, not one per event.
                    wait = min(wait, .microseconds(Int64(max(Self.shortestWait, next.timeIntervalSinceNow) * 1_000_000)))
                }
            } catch {
                // The database is away: try again after the poll interval.
            }
            await wake.wait(upTo: wait)
        }
    }

    /// Something was written: read now rather than at the next poll.
    public func nudge() { wake.signal() }

    /// Hands the events to their streams and moves past them; `false`, with nothing done, when a tenant
    /// now followed was not when the events were read (their bodies were left out).
    private func dispatch(_ events: [StoredEvent], readWithBodiesOf followed: Set<String>) -> Bool {
        state.withLock { state in
            guard state.byTenant.keys.allSatisfy(followed.contains) else { return false }
            for event in events {
                guard let ids = state.byTenant[event.tenant] else { continue }
                let frame = Self.frame(event)
                for id in ids {
                    guard let stream = state.streams[id], stream.recipient == nil || stream.recipient == event.recipient,
                        event.sequence > stream.resumesAfter
                    else { continue }
                    if stream.held != nil {
                        state.streams[id]?.held?.append(frame)
                    } else if stream.body.write(frame) != .written {
                        state.remove(id)
                    }
                }
            }
            if let last = events.last { state.position = last.sequence }
            return true
        }
    }

    /// Opens a stream of the tenant's events (one recipient's, when given), replaying what came after
    /// `lastEventID` when the log still has it; a stream that cannot resume starts with a `reset` event.
    public func open(tenant: String, recipient: String?, lastEventID: String?) async throws -> StreamingBody {
        let id = state.withLock { state in
            defer { state.nextStream += 1 }
            return state.nextStream
        }
        // A stream may close inside a write the feed makes under its lock (a reader that fell behind), so
        // it forgets the stream from a task of its own rather than taking that lock again.
        let body = StreamingBody(capacity: Self.streamCapacity) { [weak self] in Task { self?.state.withLock { $0.remove(id) } } }
        var resumesAfter: Int64?
        if let lastEventID, let sequence = Int64(lastEventID), try await log.has(sequence: sequence, tenant: tenant) {
            resumesAfter = sequence
        }
        let through = state.withLock { state in
            state.add(id, Stream(tenant: tenant, recipient: recipient, body: body, resumesAfter: resumesAfter ?? 0, held: []))
            return state.position
        }
        do {
            if lastEventID != nil {
                if let resumesAfter {
                    // Up to where the feed has read, so a reader's clock has made each readable already.
                    var after = resumesAfter
                    while after < through {
                        let page = try await log.events(after: after, through: through, tenant: tenant, limit: Self.pageSize, now: .distantFuture)
                        for event in page.events where recipient == nil || event.recipient == recipient { body.write(Self.frame(event)) }
                        guard let last = page.events.last else { break }
                        after = last.sequence
                    }
                } else {
                    body.write(ServerSentEvent(id: nil, event: "reset", data: "{}").encoded)
                }
            }
        } catch {
            state.withLock { $0.remove(id) }
            body.close()
            throw error
        }
        state.withLock { state in
            for frame in state.streams[id]?.held ?? [] { body.write(frame) }
            state.streams[id]?.held = nil
        }
        return body
    }

    /// Every open stream gets a comment, so proxies keep them open and dead peers are noticed.
    public func heartbeat() {
        let streams = state.withLock { Array($0.streams.values) }
        for stream in streams where stream.held == nil { stream.body.write(ServerSentEvent.heartbeat) }
    }

    static func frame(_ event: StoredEvent) -> [UInt8] {
        ServerSentEvent(id: String(event.sequence), event: event.kind, data: String(decoding: event.body, as: UTF8.self)).encoded
    }
}

/// A wake-up that may come before the wait: a signal while nobody waits is kept for the next wait.
final class AsyncWake: Sendable {
    private let state = Mutex<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.signalled = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns on a signal or after `timeout`, whichever comes first.
    func wait(upTo timeout: Duration) async {
        let timer = Task {
            // A wait that ended by a signal cancels its timer, which then must not wake the next wait.
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            self.signal()
        }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.signalled {
                    state.signalled = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
    }
}
