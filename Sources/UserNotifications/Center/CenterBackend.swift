#if !canImport(Darwin)
import ChimeEngine

/// The engine side of a `UNUserNotificationCenter`: opens the app's `CenterService` (the embedded
/// engine's `AppNotificationCenter`, or `chimed` in client mode) on first use, and runs the center's
/// operations one after another.
///
/// Apple's center applies calls in the order the app makes them (`setNotificationCategories` and then
/// `add` find the categories registered), also for calls that return at once and finish later. Each
/// operation here waits for the one before it, so fire-and-forget calls keep their order with everything
/// after them. A completion handler is dispatched as its operation finishes, so handlers also run in call
/// order.
final class CenterBackend: Sendable {
    private let open: @Sendable () async throws -> any CenterService
    private let opened = Locked<(any CenterService)?>(nil)
    private let tail = Locked<Task<Void, Never>?>(nil)

    /// - Parameter open: makes the app's center (opens the store, starts the engine); called again on the
    ///   next operation if it fails.
    init(open: @escaping @Sendable () async throws -> any CenterService) {
        self.open = open
    }

    /// The app's center once it was opened; the delegate bridge uses it directly, since the engine is
    /// calling the bridge and operations queued behind may be waiting for the engine.
    var openedCenter: (any CenterService)? {
        opened.withLock { $0 }
    }

    /// Runs `operation` after every operation enqueued before it, and `completion` with its result.
    @discardableResult
    func enqueue<T: Sendable>(
        _ operation: @escaping @Sendable (any CenterService) async throws -> T,
        completion: (@Sendable (Result<T, any Error>) -> Void)? = nil
    ) -> Task<T, any Error> {
        tail.withLock { tail in
            let previous = tail
            let task = Task<T, any Error> {
                await previous?.value
                let result: Result<T, any Error>
                do {
                    result = .success(try await operation(try await self.center()))
                } catch {
                    result = .failure(error)
                }
                completion?(result)
                return try result.get()
            }
            tail = Task { _ = await task.result }
            return task
        }
    }

    /// Only called from queued operations, one at a time, so the center is opened once.
    private func center() async throws -> any CenterService {
        if let center = openedCenter { return center }
        let center = try await open()
        opened.withLock { $0 = center }
        return center
    }
}
#endif
