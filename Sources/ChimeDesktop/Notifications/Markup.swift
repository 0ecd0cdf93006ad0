/// Text for a body the server reads as markup (`body-markup`): the spec's markup is a small subset of
/// HTML, so `&`, `<` and `>` in app text must be escaped, or a notification could restyle itself or hide
/// its text. Quotes need no escaping outside attributes.
enum Markup {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
