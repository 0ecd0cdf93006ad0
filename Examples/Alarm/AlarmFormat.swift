import Foundation

/// How the alarm app writes dates: local time, as a clock shows it.
enum AlarmFormat {
    /// `07:39:00`
    static func time(_ date: Date) -> String {
        formatter("HH:mm:ss").string(from: date)
    }

    /// `Thu 3 Dec 2026 07:30:00`
    static func dateAndTime(_ date: Date) -> String {
        formatter("EEE d MMM yyyy HH:mm:ss").string(from: date)
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = format
        return formatter
    }

    /// `2026-12-03T07:30:00+09:00`, for `--json`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        return formatter.string(from: date)
    }
}

/// `alarm status --json`: `{"date":"2026-12-03T07:30:00+09:00","identifier":"…","pending":true,"set":true}`;
/// only `set` when no alarm is set.
struct AlarmStatus: Encodable {
    var set: Bool
    var date: String?
    var identifier: String?
    /// Whether its notification is still waiting to fire.
    var pending: Bool?

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
