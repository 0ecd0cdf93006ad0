import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Which fires recorded ahead of their instants have been handed to the presenter: what lets a new process
/// show the ones a killed process recorded but never showed.
///
/// The scheduler records a fire up to `EngineConfiguration.fireLead` before its instant and shows it at
/// the instant (`FiresAhead`). A process killed in between leaves a delivered record that nobody saw.
/// So, before the store records a batch ahead, the engine appends each fire to this journal (`ahead`);
/// right before it hands a fire to the presenter, or cancels it, it appends that it is settled
/// (`settle`). A new engine shows each fire the journal has ahead but not settled whose delivered record
/// is still the one written then (same identifier, same date).
///
/// Why this keeps every fire shown exactly once across `kill -9`:
/// - Killed before the store committed the batch: the fires are still pending in the store and fire
///   again; their journal entries match no delivered record and are dropped.
/// - Killed after the commit, before a fire was settled: the fire was not handed to the presenter; the
///   journal has it unsettled and the record exists, so the next engine shows it.
/// - Killed after it was settled: the journal says so and the next engine leaves it. Only a kill between
///   the settle line and the presenter leaves a fire recorded but not shown: the same window as a fire
///   recorded and shown at its instant, which the lead does not widen.
///
/// The journal is not synced: `write(2)` puts each line in the page cache, which outlives the process.
/// After a power loss the journal may lack its last lines; fires recorded ahead in the last moments are
/// then recorded but not shown, as on a machine whose screen went dark with them.
///
/// Lines: `A <sequence> <date bits, hex> <app bytes> <identifier bytes>\n<app><identifier>\n` for a fire
/// ahead, `S <sequence>\n` for a fire settled. A torn last line is ignored.
final class PresentationJournal {
    struct Entry: Equatable, Sendable {
        let sequence: UInt64
        let appIdentifier: String
        let identifier: String
        let date: Date
    }

    let url: URL
    private var descriptor: Int32
    /// Bytes written since the journal was last rewritten, to know when to compact it.
    private(set) var size = 0

    init(url: URL) throws {
        self.url = url
        descriptor = try Self.open(url)
    }

    deinit { close(descriptor) }

    /// The fires ahead and not settled, in the order they were journaled.
    static func unsettled(at url: URL) -> [Entry] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        var ahead: [UInt64: Entry] = [:]
        var order: [UInt64] = []
        var reader = LineReader(bytes: [UInt8](data))
        while let kind = reader.byte() {
            guard let header = reader.line() else { break }
            let fields = header.split(separator: " ")
            if kind == UInt8(ascii: "A"), fields.count == 4, let sequence = UInt64(fields[0]), let bits = UInt64(fields[1], radix: 16),
                let appCount = Int(fields[2]), let identifierCount = Int(fields[3]),
                let app = reader.text(count: appCount), let identifier = reader.text(count: identifierCount), reader.byte() == UInt8(ascii: "\n")
            {
                ahead[sequence] = Entry(sequence: sequence, appIdentifier: app, identifier: identifier, date: Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)))
                order.append(sequence)
            } else if kind == UInt8(ascii: "S"), fields.count == 1, let sequence = UInt64(fields[0]) {
                ahead[sequence] = nil
            } else {
                break  // torn or foreign: what follows cannot be trusted
            }
        }
        return order.compactMap { ahead[$0] }
    }

    /// Journals fires about to be recorded ahead of their instants.
    func ahead(_ entries: [Entry]) throws {
        guard !entries.isEmpty else { return }
        var bytes: [UInt8] = []
        for entry in entries {
            let app = Array(entry.appIdentifier.utf8)
            let identifier = Array(entry.identifier.utf8)
            let bits = String(entry.date.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
            bytes += Array("A \(entry.sequence) \(bits) \(app.count) \(identifier.count)\n".utf8)
            bytes += app
            bytes += identifier
            bytes.append(UInt8(ascii: "\n"))
        }
        try append(bytes)
    }

    /// Journals that these fires were handed to the presenter, or cancelled.
    func settle(_ sequences: [UInt64]) throws {
        guard !sequences.isEmpty else { return }
        try append(Array(sequences.map { "S \($0)\n" }.joined().utf8))
    }

    /// Replaces the journal with `entries` alone (the fires still ahead), atomically: a kill during it
    /// leaves the old journal or the new one.
    func rewrite(keeping entries: [Entry]) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        unlink(temporary.path)
        let replacement = try PresentationJournal(url: temporary)
        try replacement.ahead(entries)
        guard rename(temporary.path, url.path) == 0 else {
            let error = DurableFile.posixError("cannot replace \(url.path)")
            unlink(temporary.path)
            throw error
        }
        close(descriptor)
        descriptor = replacement.descriptor
        replacement.descriptor = -1
        size = replacement.size
    }

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw DurableFile.posixError("cannot write \(url.path)") }
                offset += count
            }
        }
        size += bytes.count
    }

    private static func open(_ url: URL) throws -> Int32 {
        let descriptor = Glibc.open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFile.posixError("cannot open \(url.path)") }
        return descriptor
    }
}

/// Reads the journal's bytes: a kind byte, a header line, then counted bytes.
private struct LineReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The rest of the line after the kind byte and its space, without the newline; `nil` when torn.
    mutating func line() -> Substring? {
        guard byte() == UInt8(ascii: " "), let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { offset = end + 1 }
        return Substring(decoding: bytes[offset..<end], as: UTF8.self)
    }

    mutating func text(count: Int) -> String? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return String(validating: bytes[offset..<offset + count], as: UTF8.self)
    }
}
