public import Foundation

/// What a delivered notification becomes when it is pushed to an Apple device: the payload (with its texts
/// as the recipient reads them, since the device has none of Chime's string tables) and the request's
/// headers, following Apple's "Sending notification requests to APNs":
///
/// - `apns-push-type`: `alert` when there is anything to show, sound or badge; otherwise `background`,
///   with `content-available: 1`.
/// - `apns-priority`: 10 (at once) for an alert; 5 (as the device's power allows) for a background push
///   and for a passive one, which shows nothing at once anyway.
/// - `apns-expiration`: a day after it was due, so a phone that is off for a while still gets it, and one
///   off for longer does not get yesterday's reminder.
/// - `apns-collapse-id`: the request's identifier, so a later notification with the same identifier
///   replaces this one on the device as it does in Apple's API (only when it fits: at most 64 bytes of
///   printable ASCII).
///
/// A notification the recipient's quiet hours hold back goes as `interruption-level: passive` and without
/// its sound: the device puts it in the list silently, as Chime's own center would.
public struct APNsPush: Sendable, Hashable {
    /// How long APNs keeps trying after the due date.
    public static let storedFor: TimeInterval = 24 * 3600

    public var payload: [UInt8]
    public var pushType: String
    public var priority: Int
    /// UNIX seconds.
    public var expiration: Int64
    public var collapseID: String?

    public init(content: NotificationContent, identifier: String, title: String, subtitle: String, body: String, due: Date, quietly: Bool) {
        var shown = content
        shown.title = .literal(title)
        shown.subtitle = .literal(subtitle)
        shown.body = .literal(body)
        shown.attachments = []
        if quietly {
            shown.interruptionLevel = .passive
            shown.sound = nil
        }
        let visible = !title.isEmpty || !subtitle.isEmpty || !body.isEmpty || shown.badge != nil || shown.sound != nil
        var payload = APNsPayload(content: shown, contentAvailable: !visible)
        if let sound = payload.content.sound, (try? payload.jsonData()) == nil, Self.isRingtone(sound) {
            // Ringtones have no APNs form: the notification goes without its sound rather than not at all.
            payload.content.sound = nil
        }
        // APNs takes 4 KB (`jsonData()` refuses more): a longer body is cut to fit, as a banner would cut it
        // anyway; when the app's own keys alone are too many, it goes without them.
        var bytes = Self.fitted(payload)
        if bytes == nil, !payload.content.userInfo.isEmpty {
            payload.content.userInfo = [:]
            bytes = Self.fitted(payload)
        }
        self.payload = bytes ?? Array(#"{"aps":{"content-available":1}}"#.utf8)
        pushType = visible ? "alert" : "background"
        priority = visible && shown.interruptionLevel != .passive ? 10 : 5
        expiration = Int64(due.timeIntervalSince1970 + Self.storedFor)
        let printable = identifier.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        collapseID = identifier.utf8.count <= 64 && printable && !identifier.isEmpty ? identifier : nil
    }

    /// The payload's JSON, its body cut to the longest start with which it fits 4 KB; `nil` when even an
    /// empty body does not.
    static func fitted(_ payload: APNsPayload) -> [UInt8]? {
        if let bytes = try? payload.jsonData() { return Array(bytes) }
        guard case .literal(let text) = payload.content.body, !text.isEmpty else { return nil }
        var shortened = payload
        let characters = Array(text)
        var (fits, tooLong) = (0, characters.count)
        while tooLong - fits > 1 {
            let middle = (fits + tooLong) / 2
            shortened.content.body = .literal(String(characters[..<middle]))
            if (try? shortened.jsonData()) != nil { fits = middle } else { tooLong = middle }
        }
        shortened.content.body = .literal(String(characters[..<fits]))
        return (try? shortened.jsonData()).map(Array.init)
    }

    static func isRingtone(_ sound: NotificationSound) -> Bool {
        switch sound.kind {
        case .defaultRingtone, .ringtone: true
        default: false
        }
    }

    /// The headers as kept with a queued delivery: one `name: value` per line.
    public var headerLines: String {
        var lines = ["apns-push-type: \(pushType)", "apns-priority: \(priority)", "apns-expiration: \(expiration)"]
        if let collapseID { lines.append("apns-collapse-id: \(collapseID)") }
        return lines.joined(separator: "\n")
    }

    /// Headers kept as `headerLines`, by name.
    public static func headers(fromLines lines: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            headers[String(parts[0])] = String(parts[1].dropFirst())
        }
        return headers
    }
}
