import ChimeAPI
public import ChimePostgres
public import ChimeServer
import Foundation
import Synchronization

/// The event streams one node serves: it follows the database's event log (woken by `NOTIFY`, and as
/// recorded fires come within `lookahead` of their instants, polling at least every `pollInterval`) and
/// hands each event to the open streams of its tenant (and recipient, when a stream asked for one). A
/// stream that resumes with `Last-Event-ID` first gets what it missed from the log — whichever node wrote
/// it — then the live events, with no gap and no repeat: the feed hands a new stream only events past the
/// position its replay reads up to, holds them until the replay is written, and skips those the client
/// already had (another node's feed may have been ahead of this one's).
///
/// Fires are recorded ahead of their instants, so the feed reads them ahead too: a task on the cooperative
/// pool reads what becomes readable within `lookahead`, and a thread of the feed's own hands each event
/// out at its instant — no query and no wait for a pool thread stands between the instant and the write
/// to the streams.
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
        /// Events read ahead of their instants, in the log's order, not yet handed out.
        var upcoming: [StoredEvent] = []
        var upcomingStart = 0
        /// Changes when `upcoming` is dropped, so a read begun before is not added to it.
        var generation = 0
        var streams: [Int: Stream] = [:]
        /// The streams of each tenant, so an event is offered only to its own tenant's streams.
        var byTenant: [String: Set<Int>] = [:]
        var nextStream = 0
        var stopped = false

        var upcomingCount: Int { upcoming.count - upcomingStart }
        /// The number of the last event read: the last read ahead, or the last handed out.
        var readThrough: Int64 { upcomingStart < upcoming.count ? upcoming[upcoming.count - 1].sequence : position }
        var nextInstant: Date? { upcomingStart < upcoming.count ? upcoming[upcomingStart].readable : nil }

        mutating func add(_ id: Int, _ stream: Stream) {
            streams[id] = stream
            byTenant[stream.tenant, default: []].insert(id)
        }

        mutating func remove(_ id: Int) {
            guard let stream = streams.removeValue(forKey: id) else { return }
            byTenant[stream.tenant]?.remove(id)
            if byTenant[stream.tenant]?.isEmpty == true { byTenant[stream.tenant] = nil }
        }

        /// Forgets what was read ahead; the next read starts after the last event handed out.
        mutating func dropUpcoming() {
            upcoming = []
            upcomingStart = 0
            generation += 1
        }

        /// The events read ahead whose instants have come, in order, stopping at the first that has not.
        mutating func takeDue(now: Date) -> ArraySlice<StoredEvent> {
            let start = upcomingStart
            while upcomingStart < upcoming.count, upcoming[upcomingStart].readable <= now { upcomingStart += 1 }
            let due = upcoming[start..<upcomingStart]
            if upcomingStart == upcoming.count {
                upcoming = []
                upcomingStart = 0
            } else if upcomingStart > 4_096, upcomingStart * 2 > upcoming.count {
                upcoming.removeFirst(upcomingStart)
                upcomingStart = 0
            }
            return due
        }
    }

    let log: PostgresEventLog
    let state = Mutex(State())
    let wake = AsyncWake()
    let alarm = ThreadAlarm()
    /// Bytes a reader may fall behind before its stream is closed (it reconnects and resumes).
    static let streamCapacity = 1 << 20
    static let pageSize = 1_000
    static let pollInterval: Duration = .seconds(1)
    /// How far ahead of their instants events are read: well past a read's own time on a busy machine.
    static let lookahead = 0.25
    /// The most events held read ahead; the reader waits for them to be handed out before reading more.
    static let upcomingCapacity = 20_000
    /// The shortest sleep between reads of events that come within reach, in seconds.
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
        let handOut = Thread { [self] in handOutForever() }
        handOut.name = "chimed event feed"
        handOut.qualityOfService = .userInteractive
        handOut.start()
        while !Task.isCancelled {
            await wake.wait(upTo: await readAhead())
        }
        state.withLock { $0.stopped = true }
        alarm.signal()
    }

    /// Reads the events that become readable within `lookahead` and gives them to the hand-out thread;
    /// returns how long to wait before reading again (unless woken).
    private func readAhead() async -> Duration {
        var wait = Self.pollInterval
        do {
            while true {
                let (after, followed, generation, held) = state.withLock {
                    ($0.readThrough, Set($0.byTenant.keys), $0.generation, $0.upcomingCount)
                }
                // Full: the hand-out thread drains a quarter of the lookahead's worth before the next read.
                if held >= Self.upcomingCapacity { return .milliseconds(Int64(Self.lookahead * 1_000 / 4)) }
                let horizon = Date().addingTimeInterval(Self.lookahead)
                let page = try await log.events(after: after, limit: Self.pageSize, now: horizon, bodiesOf: followed)
                let added = state.withLock { state in
                    // A tenant's first stream, opened meanwhile, dropped what was read ahead: read again.
                    guard state.generation == generation else { return false }
                    state.upcoming.append(contentsOf: page.events)
                    return true
                }
                if !page.events.isEmpty { alarm.signal() }
                if !added || page.events.count == Self.pageSize { continue }
                if let next = page.nextReadable {
                    // Read again when the next event has been within reach for half the lookahead: a burst
                    // a fraction of a millisecond apart costs a read per half lookahead, not one per event.
                    let due = next.timeIntervalSinceNow - Self.lookahead / 2
                    wait = min(wait, .microseconds(Int64(max(Self.shortestWait, due) * 1_000_000)))
                }
                return wait
            }
        } catch {
            // The database is away: try again after the poll interval.
            return wait
        }
    }

    /// The hand-out thread: sleeps until the next event read ahead is readable, then hands out every event
    /// whose instant has come.
    private func handOutForever() {
        while true {
            let (stopped, next) = state.withLock { state -> (Bool, Date?) in
                guard !state.stopped else { return (true, nil) }
                let due = state.takeDue(now: Date())
                if !due.isEmpty { Self.dispatch(due, in: &state) }
                return (false, state.nextInstant)
            }
            if stopped { return }
            alarm.sleep(until: next ?? Date().addingTimeInterval(Self.lookahead))
        }
    }

    /// Something was written: read now rather than at the next poll.
    public func nudge() { wake.signal() }

    /// Hands the events to their streams and moves past them.
    private static func dispatch(_ events: ArraySlice<StoredEvent>, in state: inout State) {
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
        let (through, dropped) = state.withLock { state in
            // Events are read with the bodies of the tenants followed at the time: a tenant's first stream
            // has what was read ahead read again, with its bodies.
            let dropped = state.byTenant[tenant] == nil
            state.add(id, Stream(tenant: tenant, recipient: recipient, body: body, resumesAfter: resumesAfter ?? 0, held: []))
            if dropped { state.dropUpcoming() }
            return (state.position, dropped)
        }
        if dropped { nudge() }
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
