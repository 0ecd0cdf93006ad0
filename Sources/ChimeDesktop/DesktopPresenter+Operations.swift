import ChimeCore
import ChimeEngine
import Synchronization

extension DesktopPresenter {
    /// Carries out one queued operation; only the presenter's operation task calls it, one at a time.
    func perform(_ operation: Operation) async {
        switch operation {
        case .present(let presentation): await show(presentation)
        case .withdraw(let appIdentifier, let identifiers): await close(appIdentifier: appIdentifier, identifiers: identifiers)
        case .badge(let appIdentifier, let count): await setBadge(appIdentifier: appIdentifier, count: count)
        case .prompt(let number, let appIdentifier, let options): await ask(number, appIdentifier: appIdentifier, options: options)
        case .closeServerNotification(let serverID): await close(serverIDs: [serverID], describing: "the answered permission question")
        case .notice(let summary, let body):
            guard let (connection, server) = await link.current() else { return }
            let request = NotificationMapping.notice(summary: summary, body: body, capabilities: server.capabilities)
            do {
                _ = try await link.call("Notify", request.arguments, on: server, through: connection)
            } catch {
                log.warning("the notice “\(summary)” was not shown: \(error)")
            }
        case .withdrawPrompt(let number):
            if let serverID = state.withLock({ $0.shown.serverID(for: .prompt(number)) }) {
                await close(serverIDs: [serverID], describing: "the permission question answered elsewhere")
            }
        }
    }

    // MARK: Present

    /// Shows the notification, then sets the badge it carries (a badge counts however quietly the
    /// notification arrived, so it is set even when nothing is shown).
    private func show(_ presentation: Presentation) async {
        await showNotification(presentation)
        if let badge = presentation.badge {
            await setBadge(appIdentifier: presentation.appIdentifier, count: badge)
        }
    }

    private func showNotification(_ presentation: Presentation) async {
        let key = NotificationKey(appIdentifier: presentation.appIdentifier, identifier: presentation.notificationIdentifier)
        let name = "\(key.appIdentifier)/\(key.identifier)"
        guard !presentation.destinations.isEmpty else {
            // Shown nowhere: a version shown before goes too.
            await close(appIdentifier: key.appIdentifier, identifiers: [key.identifier])
            return
        }
        guard let (connection, server) = await link.current() else {
            let reason = await link.lastFailure ?? "no notification server"
            log.warning("desktop notification \(name) was not shown: \(reason)")
            return
        }
        guard presentation.destinations.contains(.banner) || server.listsQuietNotificationsQuietly else {
            // For the list only (Do Not Disturb, a quiet delivery): a server that would pop it up is not
            // sent it; it waits in Chime's list (chime delivered, the web page). A version shown before goes.
            log.debug("desktop notification \(name) stays in the list only: \(server.name.isEmpty ? "the server" : server.name) would pop it up")
            await close(appIdentifier: key.appIdentifier, identifiers: [key.identifier])
            return
        }
        let mapping = NotificationMapping(
            capabilities: server.capabilities, app: configuration.apps(key.appIdentifier), soundFile: configuration.soundFile)
        let owner = ShownNotifications.Owner.notification(key)
        let replacing = state.withLock { state in
            state.shown.notifyStarted(for: owner)
            return state.shown.serverID(for: owner) ?? 0
        }
        let request = mapping.request(for: presentation, replacing: replacing)
        await send(request, for: owner, on: server, through: connection, describing: "desktop notification \(name)")
    }

    /// Sends `Notify` and records what it shows; the decisions for signals that waited for the reply are
    /// carried out after.
    private func send(
        _ request: NotifyRequest, for owner: ShownNotifications.Owner, on server: NotificationServerLink.Server,
        through connection: BusConnection, describing name: String
    ) async {
        var serverID: UInt32?
        var sequence: UInt64 = 0
        do {
            let reply = try await link.call("Notify", request.arguments, on: server, through: connection)
            serverID = reply.values.first?.uint32
            sequence = reply.sequence
            if serverID == nil { log.warning("\(name): the notification server answered Notify without an id") }
        } catch {
            log.warning("\(name) was not shown: \(error)")
        }
        let decisions = state.withLock {
            $0.shown.notifyFinished(for: owner, serverID: serverID, sequence: sequence, meanings: request.meanings)
        }
        shownChanged()
        carryOut(decisions)
    }

    // MARK: Withdraw

    private func close(appIdentifier: String, identifiers: [String]) async {
        let serverIDs = state.withLock { state in
            identifiers.compactMap { state.shown.remove(.notification(NotificationKey(appIdentifier: appIdentifier, identifier: $0))) }
        }
        shownChanged()
        await close(serverIDs: serverIDs, describing: appIdentifier)
    }

    private func close(serverIDs: [UInt32], describing owner: String) async {
        guard !serverIDs.isEmpty, let (connection, server) = await link.current() else { return }
        for serverID in serverIDs {
            do {
                _ = try await link.call("CloseNotification", [.uint32(serverID)], on: server, through: connection)
            } catch {
                // Closed already (by the user, or by the server after an action): nothing left to do.
                log.info("closing desktop notification \(serverID) of \(owner): \(error)")
            }
        }
    }

    // MARK: Badge

    func setBadge(appIdentifier: String, count: Int) async {
        guard let connection = await link.bus() else {
            log.warning("the badge of \(appIdentifier) was not set: \(await link.lastFailure ?? "no session bus")")
            return
        }
        let desktopEntry = configuration.apps(appIdentifier).desktopEntry ?? appIdentifier
        let (path, arguments) = LauncherEntry.update(desktopEntry: desktopEntry, count: max(0, count))
        do {
            try await connection.emitSignal(path: path, interface: LauncherEntry.interface, member: LauncherEntry.member, arguments: arguments)
        } catch {
            log.warning("the badge of \(appIdentifier) was not set: \(error)")
        }
    }

    // MARK: Authorization prompt

    private func ask(_ number: Int, appIdentifier: String, options: AuthorizationOptions) async {
        guard let (connection, server) = await link.current() else {
            let reason = await link.lastFailure ?? "no notification server"
            log.warning("cannot ask whether \(appIdentifier) may send notifications: \(reason); it stays undecided")
            return carryOut([.answer(prompt: number, allowed: nil)])
        }
        guard server.capabilities.actions else {
            log.warning("cannot ask whether \(appIdentifier) may send notifications: the notification server shows no buttons; it stays undecided")
            return carryOut([.answer(prompt: number, allowed: nil)])
        }
        let mapping = NotificationMapping(
            capabilities: server.capabilities, app: configuration.apps(appIdentifier), soundFile: configuration.soundFile)
        let owner = ShownNotifications.Owner.prompt(number)
        state.withLock { $0.shown.notifyStarted(for: owner) }
        await send(mapping.prompt(appIdentifier: appIdentifier, options: options), for: owner, on: server, through: connection,
                   describing: "the authorization prompt for \(appIdentifier)")
        // Not shown: nobody can answer it.
        if state.withLock({ $0.shown.serverID(for: owner) }) == nil {
            carryOut([.answer(prompt: number, allowed: nil)])
        }
    }
}
