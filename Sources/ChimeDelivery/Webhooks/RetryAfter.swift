import ChimeCore
public import Foundation

/// A `Retry-After` field (RFC 9110 §10.2.3) as a pause in whole seconds: `delay-seconds` (`120`) or an
/// HTTP-date, which counts from `now` (a date already past is no pause). A field that is neither is
/// ignored, as the RFC's robustness asks, rather than read as a pause it does not say.
///
/// A pause is at most `maximumSeconds`; a longer one, even of more digits than an `Int` holds, reads as
/// that. Callers bound it further by their own longest pause, so no receiver parks a delivery forever.
public enum RetryAfter {
    public static let maximumSeconds = 86_400 * 365

    public static func seconds(_ value: some StringProtocol, now: Date) -> Int? {
        let field = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\n"))
        if !field.isEmpty, field.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            var seconds = 0
            for digit in field.utf8 {
                seconds = min(seconds * 10 + Int(digit - 0x30), maximumSeconds)
            }
            return seconds
        }
        guard let date = HTTPDate.parse(field, now: now) else { return nil }
        let pause = date.timeIntervalSince(now).rounded(.up)
        return pause <= 0 ? 0 : Int(min(pause, TimeInterval(maximumSeconds)))
    }

    /// The pause a raw header line gives (`Retry-After: 120\r\n`), as libcurl hands each line of an
    /// answer; `nil` for any other header.
    public static func seconds(headerLine line: String, now: Date) -> Int? {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "retry-after" else { return nil }
        return seconds(parts[1], now: now)
    }
}
