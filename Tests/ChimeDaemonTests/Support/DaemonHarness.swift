import ChimeCore
import ChimeAPI
import ChimeTestSupport
import Foundation
import ChimeClient
import Synchronization

// The daemon's home, its process and the event helpers are in ChimeTestSupport (DaemonHome.swift).

/// A request that fires `seconds` from now.
func request(_ identifier: String, in seconds: TimeInterval = 3600, title: String = "Hello", category: String? = nil) throws -> NotificationRequest {
    var content = NotificationContent(title: LocalizableText(stringLiteral: title))
    if let category { content.categoryIdentifier = category }
    return try NotificationRequest(identifier: identifier, content: content, trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: seconds, repeats: false)))
}

/// The events a client receives within `seconds` (to check that nothing more comes).
func events(of client: DaemonClient, for seconds: Double) async -> [DaemonEvent] {
    await withTaskGroup(of: [DaemonEvent].self) { group in
        let collected = Mutex<[DaemonEvent]>([])
        group.addTask {
            for await event in client.events { collected.withLock { $0.append(event) } }
            return []
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return []
        }
        _ = await group.next()
        group.cancelAll()
        return collected.withLock { $0 }
    }
}
