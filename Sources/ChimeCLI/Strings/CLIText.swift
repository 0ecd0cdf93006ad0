import ChimeCore

/// What `chime` says to a person, in their language (`LANG`, `LC_MESSAGES`, `LANGUAGE`):
/// `chime-<language>.strings`, looked up by key.
///
/// The catalog is a task-local value, set once per invocation by `ChimeMain.run(_:languages:…)`, so
/// messages made deep in a command need no parameter threaded to them, and in-process runs with
/// different languages (tests) do not share one.
enum CLIText {
    @TaskLocal static var current = english

    /// The tables by language, for tests that check them against each other.
    static let tables: [String: [UInt8]] = ["en": PackageResources.chime_en_strings, "ko": PackageResources.chime_ko_strings]

    static func catalog(languages: [String]) -> TextCatalog {
        TextCatalog(tables: tables, languages: languages)
    }

    static let english = catalog(languages: [])

    /// `body` with English messages: for what scripts read (JSON values) and what is not translated yet.
    static func inEnglish<T>(_ body: () throws -> T) rethrows -> T {
        try $current.withValue(english, operation: body)
    }

    static func inEnglish<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await $current.withValue(english, operation: body)
    }
}

/// The message `key` in the invocation's language, arguments filling `%1$@`, `%2$@` …
func localized(_ key: String, _ arguments: String...) -> String {
    CLIText.current.text(key, arguments)
}
