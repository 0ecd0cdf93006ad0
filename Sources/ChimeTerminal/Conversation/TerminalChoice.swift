import ChimeEngine

/// What a line typed at a notification's prompt means.
enum TerminalChoice: Equatable {
    /// An empty line: leave the notification for later (no response; it stays in the list).
    case later
    /// `o` or `open`: the default action.
    case open
    /// `d` or `dismiss`: an explicit dismissal.
    case dismiss
    /// A number from 1, or an action's title typed out (any case): the action at this index.
    case action(Int)
    /// Anything else.
    case invalid

    /// Reads `line` against the notification's `actions`. Surrounding spaces do not count; the letters
    /// win over an action titled "O" or "D", numbers over a title that is a number.
    init(parsing line: String, actions: [PresentationAction]) {
        let typed = line.trimmingSpaces.lowercased()
        switch typed {
        case "": self = .later
        case "o", "open": self = .open
        case "d", "dismiss": self = .dismiss
        default:
            if let number = Int(typed), actions.indices.contains(number - 1) {
                self = .action(number - 1)
            } else if let index = actions.firstIndex(where: { $0.title.trimmingSpaces.lowercased() == typed }),
                actions.filter({ $0.title.trimmingSpaces.lowercased() == typed }).count == 1
            {
                self = .action(index)
            } else {
                self = .invalid
            }
        }
    }

    /// `y`/`yes` is `true`, `n`/`no` is `false` (any case); anything else is no answer.
    static func authorizationAnswer(_ line: String) -> Bool? {
        switch line.trimmingSpaces.lowercased() {
        case "y", "yes": true
        case "n", "no": false
        default: nil
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
