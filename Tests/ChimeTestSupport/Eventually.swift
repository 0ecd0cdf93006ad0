/// Waits until `condition` holds, checking every few milliseconds, for at most `seconds`; throws
/// `Timeout` when it never does. For state that changes without a signal the test can await (a daemon's
/// lists, the engine's delivered list after a dismissal).
public func eventually(_ what: String, within seconds: Double = 15, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    if try await condition() { return }
    throw Timeout(description: "timed out waiting until \(what)")
}
