public import ChimeCore

/// An error of chimed's HTTP API: either the engine's own `ChimeError`, carried with its code, field and
/// message, or an error of the API itself (no token, a malformed body, an unknown route, a body too large).
///
/// On the wire it is the one error shape every route answers with, beside an HTTP status that follows from
/// the code (the server maps statuses in one place, `HTTPErrorMapping`):
///
/// ```json
/// {"error":{"domain":"chime","code":1,"name":"notificationsNotAllowed","field":"authorization","message":"…"}}
/// {"error":{"domain":"api","code":5,"name":"payloadTooLarge","message":"…","limit":1048576}}
/// ```
///
/// `chime` errors keep their `ChimeError.Code` raw values (Apple's `UNError` codes where Apple has one), so a
/// client rethrows the engine's own error. Messages are fixed texts, never notification content.
public struct APIError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// An error of the API itself.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// No bearer token, or not the daemon's (401).
        public static let unauthenticated = Code(rawValue: 1)
        /// The body is not the JSON the route takes (400).
        public static let malformedRequest = Code(rawValue: 2)
        /// No route has this path (404).
        public static let unknownRoute = Code(rawValue: 3)
        /// A parameter (path, query or body field) is missing, of the wrong type, or out of range (400).
        public static let invalidParameters = Code(rawValue: 4)
        /// The body is larger than the server takes; `limit` says how large it may be (413).
        public static let payloadTooLarge = Code(rawValue: 5)
        /// The request was refused: a `Host` the server does not serve (DNS rebinding), or a peer that is
        /// another user (403).
        public static let forbidden = Code(rawValue: 6)
        /// Something failed inside the daemon (the store, the file system); nothing was changed (500).
        public static let internalError = Code(rawValue: 7)
        /// Client side only: no daemon answers, or the connection broke before a reply.
        public static let notConnected = Code(rawValue: 8)
        /// No such queued response, question or app (404).
        public static let notFound = Code(rawValue: 9)
        /// The route exists, but not with this method (405).
        public static let methodNotAllowed = Code(rawValue: 10)
        /// Too many event streams are open; close one or try later (429).
        public static let tooManyRequests = Code(rawValue: 11)
        /// The daemon is stopping or cannot serve now (503).
        public static let unavailable = Code(rawValue: 12)
        /// The body is not `application/json` (415).
        public static let unsupportedMediaType = Code(rawValue: 13)
        /// Client side only: the daemon's runtime folder or socket belongs to another user, or is open to
        /// others; the client refuses to talk to it.
        public static let untrustedRuntimeDirectory = Code(rawValue: 14)
        /// The disk that holds the daemon's data is full; nothing was changed (500).
        public static let storageFull = Code(rawValue: 15)
        /// The daemon's data folder is read-only, or not writable by its user; nothing was changed (500).
        public static let storageNotWritable = Code(rawValue: 16)

        /// The `Idempotency-Key` was used before with a different request (422).
        public static let idempotencyKeyReused = Code(rawValue: 17)

        static let names: [Code: String] = [
            .unauthenticated: "unauthenticated", .malformedRequest: "malformedRequest", .unknownRoute: "unknownRoute",
            .invalidParameters: "invalidParameters", .payloadTooLarge: "payloadTooLarge", .forbidden: "forbidden",
            .internalError: "internalError", .notConnected: "notConnected", .notFound: "notFound",
            .methodNotAllowed: "methodNotAllowed", .tooManyRequests: "tooManyRequests", .unavailable: "unavailable",
            .unsupportedMediaType: "unsupportedMediaType", .untrustedRuntimeDirectory: "untrustedRuntimeDirectory",
            .storageFull: "storageFull", .storageNotWritable: "storageNotWritable", .idempotencyKeyReused: "idempotencyKeyReused",
        ]

        public var description: String { Self.names[self] ?? "code \(rawValue)" }
    }

    public enum Domain: String, Sendable, Hashable, Codable {
        /// The engine's `ChimeError`: `code` is a `ChimeError.Code` raw value.
        case chime
        /// The API itself: `code` is an `APIError.Code` raw value.
        case api
    }

    public let domain: Domain
    public let code: Int
    /// The code's name, for people reading the wire.
    public let name: String
    /// The parameter or body field the error concerns, if any (`"requests.0.identifier"`, `"cursor"`).
    public let field: String?
    public let message: String
    /// For `payloadTooLarge`: the largest body, in bytes, the route takes.
    public let limit: Int?

    public init(_ code: Code, field: String? = nil, _ message: String, limit: Int? = nil) {
        domain = .api
        self.code = code.rawValue
        name = code.description
        self.field = field
        self.message = message
        self.limit = limit
    }

    public init(_ error: ChimeError) {
        domain = .chime
        code = error.code.rawValue
        name = error.code.description
        field = error.field
        message = error.message
        limit = nil
    }

    /// The API's code, for `api` errors.
    public var apiCode: Code? { domain == .api ? Code(rawValue: code) : nil }

    /// The engine's error, for `chime` errors, with the code it had in the daemon.
    public var chimeError: ChimeError? {
        domain == .chime ? ChimeError(ChimeError.Code(rawValue: code), field: field, message) : nil
    }

    public var description: String {
        "APIError.\(domain).\(name)\(field.map { " (\($0))" } ?? ""): \(message)"
    }
}

/// The body of every error answer: `{"error":{…}}`.
public struct ErrorBody: Codable, Sendable, Hashable {
    public let error: APIError
    public init(error: APIError) { self.error = error }
}
