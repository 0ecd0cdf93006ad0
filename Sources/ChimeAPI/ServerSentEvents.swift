import Foundation

/// One Server-Sent Event, as the WHATWG HTML standard defines the stream
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html).
public struct ServerSentEvent: Sendable, Hashable {
    public var id: String?
    public var event: String
    public var data: String

    public init(id: String?, event: String, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }

    /// The event's bytes on the stream: `id:`, `event:`, one `data:` line per line of `data` (a line ends
    /// in LF, CRLF or CR, as readers split them), a blank line. Built byte by byte: a busy stream frames
    /// thousands of events a second.
    public var encoded: [UInt8] {
        let prefix: [UInt8] = Array("data: ".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + event.utf8.count + (id?.utf8.count ?? 0) + 32)
        if let id { bytes += Array("id: \(id)\n".utf8) }
        bytes += Array("event: \(event)\n".utf8)
        bytes += prefix
        var afterCR = false
        for byte in data.utf8 {
            switch byte {
            case 0x0A where afterCR:  // the LF of a CRLF: the line already ended
                afterCR = false
            case 0x0A, 0x0D:
                bytes.append(0x0A)
                bytes += prefix
                afterCR = byte == 0x0D
            default:
                bytes.append(byte)
                afterCR = false
            }
        }
        bytes += [0x0A, 0x0A]
        return bytes
    }

    /// A comment line, which clients ignore: keeps an idle stream's connection alive and shows a dead one.
    public static let heartbeat: [UInt8] = Array(": keep-alive\n\n".utf8)
}

/// Reads a `text/event-stream` byte by byte as the standard says: lines end in LF, CRLF or CR; `data` lines
/// join with LF; a blank line dispatches; `:` starts a comment; the last `id` seen is kept for reconnecting.
///
/// An event larger than `maximumEventSize` is an error: the stream is not one the client should trust.
public struct ServerSentEventParser: Sendable {
    public struct Oversized: Error, Sendable {}

    public let maximumEventSize: Int
    /// The last event id the stream set (what a reconnect sends as `Last-Event-ID`).
    public private(set) var lastEventID: String?
    private var line: [UInt8] = []
    private var afterCR = false
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var pendingID: String?

    public init(maximumEventSize: Int = 16 << 20) {
        self.maximumEventSize = maximumEventSize
    }

    /// The events completed by `bytes`.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(Oversized) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let event = try endOfLine() { events.append(event) }
            default:
                line.append(byte)
                guard line.count + data.count <= maximumEventSize else { throw Oversized() }
            }
        }
        return events
    }

    private mutating func endOfLine() throws(Oversized) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let name: [UInt8]
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = Array(line[..<colon])
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event": eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            guard data.count <= maximumEventSize else { throw Oversized() }
        case "id":
            if !value.contains(0) { pendingID = String(decoding: value, as: UTF8.self) }
        default: break  // `retry` and unknown fields: the client keeps its own reconnect policy
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        if let pendingID { lastEventID = pendingID }
        defer {
            eventType = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
            pendingID = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(id: lastEventID, event: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self))
    }
}
