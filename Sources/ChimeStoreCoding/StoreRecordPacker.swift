public import ChimeCore

/// The records of many requests, one after another in one buffer: what a store inserts in a batch.
public struct PackedRecords: Sendable {
    /// The records, back to back.
    public private(set) var bytes: [UInt8] = []
    /// Where each record ends in `bytes`.
    private var ends: [Int] = []

    public var count: Int { ends.count }

    /// Lends the record at `index` (in the order they were packed) to `body`, without copying it.
    public func withRecord<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<ends[index]])) }
    }

    /// A copy of the record at `index`.
    public func record(at index: Int) -> [UInt8] {
        withRecord(at: index) { Array($0) }
    }

    fileprivate mutating func append(_ record: [UInt8]) {
        bytes.append(contentsOf: record)
        ends.append(bytes.count)
    }

    fileprivate mutating func append(from writer: StoreRecordWriter) throws {
        try writer.finish(appendingTo: &bytes)
        ends.append(bytes.count)
    }

    fileprivate mutating func reserve(records: Int, bytesEach: Int) {
        bytes.reserveCapacity(records * bytesEach)
        ends.reserveCapacity(records)
    }
}

/// Writes requests' records for keyed rows (`StoreRecord.encodeForKeyedRow(_:form:)` is one of them)
/// into one `PackedRecords`.
///
/// A record written alone takes a writer and its buffer (made for the marker byte, then grown to 512
/// bytes): three allocations to make and, once the rows are in, to free, for each of a batch add's
/// hundred thousand requests. A packer writes them all with one writer into one growing buffer.
public struct StoreRecordPacker {
    private let writer: StoreRecordWriter
    private let form: StoreRecord.Form
    private var packed = PackedRecords()

    /// - Parameter records: how many records will be packed, to reserve room for them.
    public init(form: StoreRecord.Form, records: Int) {
        self.form = form
        writer = StoreRecordWriter(compact: form == .compact)
        // A typical reminder's compact record is about 105 bytes.
        packed.reserve(records: records, bytesEach: form == .compact ? 128 : 256)
    }

    /// Packs the request's record: without its identifier when the direct writer writes the request,
    /// whole through `encode(to:)` (which always writes the identifier) otherwise.
    public mutating func append(_ request: NotificationRequest) throws {
        writer.reset()
        if writer.writeDirectly(request, includingIdentifier: false) {
            try packed.append(from: writer)
        } else {
            packed.append(try StoreRecord.encode(request, form: form))
        }
    }

    /// The records packed, in the order they were appended.
    public var records: PackedRecords { packed }
}
