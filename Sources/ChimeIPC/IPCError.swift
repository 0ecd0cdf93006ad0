public import ChimeCore

/// An error on the daemon's local API: either the engine's own `ChimeError`, carried with its code, field
/// and message, or a protocol error (bad token, malformed line, unknown method, ...).
///
/// On the wire: `{"domain":"chime","code":1,"name":"notificationsNotAllowed","field":"authorization","message":"..."}`.
/// `chime` errors keep their `ChimeError.Code` raw values across the wire; `ipc` errors use `IPCError.Code`.
/// Messages are fixed texts, never notification content.
public struct IPCError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A protocol error's kind.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The first message was not a `hello` with the right token; the daemon closes the connection.
        public static let unauthenticated = Code(rawValue: 1)
        /// The line is not a JSON object with a `method`.
        public static let malformedMessage = Code(rawValue: 2)
        /// The method is not one the daemon knows.
        public static let unknownMethod = Code(rawValue: 3)
        /// The parameters do not fit the method (missing, wrong type, invalid value).
        public static let invalidParameters = Code(rawValue: 4)
        /// The line is longer than `WireFormat.maximumLineLength`; it was discarded.
        public static let messageTooLarge = Code(rawValue: 5)
        /// The method needs an app and the connection named none.
        public static let noApp = Code(rawValue: 6)
        /// Something failed inside the daemon (the store, the file system); nothing was changed.
        public static let internalError = Code(rawValue: 7)
        /// The connection to the daemon is gone, or no daemon answers on the socket.
        public static let notConnected = Code(rawValue: 8)
        /// No such queued response, app or question.
        public static let notFound = Code(rawValue: 9)

        public var description: String {
            switch self {
            case .unauthenticated: "unauthenticated"
            case .malformedMessage: "malformedMessage"
            case .unknownMethod: "unknownMethod"
            case .invalidParameters: "invalidParameters"
            case .messageTooLarge: "messageTooLarge"
            case .noApp: "noApp"
            case .internalError: "internalError"
            case .notConnected: "notConnected"
            case .notFound: "notFound"
            default: "code \(rawValue)"
            }
        }
    }

    public enum Domain: String, Sendable, Hashable, Codable {
        /// The engine's `ChimeError`: `code` is a `ChimeError.Code` raw value.
        case chime
        /// The API itself: `code` is an `IPCError.Code` raw value.
        case ipc
    }

    public let domain: Domain
    public let code: Int
    /// The code's name, for people reading the wire.
    public let name: String
    public let field: String?
    public let message: String

    public init(_ code: Code, field: String? = nil, _ message: String) {
        domain = .ipc
        self.code = code.rawValue
        name = code.description
        self.field = field
        self.message = message
    }

    public init(_ error: ChimeError) {
        domain = .chime
        code = error.code.rawValue
        name = error.code.description
        field = error.field
        message = error.message
    }

    /// The protocol code, for `ipc` errors.
    public var ipcCode: Code? { domain == .ipc ? Code(rawValue: code) : nil }

    /// The engine's error, for `chime` errors, with the code it had in the daemon.
    public var chimeError: ChimeError? {
        domain == .chime ? ChimeError(ChimeError.Code(rawValue: code), field: field, message) : nil
    }

    public var description: String {
        "IPCError.\(domain).\(name)\(field.map { " (\($0))" } ?? ""): \(message)"
    }
}
