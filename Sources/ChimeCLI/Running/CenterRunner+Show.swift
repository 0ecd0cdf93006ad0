import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation

extension CenterRunner {
    /// One notification, pending or delivered, by its identifier or a unique start of it.
    func run(_ show: ShowCommand) async throws -> String {
        let all = show.appIdentifier == nil
        var found: [Found] = []
        for item in try await client.pendingRequests(app: show.appIdentifier, all: all) where item.request.identifier.hasPrefix(show.identifier) {
            found.append(.pending(item))
        }
        for item in try await client.deliveredNotifications(app: show.appIdentifier, all: all)
        where item.notification.identifier.hasPrefix(show.identifier) {
            found.append(.delivered(item))
        }
        let exact = found.filter { $0.identifier == show.identifier }
        let chosen = exact.isEmpty ? found : exact
        guard let match = chosen.first else {
            let scope = show.appIdentifier.map { " of \(Output.shown($0))" } ?? ""
            throw ChimeError(.notificationNotFound, "no notification\(scope) has an identifier starting with ‘\(Output.shown(show.identifier))’ (chime pending and chime delivered list them)")
        }
        // A repeating request is pending and delivered at once: one notification, shown as pending.
        var named: [String] = []
        for item in chosen where !named.contains("\(item.app)/\(item.identifier)") { named.append("\(item.app)/\(item.identifier)") }
        guard named.count == 1 else {
            let names = named.prefix(5).map(Output.shown).joined(separator: ", ")
            throw ChimeError(.notificationNotFound, "‘\(Output.shown(show.identifier))’ matches \(named.count): \(names)\(named.count > 5 ? ", …" : ""); give more of it or --app")
        }
        if show.json {
            switch match {
            case .pending(let item): return Output.json(ShownOutput(state: "pending", pending: item, delivered: nil))
            case .delivered(let item): return Output.json(ShownOutput(state: "delivered", pending: nil, delivered: item))
            }
        }
        let categories = (try? await client.categories(app: match.app)) ?? []
        return describe(match, categories: categories)
    }

    /// A notification found by `show`.
    enum Found {
        case pending(PendingItem)
        case delivered(DeliveredItem)

        var app: String {
            switch self {
            case .pending(let item): item.app
            case .delivered(let item): item.app
            }
        }

        var request: NotificationRequest {
            switch self {
            case .pending(let item): item.request
            case .delivered(let item): item.notification.request
            }
        }

        var identifier: String { request.identifier }
    }

    private func describe(_ found: Found, categories: [NotificationCategory]) -> String {
        let request = found.request
        let content = request.content
        var rows: [[String]] = []
        func row(_ name: String, _ value: String) { if !value.isEmpty { rows.append([name, value]) } }
        switch found {
        case .pending(let item):
            row("state", item.nextFireDate.map { "pending: fires \(Output.relative($0, from: now)), \(InstantFormat.iso8601($0, in: zone))" } ?? Self.undatedState(request.trigger))
        case .delivered(let item):
            row("state", "delivered \(InstantFormat.iso8601(item.notification.date, in: zone))\(item.notification.isLate ? " (late)" : "")")
        }
        row("title", Output.text(content.title))
        row("subtitle", Output.text(content.subtitle))
        row("body", Output.text(content.body))
        row("trigger", Self.describe(request.trigger))
        if !content.categoryIdentifier.isEmpty {
            let actions = categories.first { $0.identifier == content.categoryIdentifier }?.actions ?? []
            let buttons = actions.map { "\($0.identifier) “\(Output.text($0.title))”\($0.textInput != nil ? " (typed reply)" : "")" }
            row("category", content.categoryIdentifier + (buttons.isEmpty ? " (not registered)" : ": " + buttons.joined(separator: ", ")))
        }
        row("thread", content.threadIdentifier)
        row("level", "\(content.interruptionLevel)")
        row("sound", content.sound.map { "\($0)" } ?? "")
        row("badge", content.badge.map(String.init) ?? "")
        for attachment in content.attachments {
            row("attachment", "\(attachment.url.lastPathComponent) (\(attachment.type), \(Output.bytes(attachment.fileSize)))")
        }
        row("user info", content.userInfo.keys.sorted().joined(separator: ", "))
        return "\(Output.shown(found.app)) / \(Output.shown(found.identifier))\n" + Output.table(rows: rows.map { ["  " + $0[0], $0[1]] })
    }

    /// The state of a pending request without a fire date.
    static func undatedState(_ trigger: NotificationTrigger?) -> String {
        if case .location = trigger { return "pending: fires when its region is crossed" }
        return "pending: never fires by itself"
    }

    /// The trigger as a person reads it.
    static func describe(_ trigger: NotificationTrigger?) -> String {
        switch trigger {
        case nil: return "none: delivered at once"
        case .timeInterval(let interval):
            return "after \(DurationSpec.format(interval.timeInterval))\(interval.repeats ? ", repeating" : "")"
        case .calendar(let calendar):
            let components = calendar.dateComponents
            let parts: [(String, Int?)] = [
                ("year", components.year), ("month", components.month), ("day", components.day), ("weekday", components.weekday),
                ("hour", components.hour), ("minute", components.minute), ("second", components.second),
            ]
            let matched = parts.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: " ")
            let zone = calendar.pinnedTimeZone.map { " in \($0.identifier)" } ?? ""
            return "when the clock matches \(matched)\(zone)\(calendar.repeats ? ", repeating" : "")"
        case .location(let location):
            return "\(RegionSpec.describe(location.region))\(location.repeats ? ", repeating" : "")"
        case .push:
            return "a push notification"
        }
    }
}

/// `chime show --json`.
struct ShownOutput: Encodable {
    var state: String
    var pending: PendingItem?
    var delivered: DeliveredItem?
}
