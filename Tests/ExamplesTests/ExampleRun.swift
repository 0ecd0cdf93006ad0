import ChimeTesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One example app running as a process on a pseudo-terminal, with its own data folder: the test reads
/// the screen and types, as the user would.
final class ExampleRun: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The build's products directory: the test runner sits beside the executables.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    let screen: TerminalScreen
    private let pty: PseudoTerminal
    private let process: Process
    private let exitStatus = Completion<Int32>()
    /// Everything read off the screen so far.
    private let seen = Mutex("")

    /// Starts `name` with `arguments` in `data` (its `XDG_DATA_HOME`), plain text (`NO_COLOR`), in Seoul.
    init(_ name: String, _ arguments: [String] = [], data: DataFolder) throws {
        pty = try PseudoTerminal()
        screen = TerminalScreen(reading: pty.controller.fileDescriptor, joinsCarriageReturns: true)
        process = Process()
        process.executableURL = Self.productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = data.environment
        process.standardInput = pty.terminal
        process.standardOutput = pty.terminal
        process.standardError = pty.terminal
        process.terminationHandler = { [exitStatus] process in exitStatus.complete(process.terminationStatus) }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Waits until the screen shows `text`, and returns what appeared since the last look, through it.
    @discardableResult
    func expect(_ text: String, within seconds: Int = 20) async throws -> String {
        let shown = try await screen.next(through: text, within: seconds)
        seen.withLock { $0 += shown }
        return shown
    }

    /// Everything the screen showed up to the last `expect`.
    var transcript: String { seen.withLock { $0 } }

    /// The user types `line` and presses Enter.
    func type(_ line: String) {
        pty.controller.write(Data((line + "\n").utf8))
    }

    /// The user presses Ctrl-D on an empty line: the input ends.
    func endInput() {
        pty.controller.write(Data("\u{4}".utf8))
    }

    /// Waits for the process to exit and returns its status.
    func exit(within seconds: Int = 20) async throws -> Int32 {
        guard let status = await exitStatus.value(within: .seconds(seconds)) else {
            process.terminate()
            throw Failure(description: "\(process.executableURL?.lastPathComponent ?? "the example") did not exit; the screen showed \(transcript.debugDescription)")
        }
        return status
    }

    /// Runs `name` without a terminal (input empty, output captured) to the end.
    static func capture(_ name: String, _ arguments: [String], data: DataFolder) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(name)
        process.arguments = arguments
        process.environment = data.environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}

/// A temporary `XDG_DATA_HOME` for the runs of one test, removed afterwards.
final class DataFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-examples-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = url.path
        environment["NO_COLOR"] = "1"
        environment["TZ"] = "Asia/Seoul"
        environment.removeValue(forKey: "CHIME_APP_ID")
        // In this terminal, even when a chimed runs on the machine (AlarmWithChimedTests covers that case).
        environment["CHIME_MODE"] = "embedded"
        return environment
    }

    /// A file of an example's own (`ScheduledAlarm.json` of `com.example.alarm`).
    func file(_ name: String, app: String) -> URL {
        url.appendingPathComponent(app).appendingPathComponent(name)
    }
}

/// A value that arrives once, awaited with a deadline.
final class Completion<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value?, Never>])>((nil, []))

    func complete(_ value: Value) {
        let waiters = state.withLock { state in
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, or `nil` when it did not come within `timeout`.
    func value(within timeout: Duration) async -> Value? {
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            expire()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value?? in
                if let value = state.value { return .some(value) }
                state.waiters.append(continuation)
                return .none
            }
            if case .some(let value) = value { continuation.resume(returning: value) }
        }
    }

    private func expire() {
        let waiters = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}
