import Foundation
import Synchronization

/// A busy neighbour: `threads` threads that do nothing but arithmetic until `stop()`, each as eager for a
/// core as a compiler is. On a two-core machine two of them leave the measured process a share of the
/// cores, not a core of its own, which is what a shared machine does to a scheduler.
final class CPUContention: Sendable {
    private let running = Atomic<Bool>(true)
    private let finished = Atomic<Int>(0)
    let threads: Int

    init(threads: Int) {
        self.threads = threads
        for index in 0..<threads {
            let thread = Thread { [self] in
                var state = UInt64(index + 1)
                while running.load(ordering: .relaxed) {
                    // Enough work between checks that the flag costs nothing, little enough to stop at once.
                    for _ in 0..<10_000 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
                }
                if state == 0 { print("") }  // keeps the loop from being optimised away
                finished.add(1, ordering: .releasing)
            }
            thread.name = "contention-\(index)"
            thread.start()
        }
    }

    /// Stops the threads and waits until every one has returned.
    func stop() {
        running.store(false, ordering: .relaxed)
        while finished.load(ordering: .acquiring) < threads { usleep(1_000) }
    }
}
