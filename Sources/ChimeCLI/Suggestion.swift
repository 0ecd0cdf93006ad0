import Foundation

/// "Did you mean …?" for a mistyped subcommand or option: the known word closest to what was typed, when
/// it is close enough to be a typo (at most two edits, and fewer than half the word's letters).
enum Suggestion {
    static func closest(to typed: String, among known: [String]) -> String? {
        let candidates = known.map { (word: $0, distance: distance(typed, $0)) }
            .filter { $0.distance <= min(2, max(1, $0.word.count / 2)) }
        return candidates.min { $0.distance < $1.distance }?.word
    }

    /// The options a help text lists (`--title`, `--in`…): the help is where options are declared for
    /// people, so it is also what typos are matched against.
    static func options(in helpText: String) -> [String] {
        var options: [String] = []
        for word in helpText.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "[" || $0 == "]" || $0 == "|" }) {
            guard word.hasPrefix("--"), word.count > 2 else { continue }
            let option = String(word.prefix { $0 == "-" || $0.isLetter || $0.isNumber })
            if option.count > 2, !options.contains(option) { options.append(option) }
        }
        return options
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension UsageError {
    /// The message with a suggestion when it names an unknown subcommand or option that looks like a typo.
    var messageWithSuggestion: String {
        let known: [String]
        let typed: String
        if let range = message.range(of: "unknown subcommand '"), let end = message[range.upperBound...].firstIndex(of: "'") {
            typed = String(message[range.upperBound..<end])
            known = ChimeCommand.subcommands
        } else if let range = message.range(of: "unknown option '"), let end = message[range.upperBound...].firstIndex(of: "'") {
            typed = String(message[range.upperBound..<end])
            known = Suggestion.options(in: ChimeCommand.helpText(for: command))
        } else {
            return message
        }
        guard let suggestion = Suggestion.closest(to: typed, among: known), suggestion != typed else { return message }
        return message + " (did you mean '\(suggestion)'?)"
    }
}
