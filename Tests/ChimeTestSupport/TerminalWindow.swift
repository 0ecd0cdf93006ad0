import Foundation

/// A real terminal of a given size: a tmux session on a server of its own (its own socket, so nothing of
/// the user's tmux is touched). Commands are typed into it and the screen is read back as a person sees
/// it, with or without its colours — what the README's terminal pictures are taken from.
public final class TerminalWindow: Sendable {
    private let tmux: String
    private let socket: String
    public let columns: Int
    public let rows: Int

    /// Starts a shell (`bash --norc`, prompt `$ `) in a terminal of `columns` × `rows` with `environment`
    /// added to this process's.
    public init(columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) async throws {
        tmux = try Tool.path("tmux", package: "tmux")
        socket = FileManager.default.temporaryDirectory.appendingPathComponent("chime-tmux-\(UUID().uuidString)").path
        self.columns = columns
        self.rows = rows
        var variables = ["TERM": "xterm-256color", "PS1": "$ ", "LANG": "C.UTF-8"].merging(environment) { $1 }
        variables["TMUX"] = nil
        // Through env(1): tmux gives a new session's shell the environment the server started with.
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try await run(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "/usr/bin/env"] + assignments + ["bash", "--norc", "--noprofile"])
    }

    /// Types `line` and Enter.
    public func type(_ line: String) async throws {
        try await run(["send-keys", "-t", "0", "-l", line])
        try await run(["send-keys", "-t", "0", "Enter"])
    }

    /// The screen's lines, trailing blanks removed; with `colours`, the SGR sequences tmux keeps; with
    /// `joined`, a line the terminal wrapped is given whole.
    public func screen(colours: Bool = false, joined: Bool = false) async throws -> [String] {
        let text = try await run(["capture-pane", "-p", "-t", "0"] + (colours ? ["-e"] : []) + (joined ? ["-J"] : []))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Waits until the screen shows a line for which `predicate` holds, and returns the screen.
    public func waitForScreen(_ what: String, within seconds: Double = 15, where predicate: ([String]) -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let lines = try await screen()
            if predicate(lines) { return lines }
            guard Date() < deadline else { throw Timeout(description: "the terminal never showed \(what); it shows:\n\(lines.joined(separator: "\n"))") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public func close() async {
        _ = try? await run(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
    }

    @discardableResult
    private func run(_ arguments: [String]) async throws -> String {
        let child = try ChildProcess(tmux, ["-S", socket, "-f", "/dev/null"] + arguments, name: "tmux")
        let status = await child.exitStatus()
        guard status == 0 else { throw Failure(description: "tmux \(arguments.first ?? "") failed (\(status)): \(child.errors.lines.joined(separator: " "))") }
        for _ in 0..<200 where !child.output.hasEnded { try await Task.sleep(for: .milliseconds(5)) }
        return child.output.lines.joined(separator: "\n")
    }
}
