/// What a notification server reports about one of its notifications.
///
/// See https://specifications.freedesktop.org/notification-spec/latest/protocol.html#signals.
struct ServerSignal: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `ActionInvoked(u id, s action_key)`.
        case actionInvoked(key: String)
        /// `NotificationReplied(u id, s text)` (KDE's inline reply).
        case replied(text: String)
        /// `NotificationClosed(u id, u reason)`.
        case closed(reason: CloseReason)
    }

    /// Why a notification closed.
    struct CloseReason: RawRepresentable, Sendable, Hashable {
        let rawValue: UInt32

        init(rawValue: UInt32) {
            self.rawValue = rawValue
        }

        static let expired = CloseReason(rawValue: 1)
        static let dismissedByUser = CloseReason(rawValue: 2)
        static let closedByCall = CloseReason(rawValue: 3)
        static let undefined = CloseReason(rawValue: 4)
    }

    /// The server's notification id.
    let id: UInt32
    let kind: Kind
    /// Its place in the connection's incoming order (`BusReply.sequence`).
    let sequence: UInt64

    /// The server signal a bus signal carries, if it is one.
    init?(_ signal: BusSignal) {
        guard signal.interface == NotificationServerLink.interface, signal.path == NotificationServerLink.path,
            signal.arguments.count == 2, let id = signal.arguments[0].uint32
        else { return nil }
        switch (signal.member, signal.arguments[1]) {
        case ("ActionInvoked", .string(let key)): kind = .actionInvoked(key: key)
        case ("NotificationReplied", .string(let text)): kind = .replied(text: text)
        case ("NotificationClosed", .uint32(let reason)): kind = .closed(reason: CloseReason(rawValue: reason))
        default: return nil
        }
        self.id = id
        sequence = signal.sequence
    }

    init(id: UInt32, kind: Kind, sequence: UInt64) {
        self.id = id
        self.kind = kind
        self.sequence = sequence
    }
}
