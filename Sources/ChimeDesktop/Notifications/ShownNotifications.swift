import ChimeEngine

/// Which of the server's notifications shows which of ours, and what each server signal means for them:
/// the presenter's bookkeeping as a pure state machine, so its rules are tested without a bus.
///
/// Rules:
/// - A notification shown again (new buttons, a repeat alert) replaces the server's one (`replaces_id`).
/// - `ActionInvoked` answers with the key's meaning: `default` opens, a button is that action, an
///   authorization prompt's keys allow or deny (and the answered prompt is closed). It counts even for a notification since replaced: the
///   user did press it, and the engine checks whether the action is still offered.
/// - `NotificationReplied` is the inline reply's text.
/// - `NotificationClosed` with reason 2 (the user closed it) is a dismissal, unless the user acted on it
///   first: servers close a notification after its action (unless it is resident), and that is not a
///   dismissal. Reasons 1 (expired) and 3 (closed by a call) are not the user's doing: no response.
///   A close that came before the reply to the `Notify` that replaced the notification was about the
///   replaced one: ignored (`BusReply.sequence` orders them).
/// - Signals for ids the presenter never showed belong to other clients of the same server: ignored.
///   While a `Notify` is waiting for its reply, signals for unknown ids wait too, since they may be
///   about the notification being shown.
struct ShownNotifications {
    /// What a server notification shows.
    enum Owner: Sendable, Hashable {
        case notification(NotificationKey)
        /// The authorization prompt with this number.
        case prompt(Int)
    }

    /// What the presenter must do about a signal.
    enum Decision: Sendable, Hashable {
        case respond(NotificationKey, UserAction)
        /// A text-input action was pressed where no text can be typed.
        case replyNeeded(NotificationKey, PresentationActionSummary)
        /// The prompt was answered: allowed, denied, or gone without an answer (`nil`).
        case answer(prompt: Int, allowed: Bool?)
        /// Take the server's notification off the screen: an answered prompt, which no app withdraws
        /// (servers keep a notification after its action when it is resident).
        case close(serverID: UInt32)
        /// A key the notification never offered (a confused or hostile server): logged.
        case unknownKey(NotificationKey, String)
    }

    private struct Entry {
        var serverID: UInt32
        /// The sequence of the `Notify` reply that showed the current version.
        var since: UInt64
        var actedOn = false
        var meanings: [String: NotifyRequest.ActionMeaning]
    }

    private var entries: [Owner: Entry] = [:]
    private var owners: [UInt32: Owner] = [:]
    private var inFlight: Owner?
    private var parked: [ServerSignal] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The server's id for `owner`'s notification, while it is shown.
    func serverID(for owner: Owner) -> UInt32? {
        entries[owner]?.serverID
    }

    /// A `Notify` for `owner` is about to be sent.
    mutating func notifyStarted(for owner: Owner) {
        inFlight = owner
    }

    /// The `Notify` for `owner` was answered with `serverID` (`nil` when it failed), in the reply with
    /// `sequence`. Returns the decisions for the signals that waited for it.
    mutating func notifyFinished(for owner: Owner, serverID: UInt32?, sequence: UInt64, meanings: [String: NotifyRequest.ActionMeaning]) -> [Decision] {
        inFlight = nil
        if let serverID {
            if let old = entries[owner]?.serverID, old != serverID { owners[old] = nil }
            if let previousOwner = owners[serverID], previousOwner != owner { entries[previousOwner] = nil }
            entries[owner] = Entry(serverID: serverID, since: sequence, meanings: meanings)
            owners[serverID] = owner
        }
        let waiting = parked
        parked = []
        return waiting.flatMap { handle($0) }
    }

    /// Each app notification shown now: its key, the server's id, what its keys mean.
    var savedEntries: [(key: NotificationKey, serverID: UInt32, meanings: [String: NotifyRequest.ActionMeaning])] {
        entries.compactMap { owner, entry in
            guard case .notification(let key) = owner else { return nil }
            return (key, entry.serverID, entry.meanings)
        }
    }

    /// Takes `key`'s notification as shown with `serverID` by an earlier process, unless either is known
    /// already; returns whether it did.
    mutating func adopt(_ key: NotificationKey, serverID: UInt32, meanings: [String: NotifyRequest.ActionMeaning]) -> Bool {
        let owner = Owner.notification(key)
        guard entries[owner] == nil, owners[serverID] == nil else { return false }
        entries[owner] = Entry(serverID: serverID, since: 0, meanings: meanings)
        owners[serverID] = owner
        return true
    }

    /// Forgets `owner`'s notification (it is being withdrawn); returns the server id to close.
    mutating func remove(_ owner: Owner) -> UInt32? {
        guard let entry = entries.removeValue(forKey: owner) else { return nil }
        owners[entry.serverID] = nil
        return entry.serverID
    }

    /// The server went away or another took its place: its notifications are gone, without any answer
    /// from the user. Open prompts are answered `nil`.
    mutating func serverChanged() -> [Decision] {
        let prompts = entries.keys.compactMap { owner -> Int? in
            if case .prompt(let number) = owner { return number }
            return nil
        }
        entries = [:]
        owners = [:]
        parked = []
        return prompts.sorted().map { .answer(prompt: $0, allowed: nil) }
    }

    mutating func handle(_ signal: ServerSignal) -> [Decision] {
        guard let owner = owners[signal.id], var entry = entries[owner], owner != inFlight else {
            if inFlight != nil { parked.append(signal) }
            return []
        }
        switch signal.kind {
        case .actionInvoked(let key):
            entry.actedOn = true
            entries[owner] = entry
            switch (owner, entry.meanings[key]) {
            case (.prompt(let number), .allow?):
                _ = remove(owner)
                return [.answer(prompt: number, allowed: true), .close(serverID: entry.serverID)]
            case (.prompt(let number), .deny?):
                _ = remove(owner)
                return [.answer(prompt: number, allowed: false), .close(serverID: entry.serverID)]
            case (.prompt, _):
                return []
            case (.notification(let key), .open?):
                return [.respond(key, .open)]
            case (.notification(let key), .action(let identifier)?):
                return [.respond(key, .action(identifier))]
            case (.notification(let key), .replyElsewhere(let action)?):
                return [.replyNeeded(key, action)]
            case (.notification, .inlineReply?):
                return []  // the text comes with NotificationReplied
            case (.notification(let notification), _):
                return [.unknownKey(notification, key)]
            }
        case .replied(let text):
            entry.actedOn = true
            entries[owner] = entry
            guard case .notification(let key) = owner else { return [] }
            for meaning in entry.meanings.values {
                if case .inlineReply(let identifier) = meaning { return [.respond(key, .reply(action: identifier, text: text))] }
            }
            return [.unknownKey(key, "inline-reply")]
        case .closed(let reason):
            guard signal.sequence > entry.since else { return [] }  // about the version this one replaced
            _ = remove(owner)
            switch owner {
            case .prompt(let number):
                return [.answer(prompt: number, allowed: nil)]
            case .notification(let key):
                return reason == .dismissedByUser && !entry.actedOn ? [.respond(key, .dismiss)] : []
            }
        }
    }
}

/// One of our notifications: the app and the notification identifier.
struct NotificationKey: Sendable, Hashable {
    let appIdentifier: String
    let identifier: String
}
