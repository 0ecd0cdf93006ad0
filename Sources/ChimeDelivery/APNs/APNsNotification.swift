public import Foundation

/// One push request to APNs: the device, the headers Apple's "Sending notification requests to APNs"
/// defines, and the payload (at most 4 KB).
public struct APNsNotification: Sendable, Hashable {
    public static let maximumPayloadSize = 4096

    /// The device token, in hexadecimal.
    public var deviceToken: String
    /// `apns-topic`: the app's bundle identifier.
    public var topic: String
    /// `apns-push-type`: `alert` or `background` here.
    public var pushType: String
    /// `apns-priority`: 10 at once, 5 when the device saves power, 1 when it is convenient.
    public var priority: Int
    /// `apns-expiration`: until when APNs keeps trying (UNIX seconds); 0 tries once.
    public var expiration: Int64
    /// `apns-collapse-id`: a later notification with it replaces this one on the device (at most 64 bytes).
    public var collapseID: String?
    /// `apns-id`: the request's UUID, which APNs echoes; the same for every attempt of one delivery.
    public var id: UUID
    public var payload: [UInt8]

    public init(
        deviceToken: String, topic: String, pushType: String = "alert", priority: Int = 10, expiration: Int64 = 0, collapseID: String? = nil,
        id: UUID = UUID(), payload: [UInt8]
    ) {
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.id = id
        self.payload = payload
    }

    /// The request's headers besides `authorization`.
    var headers: [(name: String, value: String)] {
        var headers: [(String, String)] = [
            ("apns-topic", topic), ("apns-push-type", pushType), ("apns-priority", String(priority)), ("apns-expiration", String(expiration)),
            ("apns-id", id.uuidString.lowercased()),
        ]
        if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
        return headers
    }
}

/// What APNs answered: its status, the request's `apns-id`, and for a failure its reason (`BadDeviceToken`,
/// `Unregistered`, …) and, with 410, since when the token was no longer valid.
public struct APNsAnswer: Sendable, Hashable {
    public var status: Int
    public var apnsID: String?
    public var reason: String?
    public var timestamp: Date?

    public init(status: Int, apnsID: String? = nil, reason: String? = nil, timestamp: Date? = nil) {
        self.status = status
        self.apnsID = apnsID
        self.reason = reason
        self.timestamp = timestamp
    }

    /// The answer from its status, `apns-id` and body (`{"reason":…,"timestamp":…}` for a failure). A body
    /// that is not such an object adds nothing; a timestamp only when it is a time (milliseconds since
    /// 1970, between then and the year 9999), so a wrong one never reaches the ledger.
    package init(status: Int, apnsID: String?, body: [UInt8]) {
        self.init(status: status, apnsID: apnsID)
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return }
        reason = object["reason"] as? String
        if let milliseconds = (object["timestamp"] as? NSNumber)?.doubleValue, milliseconds.isFinite, (0...253_402_300_799_000).contains(milliseconds) {
            timestamp = Date(timeIntervalSince1970: milliseconds / 1000)
        }
    }
}
