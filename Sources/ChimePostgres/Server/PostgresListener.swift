import Foundation
import Synchronization

/// Hears PostgreSQL notifications (`LISTEN`) on a connection of its own, on a thread of its own, and hands
/// each channel's name to `heard`; reconnects by itself when the connection breaks (then reports the
/// channels as heard, since a notification may have been missed meanwhile).
///
/// Notifications only hurry things along: whoever listens also polls on a bounded interval, so a lost
/// notification delays, never loses.
public final class PostgresListener: Sendable {
    private let stopped = StopFlag()

    public init(database: PostgresDatabase, channels: [String], heard: @escaping @Sendable (String) -> Void) {
        let conninfo = database.conninfo
        let stopped = stopped
        let thread = Thread {
            var connection: PostgresConnection?
            while !stopped.value.load(ordering: .relaxed) {
                do {
                    if connection == nil {
                        let made = try PostgresConnection(conninfo: conninfo)
                        for channel in channels { try made.execute("LISTEN \(channel)") }
                        connection = made
                        channels.forEach(heard)
                    }
                    for channel in try connection?.notifications(waitingUpTo: 0.25) ?? [] { heard(channel) }
                } catch {
                    connection = nil
                    Thread.sleep(forTimeInterval: 0.25)
                }
            }
        }
        thread.name = "chime.postgres.listener"
        thread.start()
    }

    /// Stops listening within a quarter of a second.
    public func stop() {
        stopped.value.store(true, ordering: .relaxed)
    }
}

/// A flag shared with the listener's thread.
final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
