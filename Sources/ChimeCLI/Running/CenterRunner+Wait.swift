import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation
import Synchronization

extension CenterRunner {
    /// `chime add --wait`: the user's response to the notification `identifier` of `app`, as scripts read
    /// `notify-send -A` and `zenity`: the action's identifier (`open`, `dismiss`, or the button's) and a
    /// typed reply on the next line; with `json`, one object. A dismissal, a removal without a response
    /// and the timeout end with their own exit codes (`CommandOutcome`).
    func waitForResponse(_ stream: ListEventStream, app: String, identifier: String, timeout: TimeInterval?, json: Bool) async throws -> String {
        // Opening or answering a notification takes it out of the list just before the response is told,
        // so a removal from the delivered list ends the wait only if no response follows it soon.
        let removedFromList = Removal()
        let ending: WaitEnding? = await withTaskGroup(of: WaitEnding?.self) { group in
            group.addTask {
                for await event in stream.events {
                    switch event {
                    case .responded(let responded) where responded.app == app && responded.identifier == identifier:
                        return .responded(action: responded.action, text: responded.text)
                    case .deliveredRemoved(let removed) where removed.app == app && removed.identifiers.contains(identifier):
                        removedFromList.at.withLock { $0 = $0 ?? .now }
                    case .pendingChanged(let changed) where changed.app == app && (changed.removedAll || changed.removed.contains(identifier)):
                        return .removed
                    default:
                        continue
                    }
                }
                return nil
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    if let removed = removedFromList.at.withLock({ $0 }), ContinuousClock.now - removed > .seconds(2) { return .removed }
                }
                return nil
            }
            if let timeout {
                group.addTask {
                    try? await Task.sleep(for: .seconds(timeout))
                    return Task.isCancelled ? nil : .timedOut
                }
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        stream.close()
        guard let ending else {
            throw APIError(.notConnected, "chimed stopped before the user responded")
        }
        return try ending.report(json: json)
    }
}

/// When the notification left the delivered list, if it did.
private final class Removal: Sendable {
    let at = Mutex<ContinuousClock.Instant?>(nil)
}

/// How waiting for a response ended.
enum WaitEnding: Sendable {
    case responded(action: String, text: String?)
    case removed
    case timedOut

    /// What is printed, or the outcome thrown for an ending that is not a success.
    func report(json: Bool) throws -> String {
        switch self {
        case .responded(let action, let text):
            let name = CenterRunner.actionName(action)
            let output = json ? Output.json(WaitOutput(outcome: name == "dismiss" ? "dismissed" : "responded", action: name, text: text))
                : name + "\n" + (text.map { $0 + "\n" } ?? "")
            if name == "dismiss" { throw CommandOutcome(exitCode: .dismissed, output: output) }
            return output
        case .removed:
            throw CommandOutcome(exitCode: .removed, output: json ? Output.json(WaitOutput(outcome: "removed", action: nil, text: nil)) : "")
        case .timedOut:
            throw CommandOutcome(exitCode: .timedOut, output: json ? Output.json(WaitOutput(outcome: "timedOut", action: nil, text: nil)) : "")
        }
    }
}

/// `chime add --wait --json`.
struct WaitOutput: Encodable {
    var outcome: String
    var action: String?
    var text: String?
}
