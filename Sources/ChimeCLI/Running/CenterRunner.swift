import ChimeClient
import ChimeCore
import ChimeAPI
import Foundation

/// Runs the commands that talk to chimed, over one client, and renders what they print.
///
/// Lists are read and written a page at a time through `write`, so 100,000 pending requests cost the
/// command line one page of memory.
struct CenterRunner {
    let client: DaemonClient
    /// Where chimed is, to find it again after it restarted (`watch`).
    let paths: DaemonPaths
    let now: Date
    let zone: TimeZone
    /// How tables print: colour and the terminal's width.
    let style: TerminalStyle
    /// Where long output goes as it is produced.
    let write: @Sendable (String) -> Void
    /// Where the command says what it waits for (standard error), at once.
    let note: @Sendable (String) -> Void

    /// Requests per page when listing.
    static let pageSize = 500

    func run(_ command: ChimeCommand) async throws -> String {
        switch command {
        case .add(let add): try await run(add)
        case .list(let list): try await run(list)
        case .remove(let remove): try await run(remove)
        case .respond(let respond): try await run(respond)
        case .categories(let categories): try await run(categories)
        case .apps(let apps): try await run(apps)
        case .focus(let focus): try await run(focus)
        case .watch(let watch): try await run(watch)
        // Still English throughout, so its labels and times do not mix two languages.
        case .show(let show): try await CLIText.inEnglish { try await run(show) }
        case .responses(let responses): try await run(responses)
        case .web(let web): try await run(web)
        case .help, .version, .next, .doctor, .completions, .server: ""
        }
    }

    // MARK: pending, delivered, remove

    private func run(_ list: ListCommand) async throws -> String {
        let all = list.appIdentifier == nil
        let rendering = ListRendering(zone: zone, style: style, write: write)
        switch list.kind {
        case .pending:
            try await rendering.printPending(json: list.json) { cursor in
                try await client.pendingPage(app: list.appIdentifier, all: all, cursor: cursor, limit: Self.pageSize)
            }
        case .delivered:
            try await rendering.printDelivered(json: list.json) { cursor in
                try await client.deliveredPage(app: list.appIdentifier, all: all, cursor: cursor, limit: Self.pageSize)
            }
        }
        return ""
    }

    /// Responds to the notification `respond` names, or, when no notification has that identifier, to the
    /// one whose identifier starts with it (looked up only then).
    private func respondResolvingPrefix(_ respond: RespondCommand, _ action: WireUserAction) async throws -> RespondResult {
        do {
            return try await client.respond(app: respond.appIdentifier, notification: respond.notificationIdentifier, action: action)
        } catch let error as ChimeError where error.code == .notificationNotFound {
            let delivered = try await client.deliveredNotifications(app: respond.appIdentifier).map(\.notification.identifier)
            let resolved = try IdentifierPrefix.resolve(respond.notificationIdentifier, among: delivered)
            guard resolved != respond.notificationIdentifier else { throw error }
            return try await client.respond(app: respond.appIdentifier, notification: resolved, action: action)
        }
    }

    /// The identifiers of the buttons of a delivered notification (its category's actions).
    private func offeredActions(app: String, notification: String) async -> [String] {
        guard let delivered = try? await client.deliveredNotifications(app: app).first(where: { $0.notification.identifier == notification }),
            let categories = try? await client.categories(app: app)
        else { return [] }
        let category = delivered.notification.request.content.categoryIdentifier
        return categories.first { $0.identifier == category }?.actions.map(\.identifier) ?? []
    }

    /// Says how many there really were; naming identifiers none of which exists is an error (exit 1), as
    /// `rm` of a missing file is. An identifier may be given by its start when that is unique.
    private func run(_ remove: RemoveCommand) async throws -> String {
        let app = Output.shown(remove.appIdentifier)
        func removing(_ identifiers: [String]?) async throws -> Int {
            remove.delivered
                ? try await client.removeDelivered(identifiers, app: remove.appIdentifier)
                : try await client.removePending(identifiers, app: remove.appIdentifier)
        }
        var removed = try await removing(remove.identifiers)
        if removed == 0, let given = remove.identifiers {
            // Not the identifiers themselves: perhaps the starts of them (looked up only then).
            let existing = remove.delivered
                ? try await client.deliveredNotifications(app: remove.appIdentifier).map(\.notification.identifier)
                : try await client.pendingRequests(app: remove.appIdentifier).map(\.request.identifier)
            let resolved = try given.map { identifier throws(ChimeError) in try IdentifierPrefix.resolve(identifier, among: existing) }
            if resolved != given { removed = try await removing(resolved) }
        }
        if removed == 0, let identifiers = remove.identifiers {
            let named = identifiers.map { "‘\(Output.shown($0))’" }.joined(separator: ", ")
            throw ChimeError(.notificationNotFound, localized(remove.delivered ? "remove.notFoundDelivered" : "remove.notFoundPending", app, named))
        }
        if remove.json { return Output.json(RemoveOutput(app: remove.appIdentifier, list: remove.delivered ? "delivered" : "pending", removed: removed)) }
        let count = removed == 1 ? localized("count.one") : localized("count.many", String(removed))
        if remove.delivered { return localized("remove.delivered", count, app) + "\n" }
        return (removed == 0 ? localized("remove.nothingPending", app) : localized("remove.pending", count, app)) + "\n"
    }

    // MARK: respond

    private func run(_ respond: RespondCommand) async throws -> String {
        let action: WireUserAction
        switch respond.choice {
        case .open: action = .open
        case .dismiss: action = .dismiss
        case .action(let identifier): action = .action(identifier)
        case .reply(let identifier, let text): action = .reply(action: identifier, text: text)
        }
        let result: RespondResult
        do {
            result = try await respondResolvingPrefix(respond, action)
        } catch let error as ChimeError where error.field == "action" {
            // Name what the notification does offer.
            let offered = await offeredActions(app: respond.appIdentifier, notification: respond.notificationIdentifier)
            let choices = offered.isEmpty ? localized("respond.noButtons") : localized("respond.offers", offered.map { "‘\(Output.shown($0))’" }.joined(separator: ", "))
            throw ChimeError(error.code, "\(error.message); \(choices)")
        } catch let error as ChimeError where error.code == .notificationNotFound {
            let app = Output.shown(respond.appIdentifier)
            throw ChimeError(error.code, localized("respond.notFound", app, Output.shown(respond.notificationIdentifier)))
        }
        if respond.json {
            return Output.json(RespondOutput(actionIdentifier: result.response?.actionIdentifier, launch: result.launch, deliveredToApp: result.deliveredToApp, queued: result.queued))
        }
        guard let response = result.response else { return localized("respond.dismissed") + "\n" }
        let app = Output.shown(respond.appIdentifier)
        let reached: String
        if result.deliveredToApp {
            reached = localized("respond.reached.app", app)
        } else if result.queued {
            switch result.launched {
            case true?: reached = localized("respond.reached.launching", app)
            case false?: reached = localized("respond.reached.noLaunch", app)
            case nil: reached = localized("respond.reached.waits", app)
            }
        } else {
            reached = localized("respond.reached.refused", app)
        }
        let sent =
            if response.isDefaultAction { localized("respond.what.opened") }
            else if response.isDismissAction { localized("respond.what.dismissed") }
            else { localized("respond.what.action", Output.shown(response.actionIdentifier)) }
        return localized("respond.done", sent, reached) + "\n"
    }

    func iso(_ date: Date) -> String {
        InstantFormat.iso8601(date, in: zone)
    }

    func utc(_ date: Date) -> String {
        InstantText.utc(date)
    }
}
