import Dispatch
import Synchronization
import Foundation

extension RecipientBatch {
    /// Below this many requests a body is read in one piece: splitting it would not pay.
    static let piecewiseThreshold = 1_000

    /// Decodes a `POST /v1/notifications` body as `WireFormat.decoder()` does, several times faster, and on
    /// several cores when it is large.
    ///
    /// The body's skeleton (`{"notifications":[…]}`, nothing else) is checked byte by byte and its requests
    /// split at the top-level commas. Each request is read by `RecipientRequest.read(from:)`, or, where
    /// that declines, decoded alone by `JSONDecoder`; a large body is cut into pieces, one per core, read
    /// at once. Any surprise — another shape, a request that does not decode — decodes the whole body in
    /// one piece instead, so the answer and any error are exactly the one-piece decoder's.
    ///
    /// Why the requests give the same batch: a request decodes the same whatever its neighbours, and if
    /// every request is valid JSON, so is the whole they were cut from (the skeleton is checked, and the
    /// cuts are the separators between its array's elements).
    public static func decode(json body: [UInt8]) throws -> RecipientBatch {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard let elements = elementRanges(of: body) else { return try decodeWhole(body) }
        let pieceCount = elements.count >= piecewiseThreshold ? min(max(cores, 1), 8) : 1
        let decoded = Mutex<[[RecipientRequest]?]>(Array(repeating: nil, count: pieceCount))
        DispatchQueue.concurrentPerform(iterations: pieceCount) { piece in
            let requests = decode(elements[elements.count * piece / pieceCount..<elements.count * (piece + 1) / pieceCount], of: body)
            decoded.withLock { $0[piece] = requests }
        }
        let parts = decoded.withLock { $0 }
        guard parts.allSatisfy({ $0 != nil }) else { return try decodeWhole(body) }
        return RecipientBatch(notifications: parts.flatMap { $0! })
    }

    private static func decodeWhole(_ body: [UInt8]) throws -> RecipientBatch {
        try WireFormat.decoder().decode(RecipientBatch.self, from: Data(body))
    }

    /// The requests at `ranges` of `body`, or `nil` if one of them does not decode.
    private static func decode(_ ranges: ArraySlice<Range<Int>>, of body: [UInt8]) -> [RecipientRequest]? {
        let decoder = WireFormat.decoder()
        var requests: [RecipientRequest] = []
        requests.reserveCapacity(ranges.count)
        return body.withUnsafeBufferPointer { bytes in
            for range in ranges {
                var reader = WireJSONReader(UnsafeBufferPointer(rebasing: bytes[range]))
                if let request = try? RecipientRequest.read(from: &reader), reader.isAtEnd() {
                    requests.append(request)
                } else if let request = try? decoder.decode(RecipientRequest.self, from: Data(bytes[range])) {
                    requests.append(request)
                } else {
                    return nil
                }
            }
            return requests
        }
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
