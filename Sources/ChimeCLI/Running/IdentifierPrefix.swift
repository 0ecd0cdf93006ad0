import ChimeCore

/// A notification named by the start of its identifier (`chime respond --id 3f2a`), as git takes short
/// hashes: the identifier itself when it exists, else the one identifier that starts with it.
enum IdentifierPrefix {
    /// The identifier `given` stands for among `identifiers`: itself when present, the only one it starts,
    /// or `given` unchanged when it starts none (the caller then reports it missing).
    ///
    /// - Throws: `ChimeError.invalidIdentifier` naming the matches when it starts several.
    static func resolve(_ given: String, among identifiers: [String]) throws(ChimeError) -> String {
        guard !identifiers.contains(given) else { return given }
        let matches = identifiers.filter { $0.hasPrefix(given) }.sorted()
        guard matches.count > 1 else { return matches.first ?? given }
        let names = matches.prefix(5).map { "‘\(Output.shown($0))’" }.joined(separator: ", ")
        throw ChimeError(
            .invalidIdentifier, "‘\(Output.shown(given))’ starts \(matches.count) identifiers: \(names)\(matches.count > 5 ? ", …" : ""); give more of it")
    }
}
