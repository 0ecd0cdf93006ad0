/// Why a D-Bus operation of the desktop presenter failed.
///
/// The presenter itself never throws at the engine: it logs these and carries on (see `DesktopPresenter`).
/// They surface where a caller asked for something directly, such as `EnvironmentMonitor`.
public struct DesktopError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case busUnavailable, disconnected, timedOut, remote, invalidMessage
        }

        private let value: Value

        private init(_ value: Value) {
            self.value = value
        }

        /// The bus could not be reached (no address, no socket, refused).
        public static let busUnavailable = Code(.busUnavailable)
        /// The connection ended (the bus went away, or the connection was closed).
        public static let disconnected = Code(.disconnected)
        /// No reply came within the call's timeout.
        public static let timedOut = Code(.timedOut)
        /// The other side answered with a D-Bus error (see `DesktopError.name`).
        public static let remote = Code(.remote)
        /// A message could not be built or read (a value of the wrong type, a malformed reply).
        public static let invalidMessage = Code(.invalidMessage)

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The D-Bus error name for `.remote` errors (`org.freedesktop.DBus.Error.ServiceUnknown`), or the
    /// errno name sd-bus reported.
    public let name: String?
    /// What went wrong, in words; never notification text.
    public let message: String

    init(_ code: Code, name: String? = nil, _ message: String) {
        self.code = code
        self.name = name
        self.message = message
    }

    /// An error from a negative sd-bus return value (`-errno`).
    init(_ code: Code, errno: Int32, _ what: String) {
        self.init(code, name: "errno \(-errno)", "\(what) failed (errno \(-errno))")
    }

    public var description: String {
        var text = "D-Bus \(code): \(message)"
        if let name, code == .remote { text += " [\(name)]" }
        return text
    }

    static let timeoutErrorName = "org.freedesktop.DBus.Error.Timeout"
    static let noReplyErrorName = "org.freedesktop.DBus.Error.NoReply"
}
