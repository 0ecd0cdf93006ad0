/// Every route of chimed's HTTP API: its method and path template, shared by the server's router, the
/// client, and the test that holds the OpenAPI document (`/v1/openapi.json`) to this table.
///
/// Templates name their parameters in braces (`/v1/apps/{app}/pending/{id}`); `path(_:)` fills them,
/// percent-encoding each value so that any identifier (slashes and spaces included) is one segment.
public enum Route: String, Sendable, Hashable, CaseIterable {
    case status
    case openAPI
    case events
    case focus, setFocus
    case apps, app, registerApp
    case requestAuthorization, decideAuthorization
    case settings, updateSettings
    case categories, setCategories
    case badge
    case allPending, pending, addPending, replacePending, removePending, removeOnePending
    case allDelivered, delivered, removeDelivered, removeOneDelivered
    case center
    case respond
    case appEvents, answerQuestion, queuedResponses, acknowledgeResponse
    case webLogin
    case webPush, subscribeWebPush, unsubscribeWebPush
    case apnsKey, setAPNsKey, removeAPNsKey, apnsDeviceToken, apnsDoor

    public var method: HTTPMethod {
        switch self {
        case .status, .openAPI, .events, .focus, .apps, .app, .settings, .categories, .allPending, .pending, .allDelivered, .delivered,
            .center, .appEvents, .queuedResponses, .webPush, .apnsKey, .apnsDeviceToken:
            .get
        case .setFocus, .registerApp, .decideAuthorization, .updateSettings, .setCategories, .badge, .replacePending, .setAPNsKey: .put
        case .requestAuthorization, .addPending, .respond, .answerQuestion, .acknowledgeResponse, .webLogin, .subscribeWebPush, .apnsDoor: .post
        case .removePending, .removeOnePending, .removeDelivered, .removeOneDelivered, .unsubscribeWebPush, .removeAPNsKey: .delete
        }
    }

    public var template: String {
        switch self {
        case .status: "/v1/status"
        case .openAPI: "/v1/openapi.json"
        case .events: "/v1/events"
        case .focus, .setFocus: "/v1/focus"
        case .apps: "/v1/apps"
        case .app, .registerApp: "/v1/apps/{app}"
        case .requestAuthorization: "/v1/apps/{app}/authorization/request"
        case .decideAuthorization: "/v1/apps/{app}/authorization"
        case .settings, .updateSettings: "/v1/apps/{app}/settings"
        case .categories, .setCategories: "/v1/apps/{app}/categories"
        case .badge: "/v1/apps/{app}/badge"
        case .allPending: "/v1/pending"
        case .pending, .addPending, .removePending: "/v1/apps/{app}/pending"
        case .replacePending, .removeOnePending: "/v1/apps/{app}/pending/{id}"
        case .allDelivered: "/v1/delivered"
        case .delivered, .removeDelivered: "/v1/apps/{app}/delivered"
        case .removeOneDelivered: "/v1/apps/{app}/delivered/{id}"
        case .center: "/v1/center"
        case .respond: "/v1/apps/{app}/delivered/{id}/response"
        case .appEvents: "/v1/apps/{app}/events"
        case .answerQuestion: "/v1/apps/{app}/questions/{question}"
        case .queuedResponses: "/v1/apps/{app}/responses"
        case .acknowledgeResponse: "/v1/apps/{app}/responses/{delivery}/acknowledgment"
        case .webLogin: "/v1/web/login"
        case .webPush: "/v1/web/push"
        case .subscribeWebPush: "/v1/web/push/subscriptions"
        case .unsubscribeWebPush: "/v1/web/push/subscriptions/{id}"
        case .apnsKey, .setAPNsKey, .removeAPNsKey: "/v1/apns-key"
        case .apnsDeviceToken: "/v1/apps/{app}/apns-token"
        case .apnsDoor: "/3/device/{token}"
        }
    }

    /// Whether carrying the request out twice has the same effect as once, so a client may send it again
    /// when it cannot tell whether it arrived: every route but the user's action on a notification and an
    /// app's answers (an add replaces by identifier; removals and settings are absolute), and APNs'
    /// endpoint (a request is delivered each time, unless it names its `apns-id`).
    public var isIdempotent: Bool {
        switch self {
        case .respond, .answerQuestion, .acknowledgeResponse, .apnsDoor: false
        default: true
        }
    }

    /// The template's segments; a `{name}` segment is a parameter.
    public var segments: [Substring] { template.split(separator: "/") }

    /// The path with `values` in place of the template's parameters, in order, each percent-encoded.
    public func path(_ values: String...) -> String {
        var remaining = values[...]
        let filled = segments.map { segment -> String in
            guard segment.first == "{" else { return String(segment) }
            guard let value = remaining.popFirst() else { preconditionFailure("\(template) needs a value for \(segment)") }
            return PercentEncoding.encodeSegment(value)
        }
        precondition(remaining.isEmpty, "\(template) takes fewer values")
        return "/" + filled.joined(separator: "/")
    }

    /// The route whose template matches `path` for `method`, with its parameters decoded; `.wrongMethod`
    /// with the methods the path takes when only the method differs.
    public static func match(method: String, path: String) -> Match {
        let given = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/") else { return .none }
        var allowed: [HTTPMethod] = []
        for (route, segments) in compiled {
            guard segments.count == given.count else { continue }
            // Literals first: parameters are decoded only for the route that matches.
            let literalsMatch = zip(segments, given).allSatisfy { template, segment in
                template.parameter == nil ? template.literal.elementsEqual(segment) : !segment.isEmpty
            }
            guard literalsMatch else { continue }
            guard route.method.rawValue == method else {
                if zip(segments, given).allSatisfy({ $0.parameter == nil || PercentEncoding.decode(Substring($1)) != nil }) {
                    allowed.append(route.method)
                }
                continue
            }
            var parameters: [String: String] = [:]
            for (template, segment) in zip(segments, given) {
                guard let name = template.parameter else { continue }
                guard let value = PercentEncoding.decode(Substring(segment)) else { return .none }
                parameters[name] = value
            }
            return .route(route, parameters)
        }
        return allowed.isEmpty ? .none : .wrongMethod(allowed: allowed)
    }

    /// A template's segment, split once: a literal, or a parameter's name.
    private struct CompiledSegment: Sendable {
        var literal: [UInt8]
        var parameter: String?
    }

    /// Every route with its template's segments, split once rather than on every request.
    private static let compiled: [(Route, [CompiledSegment])] = allCases.map { route in
        (route, route.segments.map { segment in
            segment.first == "{"
                ? CompiledSegment(literal: [], parameter: String(segment.dropFirst().dropLast()))
                : CompiledSegment(literal: Array(segment.utf8), parameter: nil)
        })
    }

    public enum Match: Sendable, Hashable {
        case route(Route, [String: String])
        case wrongMethod(allowed: [HTTPMethod])
        case none
    }
}

public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case put = "PUT"
    case post = "POST"
    case delete = "DELETE"
}

/// Percent-encoding of path segments and query values (RFC 3986: everything but unreserved characters).
public enum PercentEncoding {
    public static func encodeSegment(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(UnicodeScalar(byte))
            default:
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// Decodes `%XX` escapes; `nil` for a broken escape or bytes that are not UTF-8.
    public static func decode(_ value: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
