import ChimeCore
public import Foundation

/// Checks a program's message tables against its English one, written from the `.strings` rules rather
/// than with the localizer that fills them in.
public enum MessageTables {
    /// What is wrong with `table` next to `english`: a key missing or extra, a message whose arguments
    /// differ (numbers and conversions, sequential `%@` counted in order), a table that does not parse.
    public static func problems(_ table: [UInt8], against english: [UInt8]) -> [String] {
        guard let english = parse(english) else { return ["the English table does not parse"] }
        guard let table = parse(table) else { return ["the table does not parse"] }
        var problems: [String] = []
        for key in english.entries.keys.sorted() {
            guard let value = table[key] else { problems.append("missing: \(key)"); continue }
            let expected = arguments(english[key] ?? ""), found = arguments(value)
            if expected != found { problems.append("\(key): arguments \(found) instead of \(expected)") }
        }
        for key in table.entries.keys.sorted() where english[key] == nil { problems.append("not in English: \(key)") }
        return problems
    }

    /// The arguments a format takes: each position with its conversion (`1: @`).
    public static func arguments(_ format: String) -> [Int: Character] {
        var result: [Int: Character] = [:]
        var next = 1
        var characters = format[...]
        while let percent = characters.firstIndex(of: "%") {
            characters = characters[characters.index(after: percent)...]
            guard let first = characters.first else { break }
            if first == "%" { characters = characters.dropFirst(); continue }
            let digits = characters.prefix(while: \.isNumber)
            var position = next
            if !digits.isEmpty, characters.dropFirst(digits.count).first == "$" {
                position = Int(digits)!
                characters = characters.dropFirst(digits.count + 1)
            } else {
                next += 1
            }
            guard let conversion = characters.first else { break }
            result[position] = conversion
            characters = characters.dropFirst()
        }
        return result
    }

    /// Every key the sources under `directory` pass to `function("key")` (also `function(c ? "a" : "b")`).
    public static func keysUsed(by function: String, under directory: URL) throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"\b\#(function)\((?:[^()"]*\? )?"([^"\\]+)"(?: : "([^"\\]+)")?"#)
        var keys: Set<String> = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                for group in 1..<match.numberOfRanges {
                    if let range = Range(match.range(at: group), in: source) { keys.insert(String(source[range])) }
                }
            }
        }
        return keys
    }

    static func parse(_ bytes: [UInt8]) -> StringsTable? {
        String(validating: bytes, as: UTF8.self).flatMap { try? StringsTable(parsing: $0) }
    }

    /// The keys of a table.
    public static func keys(of bytes: [UInt8]) -> Set<String> {
        Set(parse(bytes)?.entries.keys.map(\.self) ?? [])
    }
}
