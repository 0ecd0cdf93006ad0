import Foundation

/// Rows handed, chunk by chunk, from the task that encodes them to the writer that inserts them, so a
/// large add's encoding overlaps its insert instead of coming before it (BENCHMARKS.md, "Where a batch
/// add's time goes").
///
/// The encoding side never waits: it only appends. The writer waits for the next chunk; the encoding
/// side runs without suspending from the moment the write is submitted until it calls `finish`, so the
/// wait always ends.
final class RowChannel: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var chunks: [[[SQLiteValue]]] = []
    private var taken = 0
    private var end: Result<Void, any Error>?

    func send(_ chunk: [[SQLiteValue]]) {
        condition.lock()
        chunks.append(chunk)
        condition.signal()
        condition.unlock()
    }

    /// No more chunks come: the rows are all sent, or encoding failed with `end`'s error.
    func finish(_ end: Result<Void, any Error>) {
        condition.lock()
        self.end = end
        condition.signal()
        condition.unlock()
    }

    /// The next chunk, once it is sent; `nil` once every chunk was taken and the sender finished.
    ///
    /// - Throws: the sender's error, once the chunks sent before it were taken.
    func receive() throws -> [[SQLiteValue]]? {
        condition.lock()
        defer { condition.unlock() }
        while taken == chunks.count && end == nil { condition.wait() }
        if taken < chunks.count {
            let chunk = chunks[taken]
            chunks[taken] = []  // freed as the writer goes, not all at the end
            taken += 1
            return chunk
        }
        try end?.get()
        return nil
    }
}
