import CSystemd

/// One D-Bus connection, usable from any task: method calls with a timeout, property reads, signal
/// matches and signal emission.
///
/// The connection runs on a thread of its own (`BusLoop`) that owns the sd-bus handle and sleeps in
/// `poll`. Callers queue work there and suspend until the reply comes, so a slow or silent peer costs a
/// suspended task, never a blocked thread of the cooperative pool, and never longer than the call's
/// timeout.
///
/// ```swift
/// let bus = try await BusConnection.open(.session)
/// let reply = try await bus.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
///                                interface: "org.freedesktop.Notifications", member: "GetCapabilities")
/// reply.values.first?.strings  // ["actions", "body", ...]
/// ```
///
/// Lifetime: the connection closes when `close()` is called or the value is released; calls still
/// waiting then fail with `.disconnected`, and signal streams end. It also ends by itself when the bus
/// goes away (`isConnected` turns false).
final class BusConnection: Sendable {
    private let loop: BusLoop
    let address: BusAddress

    private init(loop: BusLoop, address: BusAddress) {
        self.loop = loop
        self.address = address
    }

    deinit {
        loop.stop()
    }

    /// Connects to the bus at `address`; `name` names the connection's thread, and `timeout` bounds the
    /// calls sd-bus makes by itself (adding and removing matches).
    static func open(_ address: BusAddress, name: String = "chime.dbus", timeout: Duration = .seconds(5)) async throws(DesktopError) -> BusConnection {
        let loop = BusLoop()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, DesktopError>, Never>) in
            loop.start(address: address, name: name, timeout: timeout) { continuation.resume(returning: $0) }
        }
        try result.get()
        return BusConnection(loop: loop, address: address)
    }

    /// Whether the connection is still up.
    var isConnected: Bool { loop.isConnected }

    /// Closes the connection (see the type's lifetime rules). Returns at once.
    func close() {
        loop.stop()
    }

    // MARK: Calls

    /// Calls a method and returns its reply's values.
    ///
    /// - Throws: `.remote` with the D-Bus error name when the peer answers with an error; `.timedOut`
    ///   when no reply comes within `timeout`; `.disconnected` when the connection is gone.
    func call(
        destination: String, path: String, interface: String, member: String, arguments: [BusValue] = [],
        timeout: Duration = .seconds(5)
    ) async throws(DesktopError) -> BusReply {
        let microseconds = Self.microseconds(timeout)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<BusReply, DesktopError>, Never>) in
            let box = CallBox(counter: loop.counter) { continuation.resume(returning: $0) }
            let queued = loop.submit { loop in
                guard let bus = loop.bus, loop.isConnected else {
                    return box.complete(.failure(DesktopError(.disconnected, "the connection is closed")))
                }
                var message: OpaquePointer?
                var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
                defer { sd_bus_message_unref(message) }
                guard result >= 0, let message else {
                    return box.complete(.failure(DesktopError(.invalidMessage, errno: result, "building the call \(interface).\(member)")))
                }
                do throws(DesktopError) {
                    try BusMessageCoding.append(arguments, to: message)
                } catch {
                    return box.complete(.failure(error))
                }
                var slot: OpaquePointer?
                result = sd_bus_call_async(bus, &slot, message, BusCallbacks.reply, box.retainedPointer(), microseconds)
                guard result >= 0, let slot else {
                    Unmanaged.passUnretained(box).release()  // the reference retainedPointer() took
                    return box.complete(.failure(DesktopError(.disconnected, errno: result, "sending \(interface).\(member)")))
                }
                // The bus holds the slot until the reply (or the timeout, or the end of the connection);
                // then the destroy callback releases the box.
                sd_bus_slot_set_destroy_callback(slot, BusCallbacks.destroy)
                sd_bus_slot_set_floating(slot, 1)
                sd_bus_slot_unref(slot)
            }
            if !queued { box.complete(.failure(DesktopError(.disconnected, "the connection is closed"))) }
        }
        return try result.get()
    }

    /// `duration` in microseconds, as sd-bus takes timeouts; at least 1 (0 would mean sd-bus's default).
    static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(1, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
    }

    /// Reads a property through `org.freedesktop.DBus.Properties.Get`, unwrapping its variant.
    func property(
        destination: String, path: String, interface: String, name: String, timeout: Duration = .seconds(5)
    ) async throws(DesktopError) -> BusValue {
        let reply = try await call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [.string(interface), .string(name)], timeout: timeout)
        guard let value = reply.values.first?.variantValue else {
            throw DesktopError(.invalidMessage, "Properties.Get did not return a variant")
        }
        return value
    }

    /// The unique name (`:1.7`) that owns `name` now.
    ///
    /// - Throws: `.remote` with `org.freedesktop.DBus.Error.NameHasNoOwner` when nobody owns it.
    func nameOwner(_ name: String, timeout: Duration = .seconds(5)) async throws(DesktopError) -> String {
        let reply = try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", arguments: [.string(name)], timeout: timeout)
        guard let owner = reply.values.first?.string else { throw DesktopError(.invalidMessage, "GetNameOwner did not return a name") }
        return owner
    }

    // MARK: Signals

    /// Sends a signal from `path`.
    func emitSignal(path: String, interface: String, member: String, arguments: [BusValue]) async throws(DesktopError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, DesktopError>, Never>) in
            let queued = loop.submit { loop in
                guard let bus = loop.bus, loop.isConnected else {
                    return continuation.resume(returning: .failure(DesktopError(.disconnected, "the connection is closed")))
                }
                var message: OpaquePointer?
                var result = sd_bus_message_new_signal(bus, &message, path, interface, member)
                defer { sd_bus_message_unref(message) }
                guard result >= 0, let message else {
                    return continuation.resume(returning: .failure(DesktopError(.invalidMessage, errno: result, "building the signal \(interface).\(member)")))
                }
                do throws(DesktopError) {
                    try BusMessageCoding.append(arguments, to: message)
                } catch {
                    return continuation.resume(returning: .failure(error))
                }
                result = sd_bus_send(bus, message, nil)
                continuation.resume(returning: result < 0 ? .failure(DesktopError(.disconnected, errno: result, "sending \(member)")) : .success(()))
            }
            if !queued { continuation.resume(returning: .failure(DesktopError(.disconnected, "the connection is closed"))) }
        }
        try result.get()
    }

    /// Delivers the signals that fit `rule` to `sink`, from when the bus has confirmed the match (this
    /// returns then) until `removeMatch` or the end of the connection.
    func addMatch(_ rule: SignalRule, to sink: SignalSink) async throws(DesktopError) -> MatchToken {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<MatchToken, DesktopError>, Never>) in
            let token = TokenCell()
            let box = MatchBox(rule: rule, sink: sink, counter: loop.counter) { result in
                continuation.resume(returning: result.map { token.value! })
            }
            let queued = loop.submit { loop in
                guard let bus = loop.bus, loop.isConnected else {
                    return box.installFinished(.failure(DesktopError(.disconnected, "the connection is closed")))
                }
                var slot: OpaquePointer?
                let result = sd_bus_add_match_async(
                    bus, &slot, rule.matchString, BusCallbacks.signal, BusCallbacks.matchInstalled, box.retainedPointer())
                guard result >= 0, let slot else {
                    Unmanaged.passUnretained(box).release()
                    return box.installFinished(.failure(DesktopError(.invalidMessage, errno: result, "adding the match \(rule.matchString)")))
                }
                sd_bus_slot_set_destroy_callback(slot, BusCallbacks.destroy)
                // Set before the bus can answer: the answer is dispatched on this thread, after this job.
                token.value = loop.register(slot: slot, box: box)
            }
            if !queued { box.installFinished(.failure(DesktopError(.disconnected, "the connection is closed"))) }
        }
        return try result.get()
    }

    /// Stops a match; signals already delivered stay in the sink.
    func removeMatch(_ token: MatchToken) {
        loop.submit { $0.unregister(token) }
    }
}

/// A match's token, written by the bus thread before the bus's answer is dispatched on that same thread.
///
/// @unchecked Sendable: written and read only on the bus thread, in that order.
private final class TokenCell: @unchecked Sendable {
    var value: MatchToken?
}
