import ChimeFuzzTargets
import Foundation
import Testing

/// Every seed of every fuzzing corpus (`Fuzz/corpus/<target>/`) through its target's checks, in the
/// ordinary suite: the round trips and agreements hold on real inputs, and each input libFuzzer ever
/// found a failure with stays here as a regression test (`Fuzz/corpus/<target>/regression-*`).
@Suite("Fuzzing seed corpora")
struct SeedCorpusTests {
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus")

    /// Runs `body` on a thread of its own, as libFuzzer calls a target: a target may wait for async work
    /// (`apns-door`), which needs a thread of Swift's concurrency pool, so it must not block one of them.
    static func onOwnThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everySeedHolds(_ name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        let folder = Self.corpora.appendingPathComponent(name)
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(seeds.count >= 3, "\(name) has a seed corpus")
        var held = 0
        let inputs = try seeds.map { [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))) }
        let outcomes = await Self.onOwnThread { inputs.map(target.check) }
        for (seed, outcome) in zip(seeds, outcomes) {
            if case .violated(let what) = outcome { Issue.record("\(name)/\(seed): \(what)") }
            if outcome == .held { held += 1 }
        }
        // Real inputs are taken, so the round trips and agreements are checked on them, not only refusals.
        #expect(held * 2 >= seeds.count, "\(name): \(held) of \(seeds.count) seeds were taken")
    }
}
