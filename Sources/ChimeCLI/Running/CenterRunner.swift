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
    let now: Date
    let zone: TimeZone
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
        case .show(let show): try await run(show)
        case .help, .version, .next, .doctor, .completions: ""
        }
    }

    // MARK: add

    private func run(_ add: AddCommand) async throws -> String {
        // The notification center moves attachments into its store; unless told to move the user's own
        // files, it gets copies, made in a private folder that is removed whatever happens.
        var add = try add.resolvingTimes(now: now, zone: zone)
        if add.body == "-" { add.body = try Self.standardInputText() }
        let copies = add.movesAttachments || add.attachmentPaths.isEmpty ? nil : try AttachmentCopies(of: add.attachmentPaths)
        defer { copies?.remove() }
        if let copies { add.attachmentPaths = copies.paths }
        let request = try add.request(identifier: UUID().uuidString)
        // The command line asks as the app the first time, as an app does at its first start; on the
        // desktop that is a notification with Allow / Don't Allow.
        let settings = try await client.notificationSettings(app: add.appIdentifier)
        let critical = request.content.interruptionLevel == .critical || request.content.sound?.isCritical == true
        if settings.authorizationStatus == .notDetermined {
            var options: AuthorizationOptions = [.alert, .sound, .badge]
            if critical { options.insert(.criticalAlert) }
            try await askPermission(options, app: add.appIdentifier)
        }
        // Following before adding, so a response that comes at once is not missed.
        let responses = add.waits ? try await client.listEvents() : nil
        defer { responses?.close() }
        let added = try await client.add([request], app: add.appIdentifier)
        if critical, !add.json, (try? await client.notificationSettings(app: add.appIdentifier).criticalAlertSetting) != .enabled {
            // Said, not refused: the notification still comes, as iOS shows it without the permission.
            let shownApp = Output.shown(add.appIdentifier)
            note(
                "chime: note: \(shownApp) may not send critical alerts, so this one alerts as an ordinary notification "
                    + "(the user allows them with 'chime apps settings \(shownApp) --critical on').\n")
        }
        let confirmation = await confirmation(of: request, add, fireDate: added.first { $0.identifier == request.identifier }?.nextFireDate)
        guard let responses else { return confirmation }
        // Standard output is the response's; the confirmation goes where the waiting notes go.
        if !add.json { note(confirmation) }
        return try await waitForResponse(responses, app: add.appIdentifier, identifier: request.identifier, timeout: add.waitTimeout, json: add.json)
    }

    /// What `add` prints once the request is stored.
    private func confirmation(of request: NotificationRequest, _ add: AddCommand, fireDate: Date?) async -> String {
        let title = Output.shown(Output.title(request.content))
        let app = Output.shown(add.appIdentifier)
        let identifier = Output.shown(request.identifier)
        guard request.trigger != nil else {
            if add.json {
                return Output.json(AddedOutput(app: add.appIdentifier, identifier: request.identifier, nextFireDate: utc(now), nextFireDateLocal: iso(now)))
            }
            return "Sent “\(title)” for \(app) (id \(identifier)): \(await whereShown())\n"
        }
        if add.json {
            return Output.json(
                AddedOutput(app: add.appIdentifier, identifier: request.identifier, nextFireDate: fireDate.map(utc), nextFireDateLocal: fireDate.map(iso)))
        }
        guard let fireDate else {
            return "Scheduled “\(title)” for \(app) (id \(identifier)), but its trigger never fires.\n"
        }
        return "Scheduled “\(title)” for \(app) (id \(identifier)): \(Output.relative(fireDate, from: now)), \(iso(fireDate)).\n"
    }

    /// `--body -`: the body from standard input (at most 64 KiB, UTF-8, a final line break dropped).
    static func standardInputText() throws -> String {
        let limit = 64 << 10
        let data = (try? FileHandle.standardInput.read(upToCount: limit + 1)) ?? nil
        let bytes = [UInt8](data ?? Data())
        guard bytes.count <= limit else { throw UsageError("--body -: standard input holds more than \(Output.bytes(limit))", command: AddCommand.name) }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError("--body -: standard input is not UTF-8 text", command: AddCommand.name)
        }
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Where a notification delivered now was shown, as far as chimed can tell.
    private func whereShown() async -> String {
        guard let status = try? await client.status() else { return "delivered now." }
        switch (status.presenter, status.notificationServer) {
        case ("desktop", .some(let server)): return "delivered now, shown by \(Output.shown(server.name))."
        case ("desktop", nil): return "delivered to the list now, but no notification server is running to show it ('chime delivered' lists it)."
        default: return "delivered now, to chimed's log (no desktop: 'chime watch' follows deliveries)."
        }
    }

    /// How long `add` waits for the user to answer the permission question.
    static let permissionTimeout = Duration.seconds(120)

    /// Asks whether `app` may notify, saying on standard error what it waits for and where to answer;
    /// throws, saying why, unless the app is allowed.
    private func askPermission(_ options: AuthorizationOptions, app: String) async throws {
        let asksOnDesktop = (try? await client.status().presenter) == "desktop"
        let shownApp = Output.shown(app)
        if asksOnDesktop {
            note(
                "chime: waiting for your answer: may \(shownApp) show notifications? Answer the question on your desktop, or run "
                    + "'chime apps allow \(shownApp)' (or deny) in another terminal. Giving up in \(Self.permissionTimeout.components.seconds / 60) minutes.\n")
        }
        let allowed: Bool
        do {
            allowed = try await client.requestAuthorization(options: options, app: app, timeout: Self.permissionTimeout)
        } catch let error as APIError where error.apiCode == .notConnected && asksOnDesktop {
            throw ChimeError(
                .notificationsNotAllowed,
                "nobody answered whether \(app) may show notifications within \(Self.permissionTimeout.components.seconds / 60) minutes; "
                    + "run 'chime apps allow \(app)' and add it again")
        }
        guard !allowed else { return }
        if (try? await client.notificationSettings(app: app).authorizationStatus) == .notDetermined {
            let why = asksOnDesktop ? "the question went away unanswered (the notification server closed it or restarted)" : "there is no desktop to ask on"
            throw ChimeError(
                .notificationsNotAllowed, "\(app) was never allowed to notify: \(why); allow it with 'chime apps allow \(app)'")
        }
        throw ChimeError(.notificationsNotAllowed, "\(app) is not allowed to notify (you denied it; 'chime apps allow \(app)' allows it)")
    }

    // MARK: pending, delivered, remove

    private func run(_ list: ListCommand) async throws -> String {
        let all = list.appIdentifier == nil
        switch list.kind {
        case .pending:
            let printer = ListPrinter(json: list.json, header: ["APP", "ID", "NEXT FIRE", "TITLE"], empty: "No pending notifications.\n", write: write)
            var cursor: String?
            repeat {
                let page = try await client.pendingPage(app: list.appIdentifier, all: all, cursor: cursor, limit: Self.pageSize)
                printer.page(
                    json: page.items.map {
                        PendingOutput(
                            app: $0.app, identifier: $0.request.identifier, title: Output.title($0.request.content), nextFireDate: $0.nextFireDate.map(utc),
                            nextFireDateLocal: $0.nextFireDate.map(iso),
                            repeats: $0.request.trigger?.repeats ?? false)
                    },
                    rows: page.items.map { [$0.app, $0.request.identifier, $0.nextFireDate.map(iso) ?? "never", Output.title($0.request.content)] })
                cursor = page.next
            } while cursor != nil
            printer.end()
        case .delivered:
            let printer = ListPrinter(json: list.json, header: ["APP", "ID", "DELIVERED", "TITLE"], empty: "No delivered notifications.\n", write: write)
            var cursor: String?
            repeat {
                let page = try await client.deliveredPage(app: list.appIdentifier, all: all, cursor: cursor, limit: Self.pageSize)
                printer.page(
                    json: page.items.map {
                        DeliveredOutput(
                            app: $0.app, identifier: $0.notification.identifier, title: Output.title($0.notification.request.content),
                            date: utc($0.notification.date), dateLocal: iso($0.notification.date))
                    },
                    rows: page.items.map { [$0.app, $0.notification.identifier, iso($0.notification.date), Output.title($0.notification.request.content)] })
                cursor = page.next
            } while cursor != nil
            printer.end()
        }
        return ""
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
    /// `rm` of a missing file is.
    private func run(_ remove: RemoveCommand) async throws -> String {
        let app = Output.shown(remove.appIdentifier)
        let list = remove.delivered ? "delivered" : "pending"
        let removed = remove.delivered
            ? try await client.removeDelivered(remove.identifiers, app: remove.appIdentifier)
            : try await client.removePending(remove.identifiers, app: remove.appIdentifier)
        if removed == 0, let identifiers = remove.identifiers {
            let named = identifiers.map { "‘\(Output.shown($0))’" }.joined(separator: ", ")
            throw ChimeError(
                .notificationNotFound, "\(app) has no \(list) notification with the id \(named) (chime \(list) --app \(app) lists them)")
        }
        let count = removed == 1 ? "1 notification" : "\(removed) notifications"
        if remove.delivered { return "Removed \(count) of \(app) from the delivered list.\n" }
        return removed == 0 ? "\(app) had nothing pending.\n" : "Cancelled \(count) of \(app) still pending.\n"
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
            result = try await client.respond(app: respond.appIdentifier, notification: respond.notificationIdentifier, action: action)
        } catch let error as ChimeError where error.field == "action" {
            // Name what the notification does offer.
            let offered = await offeredActions(app: respond.appIdentifier, notification: respond.notificationIdentifier)
            let choices = offered.isEmpty ? "it has no buttons (--open or --dismiss)" : "it offers " + offered.map { "‘\(Output.shown($0))’" }.joined(separator: ", ")
            throw ChimeError(error.code, "\(error.message); \(choices)")
        } catch let error as ChimeError where error.code == .notificationNotFound {
            let app = Output.shown(respond.appIdentifier)
            throw ChimeError(
                error.code, "\(app) has no delivered notification with the id ‘\(Output.shown(respond.notificationIdentifier))’ (chime delivered --app \(app) lists them)")
        }
        if respond.json {
            return Output.json(RespondOutput(actionIdentifier: result.response?.actionIdentifier, launch: result.launch, deliveredToApp: result.deliveredToApp, queued: result.queued))
        }
        guard let response = result.response else { return "Dismissed.\n" }
        let app = Output.shown(respond.appIdentifier)
        let reached: String
        if result.deliveredToApp {
            reached = "\(app) received it."
        } else if result.queued {
            switch result.launched {
            case true?: reached = "\(app) is not running: the response waits for it (launching it)."
            case false?:
                reached = "\(app) is not running: the response waits until it starts (it has no launch command: chime apps register \(app) --launch …)."
            case nil: reached = "\(app) is not running: the response waits for it."
            }
        } else {
            reached = "\(app) did not take it."
        }
        let sent =
            if response.isDefaultAction { "Opened the notification" }
            else if response.isDismissAction { "Dismissed the notification" }
            else { "Sent “\(Output.shown(response.actionIdentifier))”" }
        return "\(sent). \(reached)\n"
    }

    private func iso(_ date: Date) -> String {
        InstantFormat.iso8601(date, in: zone)
    }

    private func utc(_ date: Date) -> String {
        InstantText.utc(date)
    }
}
