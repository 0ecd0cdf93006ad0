/// A signal received on a connection, copied out of its message.
struct BusSignal: Sendable, Hashable {
    /// The sender's unique name (`:1.42`): the only part of a signal a peer cannot forge.
    let sender: String
    let path: String
    let interface: String
    let member: String
    let arguments: [BusValue]
    /// Where the message came in the connection's incoming order (see `BusReply.sequence`).
    let sequence: UInt64
}

/// The values of a method call's reply.
struct BusReply: Sendable, Hashable {
    let values: [BusValue]
    /// Where the reply came in the connection's incoming order, counting replies and signals alike.
    ///
    /// The bus keeps one sender's messages in order, so comparing the sequence of a signal with that of a
    /// reply from the same peer tells which the peer sent first: a `NotificationClosed` that came before
    /// the reply to the `Notify` that replaced the notification was about the notification replaced.
    let sequence: UInt64
}

/// Which signals a match delivers; unset fields match anything.
///
/// A rule with `sender` set to a unique name lets only that connection's signals through, so another
/// peer on the bus cannot fake them.
struct SignalRule: Sendable, Hashable {
    var sender: String?
    var path: String?
    var interface: String?
    var member: String?
    /// The first argument, which must be a string (the name in `NameOwnerChanged`, the interface in
    /// `PropertiesChanged`).
    var arg0: String?

    /// The match rule in the bus's syntax (values here never contain quotes: names, paths, members).
    var matchString: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// Whether `signal` fits the rule: sd-bus filters too, this is checked again where it matters.
    func admits(_ signal: BusSignal) -> Bool {
        (sender == nil || sender == signal.sender) && (path == nil || path == signal.path)
            && (interface == nil || interface == signal.interface) && (member == nil || member == signal.member)
            && (arg0 == nil || signal.arguments.first?.string == arg0)
    }
}

/// Where matched signals go: one stream, which any number of matches can feed, in the order the
/// connection received them. It ends when the connection does.
final class SignalSink: Sendable {
    let signals: AsyncStream<BusSignal>
    let continuation: AsyncStream<BusSignal>.Continuation

    init() {
        (signals, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }
}

/// Names an installed match, to remove it.
struct MatchToken: Sendable, Hashable {
    let id: UInt64
}
