/// Fills a localized format string with a notification's arguments, as
/// `localizedUserNotificationString(forKey:arguments:)` does, without ever crashing on a mismatch.
///
/// Arguments are already text, so every conversion (`%@`, `%d`, `%ld`, `%.2f`, `%s`, ...) takes the next
/// argument as it is; positional forms (`%1$@`, `%2$d`) pick one by number, which translations use to
/// reorder arguments. `%%` is a percent sign. A conversion with no argument left becomes empty text, and
/// an unknown one is kept literally — a format string from a translator is input, not code.
enum NotificationStringFormat {
    static func format(_ format: String, arguments: [String]) -> String {
        guard format.contains("%") else { return format }
        var output = ""
        var scalars = format.unicodeScalars[...]
        var nextArgument = 0
        while let scalar = scalars.popFirst() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let specification = scalars
            guard let (position, rest) = parseConversion(specification) else {
                output.unicodeScalars.append(scalar)  // not a conversion: keep the % literally
                continue
            }
            scalars = rest
            switch position {
            case .percent:
                output += "%"
            case .next:
                if nextArgument < arguments.count { output += arguments[nextArgument] }
                nextArgument += 1
            case .index(let index):
                if index >= 1 && index <= arguments.count { output += arguments[index - 1] }
            }
        }
        return output
    }

    private enum ArgumentPosition {
        case percent, next, index(Int)
    }

    private static let conversions = Set("@dDiuUxXoOfFeEgGcCsSpaA".unicodeScalars)
    private static let flags = Set("-+ #0'".unicodeScalars)
    private static let lengthModifiers = Set("hlqLzjt".unicodeScalars)

    /// Reads what follows a `%`: `[n$][flags][width][.precision][length]conversion`.
    private static func parseConversion(_ input: Substring.UnicodeScalarView) -> (ArgumentPosition, Substring.UnicodeScalarView)? {
        var rest = input
        if rest.first == "%" { return (.percent, rest.dropFirst()) }
        var position = ArgumentPosition.next
        let digits = rest.prefix { ("0"..."9").contains($0) }
        if !digits.isEmpty, rest.dropFirst(digits.count).first == "$", let index = Int(String(String.UnicodeScalarView(digits))) {
            position = .index(index)
            rest = rest.dropFirst(digits.count + 1)
        }
        rest = rest.drop { flags.contains($0) }
        rest = rest.drop { ("0"..."9").contains($0) || $0 == "*" }
        if rest.first == "." { rest = rest.dropFirst().drop { ("0"..."9").contains($0) || $0 == "*" } }
        rest = rest.drop { lengthModifiers.contains($0) }
        guard let conversion = rest.first, conversions.contains(conversion) else { return nil }
        return (position, rest.dropFirst())
    }
}
