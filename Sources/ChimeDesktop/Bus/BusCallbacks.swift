import CSystemd
import Synchronization

/// What an sd-bus slot's userdata points to: retained when the slot is made, released by the slot's
/// destroy callback, so the callbacks can never see a freed object.
///
/// @unchecked Sendable: the subclasses keep their mutable state behind a mutex; the base has none.
class SlotBox: @unchecked Sendable {
    /// The slot is gone (its reply came, its match was removed, or the connection ended).
    func slotDestroyed() {}

    /// The userdata pointer for a new slot, holding one reference that `BusCallbacks.destroy` releases.
    func retainedPointer() -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(self).toOpaque()
    }
}

/// A method call waiting for its reply.
///
/// @unchecked Sendable: its only mutable state, the completion, is behind a mutex.
final class CallBox: SlotBox, @unchecked Sendable {
    private let completion: Mutex<(@Sendable (Result<BusReply, DesktopError>) -> Void)?>
    let counter: MessageCounter

    init(counter: MessageCounter, completion: @escaping @Sendable (Result<BusReply, DesktopError>) -> Void) {
        self.counter = counter
        self.completion = Mutex(completion)
    }

    /// Hands the result to the caller, once; later results are dropped.
    func complete(_ result: Result<BusReply, DesktopError>) {
        let completion = completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        completion?(result)
    }

    override func slotDestroyed() {
        complete(.failure(DesktopError(.disconnected, "the connection closed before the reply came")))
    }
}

/// A signal match: where its signals go, and who waits for the bus to confirm it.
///
/// @unchecked Sendable: its only mutable state, the install callback, is behind a mutex.
final class MatchBox: SlotBox, @unchecked Sendable {
    let sink: SignalSink
    let rule: SignalRule
    let counter: MessageCounter
    private let installed: Mutex<(@Sendable (Result<Void, DesktopError>) -> Void)?>

    init(rule: SignalRule, sink: SignalSink, counter: MessageCounter, installed: @escaping @Sendable (Result<Void, DesktopError>) -> Void) {
        self.rule = rule
        self.sink = sink
        self.counter = counter
        self.installed = Mutex(installed)
    }

    func installFinished(_ result: Result<Void, DesktopError>) {
        let installed = installed.withLock { installed in
            defer { installed = nil }
            return installed
        }
        installed?(result)
    }

    override func slotDestroyed() {
        installFinished(.failure(DesktopError(.disconnected, "the connection closed before the match was installed")))
    }
}

/// The C callbacks handed to sd-bus. They copy the message into Swift values, hand them on, and return;
/// they run on the bus thread and touch nothing else.
enum BusCallbacks {
    /// A method call's reply (or its error, or sd-bus's own timeout or disconnection error).
    static let reply: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let box = Unmanaged<CallBox>.fromOpaque(userdata).takeUnretainedValue()
        box.complete(BusIncoming.reply(message, sequence: box.counter.next()))
        return 0
    }

    /// A matched signal. Returns 0 so that other matches see it too.
    static let signal: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let box = Unmanaged<MatchBox>.fromOpaque(userdata).takeUnretainedValue()
        if let signal = BusIncoming.signal(message, sequence: box.counter.next()), box.rule.admits(signal) {
            box.sink.continuation.yield(signal)
        }
        return 0
    }

    /// The bus's answer to `AddMatch`.
    static let matchInstalled: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let box = Unmanaged<MatchBox>.fromOpaque(userdata).takeUnretainedValue()
        box.installFinished(BusIncoming.reply(message, sequence: 0).map { _ in () })
        return 0
    }

    /// Releases the box a slot's userdata holds.
    static let destroy: sd_bus_destroy_t = { userdata in
        guard let userdata else { return }
        Unmanaged<SlotBox>.fromOpaque(userdata).takeRetainedValue().slotDestroyed()
    }
}

/// Copies incoming messages into Swift values.
enum BusIncoming {
    static func reply(_ message: OpaquePointer, sequence: UInt64) -> Result<BusReply, DesktopError> {
        if sd_bus_message_is_method_error(message, nil) > 0 {
            let error = sd_bus_message_get_error(message)
            let name = error?.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let text = error?.pointee.message.map { String(cString: $0) } ?? ""
            // sd-bus answers a call itself when no reply came in time, or when the connection ended.
            if name == DesktopError.noReplyErrorName || name == DesktopError.timeoutErrorName {
                let lowercased = text.lowercased()
                let ended = lowercased.contains("terminated") || lowercased.contains("disconnect")
                return .failure(DesktopError(ended ? .disconnected : .timedOut, name: name, text.isEmpty ? "no reply" : text))
            }
            return .failure(DesktopError(.remote, name: name, text.isEmpty ? name : text))
        }
        do throws(DesktopError) {
            return .success(BusReply(values: try BusMessageCoding.readAll(from: message), sequence: sequence))
        } catch {
            return .failure(error)
        }
    }

    static func signal(_ message: OpaquePointer, sequence: UInt64) -> BusSignal? {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        guard let arguments = try? BusMessageCoding.readAll(from: message) else { return nil }
        return BusSignal(
            sender: text(sd_bus_message_get_sender(message)), path: text(sd_bus_message_get_path(message)),
            interface: text(sd_bus_message_get_interface(message)), member: text(sd_bus_message_get_member(message)),
            arguments: arguments, sequence: sequence)
    }
}
