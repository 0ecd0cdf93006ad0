public import ChimeEngine
public import Foundation
import Synchronization

/// A clock that moves only when the test moves it, so scheduling tests are exact and never sleep.
///
/// It is a rendezvous: the code under test calls `sleep(until:)`; the test awaits `nextSleep()` to learn
/// the deadline that code asked for, then calls `advance(to:)`, which resumes every sleeper whose deadline
/// has come (outside the lock, so resumed code may sleep again at once).
///
/// ```swift
/// let clock = ManualClock(now: Date(timeIntervalSince1970: 1_764_547_200))
/// // ... start the scheduler with `clock` ...
/// let deadline = await clock.nextSleep()   // the scheduler waits for its first fire
/// clock.advance(to: deadline)              // and now it fires
/// ```
///
/// Thread-safe; one clock may serve many tasks.
public final class ManualClock: NotificationClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        /// Seconds of elapsed time: moved by `advance`, not by `step`.
        var elapsed: TimeInterval = 0
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelledBeforeRegistration: Set<UInt64> = []
        /// Deadlines announced by `sleep(until:)` that no `nextSleep()` has taken yet, oldest first, with
        /// the sleeper that announced each (a cancelled sleeper withdraws its announcement).
        var announced: [(id: UInt64, deadline: Date)] = []
        var announcementWaiters: [CheckedContinuation<Date, Never>] = []
    }

    private let state: Mutex<State>

    public init(now: Date) {
        state = Mutex(State(now: now))
    }

    public var now: Date { state.withLock { $0.now } }

    public var elapsed: TimeInterval? { state.withLock { $0.elapsed } }

    public func sleep(until deadline: Date) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let action = state.withLock { state -> (() -> Void)? in
                    if state.cancelledBeforeRegistration.remove(id) != nil {
                        return { continuation.resume(throwing: CancellationError()) }
                    }
                    if deadline <= state.now {
                        return { continuation.resume() }
                    }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    if state.announcementWaiters.isEmpty {
                        state.announced.append((id, deadline))
                        return nil
                    }
                    let waiter = state.announcementWaiters.removeFirst()
                    return { waiter.resume(returning: deadline) }
                }
                action?()
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                state.announced.removeAll { $0.id == id }
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeRegistration.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Waits until some task sleeps on this clock with a deadline in the future, and returns that deadline.
    /// Each call takes one announcement, oldest first.
    public func nextSleep() async -> Date {
        await withCheckedContinuation { (continuation: CheckedContinuation<Date, Never>) in
            let deadline = state.withLock { state -> Date? in
                if state.announced.isEmpty {
                    state.announcementWaiters.append(continuation)
                    return nil
                }
                return state.announced.removeFirst().deadline
            }
            if let deadline { continuation.resume(returning: deadline) }
        }
    }

    /// The earliest deadline a task is sleeping until now, or — when none sleeps — the first one a task
    /// sleeps until next. Takes the announcements of the sleepers it saw, so `nextSleep()` does not
    /// return them later.
    ///
    /// Use it to follow one task that sleeps again after each wake-up (a scheduler): it returns at once
    /// while the task sleeps, and waits while the task is busy.
    public func nextWakeUp() async -> Date {
        let sleeping = state.withLock { state -> Date? in
            guard let earliest = state.sleepers.min(by: { $0.deadline < $1.deadline }) else { return nil }
            let ids = Set(state.sleepers.map(\.id))
            state.announced.removeAll { ids.contains($0.id) }
            return earliest.deadline
        }
        if let sleeping { return sleeping }
        return await nextSleep()
    }

    /// Runs time forward to `date` for a task that sleeps again after each wake-up (a scheduler): it wakes
    /// at each of its deadlines on the way, in order, and at `date` itself when it has a deadline there.
    ///
    /// ```swift
    /// await clock.run(until: fireDate)   // the engine delivers everything due by then
    /// ```
    public func run(until date: Date) async {
        while true {
            let deadline = await nextWakeUp()
            if deadline > date {
                advance(to: date)
                return
            }
            advance(to: deadline)
            if deadline == date { return }
        }
    }

    /// Moves time forward to `date` and wakes every sleeper whose deadline has come.
    public func advance(to date: Date) {
        let due = state.withLock { state -> [Sleeper] in
            precondition(date >= state.now, "a ManualClock only moves forward")
            state.elapsed += date.timeIntervalSince(state.now)
            state.now = date
            let due = state.sleepers.filter { $0.deadline <= date }
            state.sleepers.removeAll { $0.deadline <= date }
            state.announced.removeAll { $0.deadline <= date }
            return due
        }
        for sleeper in due {
            sleeper.continuation.resume()
        }
    }

    /// Moves time forward by `interval` seconds.
    public func advance(by interval: TimeInterval) {
        advance(to: now.addingTimeInterval(interval))
    }

    /// Sets the wall clock `interval` seconds forward or (negative) back without time passing, as NTP or a
    /// user setting the time does. Every sleeper wakes, as `SystemClock`'s do after a step back, and looks
    /// at the time again.
    public func step(by interval: TimeInterval) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(interval)
            let all = state.sleepers
            state.sleepers = []
            state.announced = []
            return all
        }
        for sleeper in woken {
            sleeper.continuation.resume()
        }
    }

    /// The deadlines of the tasks sleeping now, earliest first.
    public var pendingDeadlines: [Date] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }
}
