import ChimeTestSupport
import Foundation
import Testing

/// The README's command-line section, run as written: every `chime` line of its `sh` block, in order, in a
/// shell, in a folder holding the files it names (`cup.png`, and `meetings.json` from its `json` block),
/// against a real chimed. A line that stops working fails here.
@Suite("README: the command line")
struct ReadmeCommandTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The lines of the first code block fenced with `fence` after the heading `heading`.
    static func block(_ fence: String, after heading: String, in text: String) -> [String] {
        guard let section = text.range(of: heading) else { return [] }
        let lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: fence) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { $0 != "```" })
    }

    @Test func everyCommandOfTheCommandLineSectionWorksAsWritten() async throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let commands = Self.block("```sh", after: "## The command line", in: text).filter { $0.hasPrefix("chime ") }
        #expect(commands.count >= 12, "the section's commands were found: \(commands)")
        let categories = Self.block("```json", after: "## The command line", in: text).joined(separator: "\n")

        let home = try DaemonHome()
        let daemon = try await home.start()
        let folder = home.root.appendingPathComponent("readme", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(categories.utf8).write(to: folder.appendingPathComponent("meetings.json"))
        let photo = try Seeds.pngFile()
        defer { Seeds.remove(photo) }
        try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent("cup.png"))

        let binaries = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment.merging(home.environment) { $1 }
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        var watcher: ChildProcess?
        for command in commands {
            let script = "cd '\(folder.path)' && exec \(command)"
            if command.hasPrefix("chime watch") {
                // It follows until interrupted: started here and left running, as in another terminal.
                watcher = try ChildProcess("/bin/sh", ["-c", script], environment: environment, name: "chime watch")
                continue
            }
            let outcome = try await Subprocess.run("/bin/sh", ["-c", script], environment: environment)
            #expect(outcome.status == 0, "\(command)\n\(outcome.standardOutput)\(outcome.standardError)")
            if command.hasPrefix("chime respond") {
                #expect(outcome.standardOutput.hasPrefix("Sent “decline”."), "\(outcome.standardOutput)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cup.png").path), "the attached file stays")
        #expect(watcher != nil && watcher?.errors.lines.isEmpty == true, "chime watch runs: \(watcher?.errors.lines ?? [])")
        #expect(await daemon.terminate() == 0)
    }
}
