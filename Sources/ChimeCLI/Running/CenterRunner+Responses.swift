import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation

extension CenterRunner {
    func run(_ responses: ResponsesCommand) async throws -> String {
        switch responses {
        case .list(let app, let json):
            let list = try await client.queuedResponses(app: app)
            if json { return Output.json(list.items.map(QueuedResponseOutput.init)) }
            guard !list.items.isEmpty else { return "No responses wait for \(Output.shown(app)).\n" }
            let rows = list.items.map { event in
                [event.delivery, event.response.notification.identifier, Self.actionName(event.response.actionIdentifier), event.response.userText ?? ""]
            }
            let more = list.total > list.items.count ? "(\(list.total - list.items.count) more)\n" : ""
            return Output.table(["DELIVERY", "NOTIFICATION", "ACTION", "TEXT"], rows, style: style) + more
        case .drop(let app, let given):
            let waiting = try await client.queuedResponses(app: app).items
            let delivery = try IdentifierPrefix.resolve(given, among: waiting.map(\.delivery))
            guard let event = waiting.first(where: { $0.delivery == delivery }) else {
                throw ChimeError(.notificationNotFound, "no response waits for \(Output.shown(app)) with the delivery ‘\(Output.shown(given))’ (chime responses --app \(Output.shown(app)) lists them)")
            }
            try await client.acknowledge(event)
            return "Dropped the response to \(Output.shown(event.response.notification.identifier)); \(Output.shown(app)) will not get it.\n"
        }
    }

    /// `open` and `dismiss` for Apple's identifiers, as `chime add --wait` prints them.
    static func actionName(_ identifier: String) -> String {
        switch identifier {
        case NotificationResponse.defaultActionIdentifier: "open"
        case NotificationResponse.dismissActionIdentifier: "dismiss"
        default: identifier
        }
    }
}

/// `chime responses --json`.
struct QueuedResponseOutput: Encodable {
    var delivery: String
    var notification: String
    var action: String
    var text: String?

    init(_ event: ResponseEvent) {
        delivery = event.delivery
        notification = event.response.notification.identifier
        action = CenterRunner.actionName(event.response.actionIdentifier)
        text = event.response.userText
    }
}
