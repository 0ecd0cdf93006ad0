import Dispatch
import Synchronization
public import Foundation

extension RecipientBatch {
    /// Below this many requests a body is decoded in one piece: splitting it would not pay.
    static let piecewiseThreshold = 1_000

    /// Decodes a `POST /v1/notifications` body as `WireFormat.decoder()` does, on several cores when it is
    /// large. The body's skeleton (`{"notifications":[…]}`, nothing else) is checked byte by byte and its
    /// requests split at the top-level commas; each piece is decoded as a batch of its own, all at once.
    /// Any surprise — another shape, a piece that does not decode — decodes the whole body in one piece
    /// instead, so the answer and any error are exactly the one-piece decoder's.
    ///
    /// Why the pieces give the same batch: a request decodes the same whatever its neighbours, and if every
    /// piece is valid JSON, so is the whole they were cut from (the skeleton is checked, and the cuts are
    /// the separators between its array's elements).
    public static func decode(json body: [UInt8]) throws -> RecipientBatch {
        let decoder = WireFormat.decoder()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1, let elements = elementRanges(of: body), elements.count >= piecewiseThreshold else {
            return try decoder.decode(RecipientBatch.self, from: Data(body))
        }
        let pieceCount = min(cores, 8)
        let pieces = (0..<pieceCount).map { piece -> [UInt8] in
            let first = elements[elements.count * piece / pieceCount]
            let last = elements[elements.count * (piece + 1) / pieceCount - 1]
            return Array(#"{"notifications":["#.utf8) + body[first.lowerBound..<last.upperBound] + Array("]}".utf8)
        }
        let decoded = Mutex<[[RecipientRequest]?]>(Array(repeating: nil, count: pieceCount))
        DispatchQueue.concurrentPerform(iterations: pieceCount) { piece in
            let batch = try? WireFormat.decoder().decode(RecipientBatch.self, from: Data(pieces[piece]))
            decoded.withLock { $0[piece] = batch?.notifications }
        }
        let parts = decoded.withLock { $0 }
        guard parts.allSatisfy({ $0 != nil }) else { return try decoder.decode(RecipientBatch.self, from: Data(body)) }
        return RecipientBatch(notifications: parts.flatMap { $0! })
    }

    /// The byte ranges of the elements of the `notifications` array when `body` is exactly
    /// `{"notifications":[e, e, …]}` with JSON whitespace around the punctuation; `nil` otherwise. An
    /// element is cut at the first `,` or `]` outside strings at its own depth; whether it is valid JSON
    /// is the decoder's to say.
    static func elementRanges(of body: [UInt8]) -> [Range<Int>]? {
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        func skipSpace() {
            while index < body.count, isSpace(body[index]) { index += 1 }
        }
        func take(_ bytes: String) -> Bool {
            skipSpace()
            let expected = Array(bytes.utf8)
            guard body.count - index >= expected.count, body[index..<index + expected.count].elementsEqual(expected) else { return false }
            index += expected.count
            return true
        }
        guard take("{"), take(#""notifications""#), take(":"), take("[") else { return nil }
        var ranges: [Range<Int>] = []
        while true {
            skipSpace()
            let start = index
            var depth = 0
            var inString = false
            scan: while index < body.count {
                let byte = body[index]
                if inString {
                    if byte == 0x5C { index += 1 } else if byte == 0x22 { inString = false }
                } else {
                    switch byte {
                    case 0x22: inString = true
                    case 0x7B, 0x5B: depth += 1
                    case 0x7D, 0x5D:
                        if depth == 0 { break scan }
                        depth -= 1
                    case 0x2C where depth == 0: break scan
                    default: break
                    }
                }
                index += 1
            }
            guard index < body.count, !inString, depth == 0 else { return nil }
            var end = index
            while end > start, isSpace(body[end - 1]) { end -= 1 }
            guard end > start else { return nil }
            ranges.append(start..<end)
            if body[index] == 0x5D { break }  // `]`
            guard body[index] == 0x2C else { return nil }
            index += 1
        }
        index += 1
        guard take("}") else { return nil }
        skipSpace()
        return index == body.count ? ranges : nil
    }
}
