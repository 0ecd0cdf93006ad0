import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation

/// Runs `chime server`'s actions against one node and renders what they print.
struct ServerRunner {
    let client: ServerClient
    let json: Bool
    let now: Date
    /// The user's zone: dates print in it, as in every other list of `chime`.
    let zone: TimeZone
    let style: TerminalStyle
    let write: @Sendable (String) -> Void

    /// Items per page when listing.
    static let pageSize = 500

    func run(_ action: ServerCommand.Action) async throws -> String {
        switch action {
        case .status:
            let status = try await client.status()
            return json ? Output.json(status) : localized("server.status", Output.shown(status.node), Output.shown(status.tenant), String(status.schema)) + "\n"
        case .add(let recipient, let add, let idempotencyKey):
            return try await self.add(add, for: recipient, idempotencyKey: idempotencyKey)
        case .list(let kind, let recipient, let app):
            let rendering = ListRendering(zone: zone, style: style, write: write)
            switch kind {
            case .pending:
                try await rendering.printPending(json: json) { cursor in
                    try await client.pendingPage(recipient: recipient, app: app, cursor: cursor, limit: Self.pageSize)
                }
            case .delivered:
                try await rendering.printDelivered(json: json) { cursor in
                    try await client.deliveredPage(recipient: recipient, app: app, cursor: cursor, limit: Self.pageSize)
                }
            }
            return ""
        case .remove(let recipient, let app, let identifiers):
            let removed = try await client.removePending(recipient: recipient, app: app, identifiers)
            if json { return Output.json(ServerRemovedOutput(recipient: recipient, app: app, removed: removed)) }
            return localized("server.removed", String(removed), Output.shown(app), Output.shown(recipient)) + "\n"
        case .responses(let recipient, let app):
            try await printResponses(recipient: recipient, app: app)
            return ""
        case .recipient(let identifier, let change):
            let profile = change.isEmpty ? try await client.recipient(identifier) : try await save(change, of: identifier)
            return json ? Output.json(profile) : Self.describe(profile, identifier)
        case .deliveries(let recipient):
            try await printDeliveries(recipient: recipient)
            return ""
        case .replay(let identifier):
            try await client.replayDelivery(identifier)
            return json ? Output.json(ServerReplayedOutput(id: identifier)) : localized("server.replayed", Output.shown(identifier)) + "\n"
        case .settings(let allowList):
            let settings: TenantSettingsBody
            if let allowList {
                settings = try await client.saveSettings(TenantSettingsBody(outboundAllowList: allowList))
            } else {
                settings = try await client.settings()
            }
            if json { return Output.json(settings) }
            let networks = settings.outboundAllowList.isEmpty ? localized("server.allowNone") : settings.outboundAllowList.map(Output.shown).joined(separator: ", ")
            return localized("server.allowList", networks) + "\n" + Self.describe(settings.apns) + "\n"
        case .apnsKey(.show):
            let key = try await client.apnsKey()
            if json { return Output.json(ServerAPNsKeyOutput(apns: key)) }
            return Self.describe(key) + "\n"
        case .apnsKey(.set(let team, let keyID, let path)):
            let pem = try APNsKeyAction.readKey(path, command: ServerCommand.name)
            let key = try await client.saveAPNsKey(APNsKeyBody(teamId: team, keyId: keyID, key: pem))
            return json ? Output.json(ServerAPNsKeyOutput(apns: key)) : Self.describe(key) + "\n"
        case .webPush(let subject):
            let settings =
                if let subject {
                    try await client.saveWebPushSettings(WebPushSettingsBody(subject: subject.isEmpty ? nil : subject))
                } else {
                    try await client.webPushSettings()
                }
            if json { return Output.json(settings) }
            return localized("server.vapidKey", settings.applicationServerKey ?? "") + "\n"
                + localized("server.vapidSubject", settings.subject.map(Output.shown) ?? localized("server.vapidNoSubject")) + "\n"
        case .apnsKey(.remove):
            try await client.removeAPNsKey()
            return json ? Output.json(ServerAPNsKeyOutput(apns: nil)) : localized("server.apnsKeyRemoved") + "\n"
        case .keys:
            let keys = try await client.keys()
            if json { return Output.json(keys) }
            guard !keys.isEmpty else { return localized("server.noKeys") + "\n" }
            let rows = keys.map { key in
                [key.id, key.name, key.scopes.joined(separator: ","), iso(key.created), key.revoked.map(iso) ?? ""]
            }
            return Output.table(
                [localized("column.id"), localized("column.name"), localized("column.scopes"), localized("column.created"), localized("column.revoked")], rows,
                style: style)
        case .issueKey(let name, let scopes):
            let key = try await client.issueKey(name: name, scopes: scopes)
            if json { return Output.json(key) }
            return localized("server.keyIssued", Output.shown(key.id), Output.shown(key.name), key.scopes.joined(separator: ",")) + "\n"
                + (key.secret ?? "") + "\n"
        case .revokeKey(let identifier):
            try await client.revokeKey(identifier)
            return json ? Output.json(ServerRevokedOutput(id: identifier)) : localized("server.keyRevoked", Output.shown(identifier)) + "\n"
        }
    }

    /// Adds one notification for the recipient. A local `--at 9:00` is 9:00 where the recipient is (UTC
    /// for a recipient the tenant has not described, as the node reads their triggers).
    private func add(_ command: AddCommand, for recipient: String, idempotencyKey: String?) async throws -> String {
        var add = command
        if case .atLocal = add.when {
            add = try add.resolvingTimes(now: now, zone: try await zone(of: recipient))
        } else {
            add = try add.resolvingTimes(now: now, zone: zone)
        }
        if add.body == "-" { add.body = try CenterRunner.standardInputText() }
        // Repeated with its key, the same add must send the same body: the key is then its identifier too.
        let request = try add.request(identifier: idempotencyKey ?? UUID().uuidString)
        let added = try await client.add(
            [RecipientRequest(recipient: recipient, app: add.appIdentifier, request: request)], idempotencyKey: idempotencyKey)
        let fireDate = added.first?.nextFireDate
        if json {
            return Output.json(
                ServerAddedOutput(
                    recipient: recipient, app: add.appIdentifier, identifier: request.identifier, nextFireDate: fireDate.map(InstantText.utc),
                    nextFireDateLocal: fireDate.map(iso)))
        }
        let title = Output.shown(Output.title(request.content))
        let whom = Output.shown(recipient), app = Output.shown(add.appIdentifier), identifier = Output.shown(request.identifier)
        guard let fireDate else { return localized("server.addedNeverFires", title, whom, app, identifier) + "\n" }
        return localized("server.added", title, whom, app, identifier, Output.relative(fireDate, from: now), iso(fireDate)) + "\n"
    }

    /// The recipient's zone; UTC when the tenant has not described them.
    private func zone(of recipient: String) async throws -> TimeZone {
        do {
            let profile = try await client.recipient(recipient)
            return TimeZone(identifier: profile.timeZone) ?? TimeZone(identifier: "UTC")!
        } catch let error as APIError where error.apiCode == .notFound {
            return TimeZone(identifier: "UTC")!
        }
    }

    /// Creates or changes the recipient with what `change` gives, keeping the rest of their profile. A new
    /// recipient needs a zone and a language.
    private func save(_ change: ServerCommand.RecipientChange, of identifier: String) async throws -> RecipientProfileBody {
        let current: RecipientProfileBody?
        do {
            current = try await client.recipient(identifier)
        } catch let error as APIError where error.apiCode == .notFound {
            current = nil
        }
        guard let timeZone = change.timeZone ?? current?.timeZone, let locale = change.locale ?? current?.locale else {
            throw UsageError("\(identifier) is a new recipient: give --time-zone and --locale", command: ServerCommand.name)
        }
        let quietHours =
            change.quietHours.map { periods in
                periods.isEmpty
                    ? nil
                    : QuietHoursBody(
                        periods: periods.map { QuietHoursBody.Period(weekdays: $0.weekdays, from: $0.from, to: $0.to) },
                        allowsTimeSensitive: current?.quietHours?.allowsTimeSensitive)
            } ?? current?.quietHours
        return try await client.saveRecipient(identifier, RecipientProfileBody(timeZone: timeZone, locale: locale, quietHours: quietHours))
    }

    private func printResponses(recipient: String, app: String?) async throws {
        let printer = ListPrinter(
            json: json, header: [localized("column.date"), localized("column.app"), localized("column.id"), localized("column.action")],
            empty: localized("server.noResponses") + "\n", style: style, write: write)
        try await printer.printEveryPage(
            { cursor in try await client.responsesPage(recipient: recipient, app: app, cursor: cursor, limit: Self.pageSize) }, output: { $0 },
            row: { item in
                let text = item.response.userText.map { ": " + $0 } ?? ""
                return [iso(item.date), item.app, item.response.notification.identifier, item.response.actionIdentifier + text]
            })
    }

    private func printDeliveries(recipient: String) async throws {
        let printer = ListPrinter(
            json: json,
            header: [localized("column.id"), localized("column.date"), localized("column.device"), localized("column.app"), localized("column.notification"),
                localized("column.state")],
            empty: localized("server.noDeliveries") + "\n", style: style, write: write)
        try await printer.printEveryPage(
            { cursor in try await client.deliveriesPage(recipient: recipient, cursor: cursor, limit: Self.pageSize) }, output: { $0 },
            row: { item in
                var state = "\(item.state) (\(item.attempts))"
                if let status = item.lastStatus { state += " \(status)" }
                if let outcome = item.outcome { state += ", \(outcome)" }
                if let error = item.lastError { state += ": \(error)" }
                return [item.id, iso(item.created), item.device, item.app, item.notification, state]
            })
    }

    /// A recipient's profile for a person: zone, language, and each quiet period.
    /// The tenant's APNs provider key in one line.
    static func describe(_ key: APNsKeySummary?, none: String = localized("server.apnsKeyNone")) -> String {
        guard let key else { return none }
        return localized("server.apnsKey", Output.shown(key.teamId), Output.shown(key.keyId))
    }

    static func describe(_ profile: RecipientProfileBody, _ identifier: String) -> String {
        var lines = [
            localized("server.recipient", Output.shown(identifier)),
            "  " + localized("server.recipient.zone", Output.shown(profile.timeZone)),
            "  " + localized("server.recipient.locale", Output.shown(profile.locale)),
        ]
        if let quiet = profile.quietHours, !quiet.periods.isEmpty {
            for period in quiet.periods {
                let days = QuietHoursSpec.daysText(period.weekdays)
                lines.append("  " + localized("server.recipient.quiet", days, Output.shown(period.from), Output.shown(period.to)))
            }
            if quiet.allowsTimeSensitive == false { lines.append("  " + localized("server.recipient.quietHoldsTimeSensitive")) }
        } else {
            lines.append("  " + localized("server.recipient.noQuiet"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func iso(_ date: Date) -> String {
        InstantFormat.iso8601(date, in: zone)
    }
}

struct ServerAddedOutput: Encodable {
    var recipient: String
    var app: String
    var identifier: String
    var nextFireDate: String?
    var nextFireDateLocal: String?
}

struct ServerRemovedOutput: Encodable {
    var recipient: String
    var app: String
    var removed: Int
}

struct ServerReplayedOutput: Encodable {
    var id: String
    var queued = true
}

struct ServerAPNsKeyOutput: Encodable {
    let apns: APNsKeySummary?
}

struct ServerRevokedOutput: Encodable {
    var id: String
    var revoked = true
}
