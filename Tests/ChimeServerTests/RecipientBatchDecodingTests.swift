import ChimeAPI
import ChimeCore
import Foundation
import Testing

/// A large batch is decoded in pieces on several cores; whatever the body, the outcome must be exactly the
/// one-piece decoder's: the same batch, or the same error.
@Suite("Server mode: decoding a batch in pieces")
struct RecipientBatchDecodingTests {
    struct Failure: Error, Equatable {
        let text: String
    }

    /// What `JSONDecoder` alone makes of the body: the batch, or its error's text.
    static func whole(_ body: [UInt8]) -> Result<RecipientBatch, Failure> {
        do { return .success(try WireFormat.decoder().decode(RecipientBatch.self, from: Data(body))) } catch { return .failure(Failure(text: "\(error)")) }
    }

    static func pieces(_ body: [UInt8]) -> Result<RecipientBatch, Failure> {
        do { return .success(try RecipientBatch.decode(json: body)) } catch { return .failure(Failure(text: "\(error)")) }
    }

    /// Requests of every kind a backend sends: literal and localized texts, both triggers, user info with
    /// strings that hold the separators the splitter looks for.
    static func requests(_ count: Int) throws -> [RecipientRequest] {
        try (0..<count).map { index in
            var content = NotificationContent(title: "Reminder \(index), [x] {y}", body: #"Say "hi", then \ and ] } ,"#)
            if index % 3 == 0 { content.subtitle = .localized(key: "SUB", arguments: ["a,b", "]"]) }
            if index % 5 == 0 { content.userInfo = ["order": .int(index), "tags": .array([.string("a,]"), .string("}")]), "ok": .bool(true)] }
            if index % 7 == 0 { content.badge = index }
            let trigger: NotificationTrigger =
                index % 2 == 0
                ? .calendar(try CalendarTrigger(dateMatching: DateComponents(hour: index % 24, minute: index % 60), repeats: true))
                : .timeInterval(try TimeIntervalTrigger(timeInterval: Double(60 + index), repeats: false))
            return RecipientRequest(
                recipient: "user-\(index % 97) 사용자", app: "com.example.app\(index % 4)",
                request: try NotificationRequest(identifier: "r\(index)", content: content, trigger: trigger))
        }
    }

    @Test(arguments: [1, 999, 1_000, 1_001, 4_321])
    func aBatchDecodesToWhatTheOnePieceDecoderMakes(count: Int) throws {
        let batch = RecipientBatch(notifications: try Self.requests(count))
        let compact = Array(try WireFormat.encoder().encode(batch))
        let pretty: [UInt8] = try {
            let encoder = WireFormat.encoder()
            encoder.outputFormatting.insert(.prettyPrinted)
            return Array(try encoder.encode(batch))
        }()
        for body in [compact, pretty, Array("\n\t ".utf8) + compact + Array(" \r\n".utf8)] {
            let decoded = try RecipientBatch.decode(json: body)
            // Compared as one Boolean: a failure would otherwise print thousands of requests twice.
            let same = decoded == batch
            #expect(same, "\(decoded.notifications.count) requests decoded of \(count), or in another order or form")
        }
    }

    /// Bodies that are not a valid batch, or are one in an unusual shape: the same answer as in one piece.
    @Test func anyBodyGetsTheOnePieceDecodersAnswer() throws {
        let good = Array(try WireFormat.encoder().encode(RecipientBatch(notifications: try Self.requests(1_500))))
        let text = String(decoding: good, as: UTF8.self)
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        var bodies: [String] = [
            text, String(text.dropLast()), String(text.dropFirst()), text + "x", text + "}",
            text.replacingOccurrences(of: #"{"notifications":["#, with: #"{"notifications":[1,"#),
            text.replacingOccurrences(of: #"{"notifications":["#, with: #"{"extra":true,"notifications":["#),
            text.replacingOccurrences(of: #"{"notifications":["#, with: #"{"notifications":[], "notifications":["#),
            text.replacingOccurrences(of: "]}", with: "],\"extra\":1}"),
            text.replacingOccurrences(of: "},{", with: "},,{"),
            text.replacingOccurrences(of: "r700\"", with: "r700\"]"),
            String(text[..<middle]) + "]}",
            String(text[..<middle]) + "\u{0}" + String(text[middle...]),
            text.replacingOccurrences(of: #""identifier":"r1200""#, with: #""identifier":12"#),
            text.replacingOccurrences(of: #""timeInterval":1061"#, with: #""timeInterval":-1"#),
            #"{"notifications":[]}"#, #"{"notifications":{}}"#, "[]", "", " ", "null",
        ]
        // Strings that never close, brackets that do not match, a lone backslash before the end.
        bodies += [#"{"notifications":[{"a":"]}"#, #"{"notifications":[{"a":[}]]}"#, #"{"notifications":[{"a":"\"#]
        for body in bodies {
            let bytes = Array(body.utf8)
            let same = Self.pieces(bytes) == Self.whole(bytes)
            #expect(same, "\(body.prefix(80))…")
        }
        // Bytes that are not UTF-8 inside one request.
        var broken = good
        broken[broken.count / 2] = 0xFF
        let same = Self.pieces(broken) == Self.whole(broken)
        #expect(same, "a byte that is not UTF-8")
    }
}
