import CSystemd
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The thread that owns one sd-bus connection: it runs the jobs other threads queue, dispatches what
/// arrives, and sleeps in `poll` on the bus socket and a wake-up descriptor.
///
/// sd-bus is not thread-safe, so every call on the bus happens here; other threads only queue jobs and
/// write to the wake-up descriptor. Nothing here runs on Swift's cooperative thread pool, so a slow bus
/// never holds up a task.
///
/// @unchecked Sendable: `bus`, `slots` and `matchBoxes` are only touched on the loop's own thread (in
/// `run` and in the jobs it runs); the job queue is behind a mutex and `isConnected` is atomic.
final class BusLoop: @unchecked Sendable {
    typealias Job = @Sendable (BusLoop) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var isStopping = false
        var isFinished = false
    }

    private let queue = Mutex(Queue())
    /// A pipe another thread writes a byte to after queueing a job, so `poll` returns: the loop polls
    /// the read end.
    private let wakeDescriptor: Int32
    private let wakeWriter: Int32
    private let connected = Atomic<Bool>(false)
    /// Counts the replies and signals dispatched, in order (`BusReply.sequence`).
    let counter = MessageCounter()

    /// The bus, once the thread has opened it.
    private(set) var bus: OpaquePointer?
    /// Installed matches by token; the loop owns one reference to each slot.
    private var slots: [UInt64: OpaquePointer] = [:]
    private var matchBoxes: [UInt64: MatchBox] = [:]
    private var nextToken: UInt64 = 0

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
        if wakeWriter >= 0 { close(wakeWriter) }
    }

    var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// Starts the thread, which opens the bus at `address` and reports how that went through `opened`
    /// before it starts dispatching.
    func start(address: BusAddress, name: String, timeout: Duration, opened: @escaping @Sendable (Result<Void, DesktopError>) -> Void) {
        let thread = Thread { [self] in
            switch open(address, timeout: timeout) {
            case .success:
                connected.store(true, ordering: .releasing)
                opened(.success(()))
                run()
            case .failure(let error):
                finish()
                opened(.failure(error))
            }
        }
        thread.name = name
        thread.start()
    }

    /// Queues `job` to run on the loop's thread. Returns `false`, without queueing, once the loop has
    /// stopped or is stopping.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        let queued = queue.withLock { queue -> Bool in
            guard !queue.isStopping && !queue.isFinished else { return false }
            queue.jobs.append(job)
            return true
        }
        if queued { wake() }
        return queued
    }

    /// Asks the thread to close the connection and end; jobs queued before still run. Returns at once.
    func stop() {
        queue.withLock { $0.isStopping = true }
        wake()
    }

    private func wake() {
        // A full pipe already wakes the loop, so a failed write needs no retry.
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    // MARK: On the loop's thread

    private func open(_ address: BusAddress, timeout: Duration) -> Result<Void, DesktopError> {
        guard wakeDescriptor >= 0 else { return .failure(DesktopError(.busUnavailable, errno: -errno, "pipe")) }
        var bus: OpaquePointer?
        var result: Int32
        switch address {
        case .session:
            result = sd_bus_open_user(&bus)
        case .system:
            result = sd_bus_open_system(&bus)
        case .address(let address):
            result = sd_bus_new(&bus)
            if result >= 0 { result = sd_bus_set_address(bus, address) }
            if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
            if result >= 0 { result = sd_bus_start(bus) }
        }
        guard result >= 0, let bus else {
            sd_bus_unref(bus)
            return .failure(DesktopError(.busUnavailable, name: "errno \(-result)", "cannot connect to the \(Self.describe(address)) (errno \(-result))"))
        }
        // The timeout of the calls sd-bus makes by itself (AddMatch, RemoveMatch) and of calls without one.
        sd_bus_set_method_call_timeout(bus, BusConnection.microseconds(timeout))
        self.bus = bus
        return .success(())
    }

    static func describe(_ address: BusAddress) -> String {
        switch address {
        case .session: "session bus"
        case .system: "system bus"
        case .address(let address): "bus at \(address)"
        }
    }

    private func run() {
        guard let bus else { return }
        var pollDescriptors = [pollfd(fd: 0, events: 0, revents: 0), pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        running: while true {
            let jobs = queue.withLock { queue -> [Job]? in
                if queue.isStopping && queue.jobs.isEmpty { return nil }
                defer { queue.jobs = [] }
                return queue.jobs
            }
            guard let jobs else { break }
            for job in jobs { job(self) }

            // Dispatch everything that can be dispatched without waiting.
            while true {
                let processed = sd_bus_process(bus, nil)
                if processed < 0 { break running }  // disconnected: sd-bus has failed the pending calls
                if processed == 0 { break }
            }

            let descriptor = sd_bus_get_fd(bus)
            let events = sd_bus_get_events(bus)
            var deadline: UInt64 = 0
            guard descriptor >= 0, events >= 0, sd_bus_get_timeout(bus, &deadline) >= 0 else { break }
            pollDescriptors[0] = pollfd(fd: descriptor, events: Int16(truncatingIfNeeded: events), revents: 0)
            pollDescriptors[1].revents = 0
            let ready = poll(&pollDescriptors, 2, Self.milliseconds(until: deadline))
            if ready < 0 && errno != EINTR { break }
            if pollDescriptors[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wakeDescriptor, &drained, drained.count) > 0 {}
            }
        }
        finish()
    }

    /// Ends the connection: matches are removed (their streams end), the calls still waiting fail, and
    /// later jobs are refused.
    private func finish() {
        connected.store(false, ordering: .releasing)
        let leftover = queue.withLock { queue -> [Job] in
            queue.isFinished = true
            defer { queue.jobs = [] }
            return queue.jobs
        }
        for job in leftover { job(self) }  // they see no bus and fail their callers
        for box in matchBoxes.values { box.sink.continuation.finish() }
        for slot in slots.values { sd_bus_slot_unref(slot) }
        slots = [:]
        matchBoxes = [:]
        if let bus {
            // Destroys the slots of the calls still waiting, whose destroy callbacks fail them.
            sd_bus_flush_close_unref(bus)
            self.bus = nil
        }
    }

    /// `poll`'s timeout for sd-bus's absolute `CLOCK_MONOTONIC` deadline (`UInt64.max` for none).
    private static func milliseconds(until deadline: UInt64) -> Int32 {
        if deadline == UInt64.max { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        if deadline <= nowMicroseconds { return 0 }
        return Int32(min((deadline - nowMicroseconds + 999) / 1_000, UInt64(Int32.max)))
    }

    // MARK: Matches (loop thread)

    /// Keeps a match's slot and box; returns its token.
    func register(slot: OpaquePointer, box: MatchBox) -> MatchToken {
        nextToken += 1
        slots[nextToken] = slot
        matchBoxes[nextToken] = box
        return MatchToken(id: nextToken)
    }

    /// Drops a match: sd-bus removes it from the bus and the slot's destroy callback releases its box.
    func unregister(_ token: MatchToken) {
        matchBoxes[token.id] = nil
        if let slot = slots.removeValue(forKey: token.id) { sd_bus_slot_unref(slot) }
    }
}

/// Numbers messages in the order they are dispatched; only the loop's thread counts.
final class MessageCounter: Sendable {
    private let value = Atomic<UInt64>(0)

    func next() -> UInt64 {
        value.add(1, ordering: .relaxed).newValue
    }
}
