import ChimeAPI
import Testing

/// The parser against the stream format as the WHATWG standard writes it, case by case from its rules
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    func parse(_ text: String, splitAt: Int? = nil) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        let bytes = Array(text.utf8)
        guard let splitAt else { return try parser.append(bytes) }
        return try parser.append(bytes[..<splitAt]) + parser.append(bytes[splitAt...])
    }

    @Test func dataLinesJoinWithLineFeedsAndABlankLineDispatches() throws {
        #expect(try parse("data: YHOO\ndata: +2\ndata: 10\n\n") == [ServerSentEvent(id: nil, event: "message", data: "YHOO\n+2\n10")])
    }

    @Test func linesEndInCRLFOrCROrLF() throws {
        let events = try parse("event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n")
        #expect(events.map(\.event) == ["a", "b", "message"])
        #expect(events.map(\.data) == ["1", "2", "3"])
    }

    @Test func aCRLFSplitBetweenChunksIsOneLineEnd() throws {
        let text = "data: x\r\n\r\ndata: y\r\n\r\n"
        for split in 1..<text.utf8.count {
            #expect(try parse(text, splitAt: split).map(\.data) == ["x", "y"], "split at \(split)")
        }
    }

    @Test func commentsAndUnknownFieldsAreIgnoredAndOnlyOneLeadingSpaceIsDropped() throws {
        let events = try parse(": keep-alive\n\nretry: 10\nfoo: bar\ndata:  two spaces\ndata\n\n")
        #expect(events == [ServerSentEvent(id: nil, event: "message", data: " two spaces\n")])
    }

    @Test func theLastIdIsKeptAcrossEventsAndAnIdWithNulIsIgnored() throws {
        var parser = ServerSentEventParser()
        let events = try parser.append(Array("id: 7\ndata: a\n\ndata: b\n\nid: 8\u{0}x\ndata: c\n\n".utf8))
        #expect(events.map(\.id) == ["7", "7", "7"])
        #expect(parser.lastEventID == "7")
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIdCounts() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.append(Array("id: 3\nevent: nothing\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "3")
    }

    @Test func anOversizedEventIsAnError() {
        var parser = ServerSentEventParser(maximumEventSize: 16)
        #expect(throws: ServerSentEventParser.Oversized.self) { try parser.append(Array("data: \(String(repeating: "x", count: 32))\n\n".utf8)) }
    }

    @Test func whatTheServerWritesReadsBack() throws {
        let event = ServerSentEvent(id: "e.1", event: "response", data: "{\"a\":1}\nsecond line")
        var parser = ServerSentEventParser()
        #expect(try parser.append(event.encoded) == [event])
        #expect(try parser.append(ServerSentEvent.heartbeat).isEmpty)
    }

    /// Data with CR or CRLF line ends cannot end the event early or smuggle a field in: each line is a
    /// `data:` line, read back joined by LF.
    @Test func everyKindOfLineEndInDataStaysData() throws {
        let event = ServerSentEvent(id: "7", event: "delivered", data: "one\r\nid: 99\rthree\n\nevent: reset")
        #expect(String(decoding: event.encoded, as: UTF8.self) == "id: 7\nevent: delivered\ndata: one\ndata: id: 99\ndata: three\ndata: \ndata: event: reset\n\n")
        var parser = ServerSentEventParser()
        #expect(try parser.append(event.encoded) == [ServerSentEvent(id: "7", event: "delivered", data: "one\nid: 99\nthree\n\nevent: reset")])
        #expect(parser.lastEventID == "7")
    }
}
