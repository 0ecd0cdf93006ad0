import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation

extension CenterRunner {
    // MARK: add

    func run(_ add: AddCommand) async throws -> String {
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
            note(localized("add.criticalAsOrdinary", Output.shown(add.appIdentifier)) + "\n")
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
            return localized("add.sent", title, app, identifier, await whereShown()) + "\n"
        }
        if add.json {
            return Output.json(
                AddedOutput(app: add.appIdentifier, identifier: request.identifier, nextFireDate: fireDate.map(utc), nextFireDateLocal: fireDate.map(iso)))
        }
        guard let fireDate else {
            if case .location(let location) = request.trigger {
                return localized("add.onRegion", title, app, identifier, RegionSpec.describe(location.region)) + "\n"
            }
            return localized("add.neverFires", title, app, identifier) + "\n"
        }
        return localized("add.scheduled", title, app, identifier, Output.relative(fireDate, from: now), iso(fireDate)) + "\n"
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
        guard let status = try? await client.status() else { return localized("shown.now") }
        switch (status.presenter, status.notificationServer) {
        case ("desktop", .some(let server)): return localized("shown.byServer", Output.shown(server.name))
        case ("desktop", nil): return localized("shown.noServer")
        default: return localized("shown.log")
        }
    }

    /// How long `add` waits for the user to answer the permission question.
    static let permissionTimeout = Duration.seconds(120)

    /// Asks whether `app` may notify, saying on standard error what it waits for and where to answer;
    /// throws, saying why, unless the app is allowed.
    private func askPermission(_ options: AuthorizationOptions, app: String) async throws {
        let status = try? await client.status()
        // Who answers: a prompt on the desktop, or the user in the web center or another terminal.
        let asksOnDesktop = status?.authorization == "desktop" || (status?.authorization == nil && status?.presenter == "desktop")
        let asksUser = asksOnDesktop || status?.authorization == "ask"
        let minutes = String(Self.permissionTimeout.components.seconds / 60)
        if asksUser { note(localized(asksOnDesktop ? "permission.waiting" : "permission.waiting.page", Output.shown(app), minutes) + "\n") }
        let allowed: Bool
        do {
            allowed = try await client.requestAuthorization(options: options, app: app, timeout: Self.permissionTimeout)
        } catch let error as APIError where error.apiCode == .notConnected && asksUser {
            throw ChimeError(.notificationsNotAllowed, localized("permission.timedOut", app, minutes))
        }
        guard !allowed else { return }
        if (try? await client.notificationSettings(app: app).authorizationStatus) == .notDetermined {
            let why = localized("permission.why.unanswered")
            throw ChimeError(.notificationsNotAllowed, localized("permission.never", app, why))
        }
        throw ChimeError(.notificationsNotAllowed, localized("permission.denied", app))
    }
}
