import ChimeTestSupport
import Foundation
import Testing

/// Runs the built `chime` executable as a user would, checking its output streams and exit status.
@Suite("chime executable")
struct ChimeExecutableTests {
    /// The build's products directory: the test runner sits beside the executables.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    func chime(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        let outcome = try await Subprocess.run(Self.productsDirectory.appendingPathComponent("chime").path, arguments)
        return (outcome.status, outcome.standardOutput, outcome.standardError)
    }

    @Test func theQuickStartCommandListsFiveFires() async throws {
        let result = try await chime(["next", "--calendar", "hour=8 minute=30", "--repeats", "--count", "5", "--time-zone", "Asia/Seoul"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "Next 5 fires of the calendar trigger hour=8 minute=30 (repeating) in Asia/Seoul:")
        #expect(lines.count == 6)
        #expect(lines.dropFirst().allSatisfy { $0.hasSuffix("T08:30:00+09:00") })
    }

    @Test func usageErrorsExitWith64OnStandardError() async throws {
        let result = try await chime(["next", "--calendar", "hour=99"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("chime: error: invalid trigger: hour must lie in 0...23"))
    }

    @Test func helpExitsZero() async throws {
        let result = try await chime(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: chime <subcommand> [options]"))
    }
}
