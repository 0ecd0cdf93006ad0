import ChimeTestSupport
import Foundation
import Testing

/// `script/install` into a temporary prefix and home, as a user runs it (the programs already built, so
/// the test does not build them again): programs, completions, man pages and the systemd unit in place,
/// the bash completion working, the man pages rendering, and `--uninstall` removing every file it wrote.
@Suite("script/install")
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func installsCompletesAndUninstalls() async throws {
        let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chime-install-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let prefix = root.appendingPathComponent("prefix").path
        let built = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root.path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        let script = Self.repository.appendingPathComponent("script/install").path

        let installed = try await Subprocess.run(script, ["--prefix", prefix, "--from", built], environment: environment)
        #expect(installed.status == 0, "\(installed.standardOutput)\(installed.standardError)")
        let files = [
            "bin/chime", "bin/chimed", "share/bash-completion/completions/chime", "share/zsh/site-functions/_chime",
            "share/fish/vendor_completions.d/chime.fish", "share/man/man1/chime.1", "share/man/man8/chimed.8",
        ]
        for file in files { #expect(FileManager.default.isReadableFile(atPath: "\(prefix)/\(file)"), "\(file)") }
        let unit = try String(contentsOf: root.appendingPathComponent("config/systemd/user/chimed.service"), encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(prefix)/bin/chimed\n"), "the service runs the installed chimed")

        // The bash completion completes subcommands and each one's options.
        let completion = "\(prefix)/share/bash-completion/completions/chime"
        let completed = try await Subprocess.run("/bin/bash", ["-c", """
            source '\(completion)'
            COMP_WORDS=(chime wa); COMP_CWORD=1; _chime; echo "${COMPREPLY[*]}"
            COMP_WORDS=(chime add --ti); COMP_CWORD=2; _chime; echo "${COMPREPLY[*]}"
            """], environment: environment)
        #expect(completed.standardOutput == "watch\n--title --time-zone --timeout\n", "\(completed.standardOutput)\(completed.standardError)")

        // The man pages render, with a section per subcommand made from its --help.
        var manEnvironment = environment
        manEnvironment["MANWIDTH"] = "100"
        let manual = try await Subprocess.run("/usr/bin/man", ["-l", "\(prefix)/share/man/man1/chime.1"], environment: manEnvironment)
        #expect(manual.status == 0, "\(manual.standardError)")
        #expect(manual.standardOutput.contains("chime - Chime: Apple's UserNotifications, on Linux."), "\(manual.standardOutput.prefix(300))")
        #expect(manual.standardOutput.contains("CHIME ADD") && manual.standardOutput.contains("--wait"), "every subcommand's help is in it")
        let daemonManual = try await Subprocess.run("/usr/bin/man", ["-l", "\(prefix)/share/man/man8/chimed.8"], environment: manEnvironment)
        #expect(daemonManual.status == 0 && daemonManual.standardOutput.contains("--presenter"), "\(daemonManual.standardError)")

        let removed = try await Subprocess.run(script, ["--prefix", prefix, "--uninstall"], environment: environment)
        #expect(removed.status == 0, "\(removed.standardError)")
        let left = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &folder) && !folder.boolValue
        }
        #expect(left == [], "every file the install wrote is gone: \(left ?? [])")
        #expect(try await Subprocess.run(script, ["--bogus"], environment: environment).status == 64)
    }
}
