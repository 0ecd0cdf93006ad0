import Foundation

/// Chunks of work handed from the task that makes them to the writer that uses them: a large add's
/// records, encoded while the writer inserts the ones before, so encoding overlaps the insert instead of
/// coming before it (BENCHMARKS.md, "Where a batch add's time goes").
///
/// The making side never waits: it only appends. The writer waits for the chunk it needs next; the making
/// side runs without suspending from the moment the write is submitted until it calls `finish`, so the
/// wait always ends. Chunks are kept until the channel goes, and read by position: a write closure may run
/// again (group commit replays the writes of a transaction SQLite rolled back on its own), and then reads
/// them all again from the first.
final class ChunkChannel<Chunk>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var chunks: [Chunk] = []
    private var end: Result<Void, any Error>?
    private var abandoned = false

    /// Appends `chunk`; `false` once the writer gave up, when making more is wasted.
    @discardableResult
    func send(_ chunk: Chunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !abandoned else { return false }
        chunks.append(chunk)
        condition.signal()
        return true
    }

    /// No more chunks come: all were sent, or making them failed with `end`'s error.
    func finish(_ end: Result<Void, any Error>) {
        condition.lock()
        self.end = end
        condition.signal()
        condition.unlock()
    }

    /// The writer failed and will not ask for more.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.unlock()
    }

    /// The chunk at `index`, once it is sent; `nil` once the sender finished with fewer.
    ///
    /// - Throws: the sender's error, for the first index it did not send.
    func chunk(at index: Int) throws -> Chunk? {
        condition.lock()
        defer { condition.unlock() }
        while index >= chunks.count && end == nil { condition.wait() }
        if index < chunks.count { return chunks[index] }
        try end?.get()
        return nil
    }
}
