#if !canImport(Darwin)
public import Foundation
import ChimeCore

extension NSString {
    /// A notification text that is localized when the notification is delivered, in the user's language
    /// then (Apple's `localizedUserNotificationString(forKey:arguments:)`).
    ///
    /// ```swift
    /// content.title = NSString.localizedUserNotificationString(forKey: "Hello!", arguments: nil)
    /// content.body = NSString.localizedUserNotificationString(forKey: "TEA_READY", arguments: ["Earl Grey"])
    /// ```
    ///
    /// **How Chime carries it.** Apple returns a string object that remembers its key; a Swift `String` on
    /// Linux cannot. Chime returns the text shown when no strings table has the key — the key with the
    /// arguments filled in — followed by an invisible marker (Unicode tag characters, which text renderers
    /// do not draw) that holds the key and the arguments. When the content is added, a title, subtitle, body,
    /// action title or category placeholder that is exactly such a string becomes
    /// `LocalizableText.localized(key:arguments:)`, resolved by the engine at delivery from the app's strings
    /// tables. Requests read back from the center carry the same marked string, so re-adding them keeps
    /// the text deferred.
    ///
    /// Joined with other text (`"⚠️ " + localized`), the result is plain text: the marker is dropped and
    /// the key with its arguments stays, as the literal it now is. Comparing the returned string with the
    /// key itself (`== "Hello!"`) is false because of the marker; compare with another call's result.
    ///
    /// - Parameters:
    ///   - key: The key in the app's `Localizable.strings`.
    ///   - arguments: Values for the format's specifiers, each turned into text with
    ///     `String(describing:)`.
    public class func localizedUserNotificationString(forKey key: String, arguments: [Any]?) -> String {
        DeferredLocalization.string(key: key, arguments: (arguments ?? []).map { String(describing: $0) })
    }
}

/// The marked strings `localizedUserNotificationString(forKey:arguments:)` returns, and their reading back
/// as `LocalizableText`.
///
/// Layout: the fallback text, then U+E0001 (LANGUAGE TAG), the UTF-8 bytes of the JSON array
/// `[key, argument...]` as lowercase hexadecimal digits spelled with tag characters (U+E0030–E0039,
/// U+E0061–E0066), then U+E007F (CANCEL TAG). Tag characters are default-ignorable: renderers show the
/// fallback text alone.
enum DeferredLocalization {
    private static let begin = Unicode.Scalar(0xE0001)!
    private static let end = Unicode.Scalar(0xE007F)!
    private static let tagOffset: UInt32 = 0xE0000

    static func string(key: String, arguments: [String]) -> String {
        let payload = (try? JSONEncoder().encode([key] + arguments)) ?? Data()
        var text = fallback(key: key, arguments: arguments)
        text.unicodeScalars.append(begin)
        for byte in payload {
            for digit in String(byte, radix: 16).leftPadded(to: 2).unicodeScalars {
                text.unicodeScalars.append(Unicode.Scalar(tagOffset + digit.value)!)
            }
        }
        text.unicodeScalars.append(end)
        return text
    }

    /// What `text` means: a localized text when it is exactly one marked string, else a literal (with any
    /// markers inside removed).
    static func text(_ text: String) -> LocalizableText {
        guard text.unicodeScalars.contains(begin) else { return .literal(text) }
        var visible = String.UnicodeScalarView()
        var markers: [(visibleLength: Int, key: String, arguments: [String])] = []
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            guard scalar == begin, let close = scalars.firstIndex(of: end) else {
                visible.append(scalar)
                continue
            }
            if let decoded = decode(scalars[..<close]), let key = decoded.first {
                markers.append((visible.count, key, Array(decoded.dropFirst())))
            }
            scalars = scalars[scalars.index(after: close)...]
        }
        let plain = String(visible)
        if markers.count == 1, let marker = markers.first, marker.visibleLength == visible.count,
            plain == fallback(key: marker.key, arguments: marker.arguments)
        {
            return .localized(key: marker.key, arguments: marker.arguments)
        }
        return .literal(plain)
    }

    /// The marked string for `text`: how a stored text reads back through Apple's `String` properties.
    static func string(_ text: LocalizableText) -> String {
        switch text {
        case .literal(let literal): literal
        case .localized(let key, let arguments): string(key: key, arguments: arguments)
        }
    }

    /// The text shown when no strings table has the key, as on iOS: the key, with the arguments filled in.
    private static func fallback(key: String, arguments: [String]) -> String {
        NotificationLocalizer(tables: [:]).resolve(.localized(key: key, arguments: arguments), preferredLanguages: [])
    }

    private static func decode(_ tags: Substring.UnicodeScalarView) -> [String]? {
        var hex = ""
        for tag in tags {
            guard tag.value > tagOffset, let digit = Unicode.Scalar(tag.value - tagOffset) else { return nil }
            hex.unicodeScalars.append(digit)
        }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return try? JSONDecoder().decode([String].self, from: Data(bytes))
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
#endif
