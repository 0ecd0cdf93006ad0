import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

@testable import ChimeClient

/// The client's transport on its own: libcurl driven by the caller and the loop's thread, against a real
/// chimed and against a socket that never answers.
@Suite("HTTP transport over the Unix socket")
struct HTTPTransportTests {
    /// A listening Unix socket nobody reads: the kernel completes connections into its backlog, so a
    /// client connects and then waits for an answer that never comes.
    final class SilentSocket: Sendable {
        let path: String
        let descriptor: Int32

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-silent-\(UUID().uuidString.prefix(8)).sock").path
            descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in (Array(path.utf8) + [0]).enumerated() { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(descriptor, 64) == 0 else { throw TransportTestFailure("cannot listen on \(path)") }
        }

        deinit {
            close(descriptor)
            unlink(path)
        }
    }

    struct TransportTestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func aDaemonThatNeverAnswersEndsInTheRequestsTimeout() async throws {
        let silent = try SilentSocket()
        let transport = HTTPTransport(endpoint: .socket(silent.path), token: "t")
        let started = ContinuousClock.now
        await #expect(throws: APIError.self) {
            _ = try await transport.send(.get, "/v1/status", timeout: .milliseconds(300))
        }
        let waited = ContinuousClock.now - started
        // It ends (rather than hangs), never before its timeout. How soon after depends on how busy the
        // machine is, and on the test process: its waiting task resumes on the shared pool, which other
        // suites' blocking socket reads can hold for tens of seconds (38 s once in a full run).
        #expect(waited >= .milliseconds(300) && waited < .seconds(120), "\(waited)")
    }

    /// Many requests at once, some to a socket that never answers: each ends by itself, the answered ones
    /// at once, the silent ones at their own timeouts.
    @Test func requestsInFlightAtOnceEachEndByThemselves() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let token = try String(contentsOf: home.paths.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let answered = HTTPTransport(endpoint: .socket(home.paths.socketFile.path), token: token)
        let silent = try SilentSocket()
        let waiting = HTTPTransport(endpoint: .socket(silent.path), token: "t")
        let (statuses, failures) = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index % 8 == 0 { return (try? await waiting.send(.get, "/v1/status", timeout: .milliseconds(500 + index * 10)))?.status }
                    return (try? await answered.send(.get, "/v1/status"))?.status
                }
            }
            var statuses: [Int] = [], failures = 0
            for await status in group {
                if let status { statuses.append(status) } else { failures += 1 }
            }
            return (statuses, failures)
        }
        #expect(statuses.count == 56 && statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(failures == 8)
        #expect(await daemon.terminate() == 0)
    }

    @Test func noDaemonIsSaidAfterTheRetries() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("chime-none-\(UUID().uuidString.prefix(8)).sock").path
        let transport = HTTPTransport(endpoint: .socket(path), token: "t")
        do {
            _ = try await transport.send(.get, "/v1/status")
            Issue.record("a request to no daemon succeeded")
        } catch {
            #expect(error.apiCode == .notConnected)
            #expect(error.message.contains("no daemon answers on \(path)"), "\(error.message)")
        }
    }
}
