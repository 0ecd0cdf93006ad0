import ChimeCore
public import Foundation

/// The daemon's local API: newline-delimited JSON over a Unix domain socket, one message per line.
///
/// ```
/// → {"id":1,"method":"hello","params":{"token":"…","app":"com.example.alarm","subscribe":true}}
/// ← {"id":1,"result":{"version":"0.1.0"}}
/// → {"id":2,"method":"add","params":{"requests":[…]}}
/// ← {"id":2,"error":{"domain":"chime","code":1,"name":"notificationsNotAllowed","field":"authorization","message":"…"}}
/// ← {"event":"response","params":{"delivery":"…","response":{…}}}      (no id: pushed to subscribed apps)
/// ```
///
/// The first request on a connection must be `hello` with the token from the token file; anything else is
/// answered `unauthenticated` and the connection is closed. A line that is not JSON, names an unknown
/// method, or is longer than `maximumLineLength` is answered with a typed error (id `null` when the line
/// had none) and changes nothing; the connection stays open.
public enum WireFormat {
    /// The longest line either side accepts: 1 MiB.
    public static let maximumLineLength = 1 << 20
    public static let version = "0.1.0"

    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// One JSON line, newline included.
    public static func line(_ value: some Encodable) throws -> Data {
        var data = try encoder().encode(value)
        data.append(0x0A)
        return data
    }
}

/// Every method of the API.
public enum Method: String, Sendable, Codable, CaseIterable {
    case hello
    case requestAuthorization, notificationSettings, updateSettings
    case setCategories, categories
    case add, pendingRequests, removePending
    case deliveredNotifications, removeDelivered
    case setBadgeCount
    case respond
    case apps, registerApp, setAuthorization
    case focus
    case status
    /// The client has handled a response event; the daemon forgets the queued response.
    case acknowledge
    /// The client's answer to a `willPresent` event.
    case presentationOptions
}

/// A request on the wire.
public struct RequestMessage<Params: Encodable>: Encodable {
    public let id: Int
    public let method: Method
    public let params: Params

    public init(id: Int, method: Method, params: Params) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// What either side reads first of a line: which message it is.
public struct MessageHead: Decodable, Sendable {
    public let id: Int?
    public let method: String?
    public let event: String?
    public let error: IPCError?
}

/// The parameters (or result) of a message, decoded once its head said which type they have.
public struct ParamsBody<Params: Decodable>: Decodable {
    public let params: Params
}

public struct ResultBody<Result: Decodable>: Decodable {
    public let result: Result
}

/// A successful reply.
public struct ResultMessage<Result: Encodable>: Encodable {
    public let id: Int
    public let result: Result

    public init(id: Int, result: Result) {
        self.id = id
        self.result = result
    }
}

/// A failed reply; `id` is `nil` when the request's id could not be read.
public struct ErrorMessage: Codable, Sendable {
    public let id: Int?
    public let error: IPCError

    public init(id: Int?, error: IPCError) {
        self.id = id
        self.error = error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)  // explicit null, so the reader sees a reply, not an event
        try container.encode(error, forKey: .error)
    }
}

/// A message the daemon pushes to a subscribed app: no id.
public struct EventMessage<Params: Encodable>: Encodable {
    public let event: EventKind
    public let params: Params

    public init(event: EventKind, params: Params) {
        self.event = event
        self.params = params
    }
}

public enum EventKind: String, Sendable, Codable {
    /// The user responded to one of the app's notifications; acknowledge it once handled.
    case response
    /// One of the app's notifications arrives while it is in the foreground; answer with
    /// `presentationOptions` within the daemon's timeout, else the system presents it.
    case willPresent
}

/// No parameters, or no result.
public struct Empty: Codable, Sendable, Hashable {
    public init() {}
}
