import ChimeAPI
import ChimeCore
import ChimeEngine
import Foundation
import Synchronization

/// How the command line prints: aligned tables for people, sorted JSON for scripts.
enum Output {
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self) + "\n"
    }

    /// Columns padded to their widest cell; the last column is not padded.
    static func table(_ header: [String], _ rows: [[String]], style: TerminalStyle = .plain, tint: Tint? = nil) -> String {
        table(rows: [header] + rows, style: style, heading: true, tint: tint)
    }

    /// The rendition a cell is painted in (see `TerminalStyle.painted`), by column and text; `nil` for none.
    typealias Tint = (_ column: Int, _ text: String) -> String?

    /// Every cell is printed as `shown`: cells carry titles and identifiers that apps chose. Widths are
    /// terminal columns (a Hangul title takes two a character). On a terminal of `style.width` columns the
    /// last column is cut, with "…", so each row stays on one line; the header is bold when `heading`.
    static func table(rows unescaped: [[String]], style: TerminalStyle = .plain, heading: Bool = false, tint: Tint? = nil) -> String {
        let all = unescaped.map { $0.map(shown) }
        guard let header = all.first else { return "" }
        let widths = header.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        let lastStart = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        return all.enumerated().map { index, row in
            var cells = row.indices.map { column in
                let cell = row[column]
                guard column < row.count - 1 else {
                    // At least 10 columns of the last cell stay, though the line then wraps.
                    return style.width.map { DisplayWidth.truncated(cell, to: max(10, $0 - lastStart)) } ?? cell
                }
                return cell + String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
            }
            // An empty last cell leaves no trailing spaces.
            while cells.count > 1, cells[cells.count - 1].isEmpty {
                cells.removeLast()
                cells[cells.count - 1] = String(cells[cells.count - 1].reversed().drop { $0 == " " }.reversed())
            }
            for column in cells.indices {
                if heading && index == 0 {
                    cells[column] = style.painted(cells[column], "1")
                } else if let rendition = tint?(column, row[column]) {
                    cells[column] = style.painted(cells[column], rendition)
                }
            }
            return cells.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// Text an app or another program chose (a title, an identifier, a name), as printed for a person:
    /// control characters (escape sequences, line breaks) and bidirectional overrides are written as
    /// visible escapes, so a notification cannot rewrite the terminal or disguise what is shown. JSON
    /// output carries the text exactly instead.
    static func shown(_ text: String) -> String {
        LogText.escaped(text)
    }

    /// Whether output to a terminal may be coloured: standard output is a terminal, `NO_COLOR` is not set
    /// (https://no-color.org), and `TERM` is not `dumb`.
    static func wantsColour(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// A size in binary units, as limits are set: `1 MiB`, `64 KiB`, `1.5 MiB`, `900 bytes`.
    static func bytes(_ count: Int) -> String {
        func amount(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value) }
        if count >= 1 << 20 { return amount(Double(count) / Double(1 << 20)) + " MiB" }
        if count >= 1 << 10 { return amount(Double(count) / Double(1 << 10)) + " KiB" }
        return "\(count) bytes"
    }

    /// What a person reads for a notification: its title, else its body, else its subtitle.
    static func title(_ content: NotificationContent) -> String {
        [content.title, content.body, content.subtitle].map(text).first { !$0.isEmpty } ?? ""
    }

    /// A localizable text as written: the literal, or the key.
    static func text(_ text: LocalizableText) -> String {
        text.literal ?? text.key ?? ""
    }

    /// "in 5s", "in 1h30m", "now".
    static func relative(_ date: Date, from now: Date) -> String {
        let seconds = date.timeIntervalSince(now).rounded()
        return seconds <= 0 ? localized("time.now") : localized("time.in", DurationSpec.format(seconds))
    }

    /// The status as scripts read it (`--json`), whatever the user's language.
    static func englishName(_ status: AuthorizationStatus) -> String {
        CLIText.inEnglish { name(status) }
    }

    static func name(_ status: AuthorizationStatus) -> String {
        switch status {
        case .notDetermined: localized("status.notDetermined")
        case .denied: localized("status.denied")
        case .authorized: localized("status.authorized")
        case .provisional: localized("status.provisional")
        case .ephemeral: localized("status.ephemeral")
        }
    }

    static func settings(_ settings: NotificationSettings, app: String) -> String {
        func on(_ setting: NotificationSetting) -> String {
            switch setting {
            case .enabled: "on"
            case .disabled: "off"
            case .notSupported: "not used"
            }
        }
        let previews = switch settings.showPreviewsSetting {
        case .always: "always"
        case .whenAuthenticated: "when unlocked"
        case .never: "never"
        }
        let grouping = switch settings.groupingSetting {
        case .automatic: "automatic"
        case .byApp: "by app"
        case .off: "off"
        }
        let style = switch settings.alertStyle {
        case .none: "none"
        case .banner: "banner"
        case .alert: "alert"
        }
        return "\(shown(app))\n" + Output.table(rows: [
            ["notifications", name(settings.authorizationStatus)],
            ["alerts", on(settings.alertSetting)], ["style", style], ["sounds", on(settings.soundSetting)], ["badges", on(settings.badgeSetting)],
            ["lock screen", on(settings.lockScreenSetting)], ["list", on(settings.notificationCenterSetting)], ["previews", previews],
            ["critical alerts", on(settings.criticalAlertSetting)], ["time-sensitive", on(settings.timeSensitiveSetting)],
            ["grouping", grouping],
        ]).split(separator: "\n").map { "  " + $0 + "\n" }.joined()
    }
}

struct AddedOutput: Encodable {
    var app: String
    var identifier: String
    /// When it fires (now, for a notification without a trigger), in UTC; `nil` when its trigger never
    /// fires.
    var nextFireDate: String?
    /// The same instant as local time in the zone the command ran in.
    var nextFireDateLocal: String?
}

struct PendingOutput: Encodable {
    var app: String
    var identifier: String
    var title: String
    var nextFireDate: String?
    var nextFireDateLocal: String?
    var repeats: Bool
    /// The region a location trigger waits for, as the API writes it; `nil` for any other trigger.
    var region: CircularRegion?
}

struct DeliveredOutput: Encodable {
    var app: String
    var identifier: String
    var title: String
    var date: String
    var dateLocal: String
}

struct RemoveOutput: Encodable {
    var app: String
    var list: String
    var removed: Int
}

struct RespondOutput: Encodable {
    var actionIdentifier: String?
    var launch: String
    var deliveredToApp: Bool
    var queued: Bool
}

struct AppOutput: Encodable {
    var identifier: String
    var name: String?
    var authorization: String
    var connected: Bool
    var queuedResponses: Int
    var launchCommand: [String]?
    var badge: Int
    /// What the app asked for, while its permission question waits for the user.
    var authorizationQuestion: AuthorizationOptions?
}

/// Prints a long list as it arrives, a page at a time: a table whose header comes once (columns aligned
/// within each page), or one JSON array whose items are written as they come.
final class ListPrinter: Sendable {
    let json: Bool
    let header: [String]
    let empty: String
    let style: TerminalStyle
    let tint: (@Sendable (Int, String) -> String?)?
    let write: @Sendable (String) -> Void
    private let printed = Mutex(0)

    init(
        json: Bool, header: [String], empty: String, style: TerminalStyle, tint: (@Sendable (Int, String) -> String?)? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.json = json
        self.header = header
        self.empty = empty
        self.style = style
        self.tint = tint
        self.write = write
    }

    func page(json items: [some Encodable], rows: [[String]]) {
        let before = printed.withLock { printed in
            defer { printed += rows.count }
            return printed
        }
        guard json else {
            guard !rows.isEmpty else { return }
            if before == 0 {
                write(Output.table(header, rows, style: style, tint: tint))
            } else {
                // Widths from this page and the header, so columns line up with the header where they can.
                let text = Output.table(rows: [header] + rows, style: style, heading: true, tint: tint)
                write(String(text.drop { $0 != "\n" }.dropFirst()))
            }
            return
        }
        for (index, item) in items.enumerated() {
            let element = Output.json(item).dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
            write((before + index == 0 ? "[\n" : ",\n") + element)
        }
    }

    func end() {
        let count = printed.withLock { $0 }
        if json {
            write(count == 0 ? "[\n\n]\n" : "\n]\n")
        } else if count == 0 {
            write(empty)
        }
    }

    /// Prints every page `page` gives, from the first (`nil` cursor) until one has no `next`, each item as
    /// `output` (JSON) or `row` (a table row), then ends the list.
    func printEveryPage<Item, Shown: Encodable>(
        _ page: (String?) async throws -> Page<Item>, output: (Item) -> Shown, row: (Item) -> [String]
    ) async throws {
        var cursor: String?
        repeat {
            let next = try await page(cursor)
            self.page(json: next.items.map(output), rows: next.items.map(row))
            cursor = next.next
        } while cursor != nil
        end()
    }
}
