@testable import ChimeAPI
import ChimeCore
import Foundation
import Testing

/// The hand-written reader of a batch's requests must give what `JSONDecoder` gives, or decline; and it
/// must take the forms backends send, or it would not be faster.
@Suite("Server mode: reading a request without JSONDecoder")
struct RecipientRequestReadingTests {
    enum Outcome: Equatable {
        case declined
        /// The request, as `WireFormat.encoder()` writes it: compares every field, the sign of a zero too.
        case read(String)
        case failed
    }

    static func reader(_ text: String) -> Outcome {
        reader(Array(text.utf8))
    }

    static func reader(_ bytes: [UInt8]) -> Outcome {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = WireJSONReader(buffer)
            guard let request = try? RecipientRequest.read(from: &reader), reader.isAtEnd() else { return .declined }
            return encoded(request)
        }
    }

    static func decoder(_ bytes: [UInt8]) -> Outcome {
        guard let request = try? WireFormat.decoder().decode(RecipientRequest.self, from: Data(bytes)) else { return .failed }
        return encoded(request)
    }

    static func encoded(_ request: RecipientRequest) -> Outcome {
        (try? WireFormat.encoder().encode(request)).map { .read(String(decoding: $0, as: UTF8.self)) } ?? .failed
    }

    /// Agreement on one text: the reader declined, or read what the decoder decodes.
    static func agrees(_ bytes: [UInt8]) -> Bool {
        let read = reader(bytes)
        return read == .declined || read == decoder(bytes)
    }

    static func request(_ requestJSON: String) -> String {
        #"{"recipient":"ana","app":"com.example.app","request":\#(requestJSON)}"#
    }

    static func typical() throws -> [RecipientRequest] {
        var requests: [RecipientRequest] = []
        let triggers: [NotificationTrigger?] = [
            nil,
            .calendar(try CalendarTrigger(dateMatching: DateComponents(hour: 8, minute: 30), repeats: true)),
            .calendar(try CalendarTrigger(dateMatching: DateComponents(year: 2027, month: 2, day: 28, hour: 23, minute: 59, second: 59), repeats: false)),
            .calendar(try CalendarTrigger(dateMatching: DateComponents(weekday: 2, weekdayOrdinal: -1), repeats: true)),
            .timeInterval(try TimeIntervalTrigger(timeInterval: 60, repeats: true)),
            .timeInterval(try TimeIntervalTrigger(timeInterval: 0.25, repeats: false)),
        ]
        for (index, trigger) in triggers.enumerated() {
            var content = NotificationContent(title: "Tea \(index) 차 \"hot\" \\ / é 🍵", body: "Line one\nline two\ttabbed")
            content.threadIdentifier = "kitchen"
            content.categoryIdentifier = index % 2 == 0 ? "TEA" : ""
            content.badge = index % 3 == 0 ? nil : index
            content.interruptionLevel = [.passive, .active, .timeSensitive, .critical][index % 4]
            content.relevanceScore = Double(index) / 7
            content.summaryArgument = index == 1 ? "Ana" : ""
            content.summaryArgumentCount = index
            content.targetContentIdentifier = index == 2 ? "window-2" : nil
            content.filterCriteria = index == 3 ? "work" : nil
            requests.append(
                RecipientRequest(
                    recipient: "user-\(index)", app: "com.example.app",
                    request: try NotificationRequest(identifier: "r\(index)", content: content, trigger: trigger, misfirePolicy: index == 4 ? .skip : .deliverLate)))
        }
        return requests
    }

    @Test func theFormsBackendsSendAreReadAsTheDecoderReadsThem() throws {
        for request in try Self.typical() {
            let compact = try WireFormat.encoder().encode(request)
            let pretty: Data = try {
                let encoder = WireFormat.encoder()
                encoder.outputFormatting.insert(.prettyPrinted)
                return try encoder.encode(request)
            }()
            for body in [compact, pretty] {
                let text = String(decoding: body, as: UTF8.self)
                #expect(Self.reader(text) == Self.encoded(request), "\(text)")
            }
        }
        // Written by hand: absent and null keys take their defaults, unknown keys are skipped, escapes read.
        let handWritten = [
            Self.request(#"{"identifier":"a"}"#),
            Self.request(#"{"identifier":"a","content":null,"trigger":null,"misfirePolicy":null}"#),
            Self.request(#"{"identifier":"a","content":{"title":null,"badge":null,"sound":null,"attachments":null,"userInfo":null,"relevanceScore":null}}"#),
            Self.request(#"{"identifier":"a","content":{"title":"\u00e9\ud83c\udf75\/\b\f\n\r\t\"\\","attachments":[],"userInfo":{}},"extra":[1,{"x":[true,false,null,-0.5e-3]}]}"#),
            Self.request(#"{"identifier":"a","content":{"interruptionLevel":2,"relevanceScore":1}}"#),
            Self.request(#"{"identifier":"a","content":{"relevanceScore":-0}}"#),
            Self.request(#"{"identifier":"a","trigger":{"type":"calendar","repeats":false,"dateComponents":{"dayOfYear":40,"isLeapMonth":false,"timeZone":null,"hour":1}}}"#),
            Self.request(#"{"identifier":"a","trigger":{"type":"timeInterval","repeats":false,"timeInterval":1.5e2,"dateComponents":{"hour":1}}}"#),
            " \n\t" + Self.request(#" { "identifier" : "a" , "content" : { "title" : "t" } } "#) + " \r\n",
        ]
        for text in handWritten {
            let read = Self.reader(text)
            #expect(read != .declined, "\(text)")
            #expect(read == Self.decoder(Array(text.utf8)), "\(text)")
        }
    }

    /// Texts on the edges of what the reader takes: each is declined, or read as the decoder reads it.
    @Test func unusualTextsAreReadAsTheDecoderReadsThemOrDeclined() {
        let requests = [
            // Numbers the decoder converts, rounds or refuses.
            #"{"identifier":"a","content":{"badge":1.0}}"#, #"{"identifier":"a","content":{"badge":1e2}}"#,
            #"{"identifier":"a","content":{"badge":-1}}"#, #"{"identifier":"a","content":{"badge":9223372036854775807}}"#,
            #"{"identifier":"a","content":{"badge":9223372036854775808}}"#, #"{"identifier":"a","content":{"badge":-9223372036854775808}}"#,
            #"{"identifier":"a","content":{"badge":01}}"#, #"{"identifier":"a","content":{"badge":+1}}"#, #"{"identifier":"a","content":{"badge":"1"}}"#,
            #"{"identifier":"a","content":{"relevanceScore":0.30000000000000004}}"#, #"{"identifier":"a","content":{"relevanceScore":1e-400}}"#,
            #"{"identifier":"a","content":{"relevanceScore":1.5}}"#, #"{"identifier":"a","content":{"relevanceScore":1e400}}"#,
            #"{"identifier":"a","content":{"relevanceScore":NaN}}"#, #"{"identifier":"a","content":{"relevanceScore":.5}}"#,
            #"{"identifier":"a","content":{"relevanceScore":5.}}"#, #"{"identifier":"a","content":{"relevanceScore":0.2e}}"#,
            #"{"identifier":"a","trigger":{"type":"timeInterval","repeats":false,"timeInterval":0.1}}"#,
            #"{"identifier":"a","trigger":{"type":"timeInterval","repeats":false,"timeInterval":1e20}}"#,
            #"{"identifier":"a","trigger":{"type":"timeInterval","repeats":true,"timeInterval":30}}"#,
            // Strings.
            #"{"identifier":"\ud800"}"#, #"{"identifier":"\udc00\ud800"}"#, #"{"identifier":"\ud83c"}"#, #"{"identifier":"\u0000"}"#,
            #"{"identifier":"\x"}"#, #"{"identifier":"\u12"}"#, "{\"identifier\":\"a\u{1}\"}", "{\"identifier\":\"\u{7F}\"}",
            #"{"identifier":""}"#, #"{"identifier":null}"#, #"{"identifier":1}"#, #"{}"#,
            // Structure.
            #"{"identifier":"a",}"#, #"{"identifier":"a" "content":{}}"#, #"{"identifier":"a","identifier":"b"}"#,
            #"{"identifier":"a","content":{"title":"x","title":"y"}}"#, #"{"identifier":"a"}}"#, #"{"identifier":"a"/*c*/}"#,
            #"{'identifier':'a'}"#, #"{"identifier":"a","x":[1,]}"#, #"{"identifier":"a","x":tru}"#, #"{"identifier":"a","x":nul}"#,
            #"{"identifier":"a","x":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
            // Values of another type or outside the rules.
            #"{"identifier":"a","content":{"title":{"key":"K","arguments":["x"]}}}"#, #"{"identifier":"a","content":{"title":{"key":""}}}"#,
            #"{"identifier":"a","content":{"sound":"default"}}"#, #"{"identifier":"a","content":{"userInfo":{"k":2.0}}}"#,
            #"{"identifier":"a","content":{"attachments":[{}]}}"#, #"{"identifier":"a","content":{"interruptionLevel":"loud"}}"#,
            #"{"identifier":"a","content":{"interruptionLevel":9}}"#, #"{"identifier":"a","content":{"interruptionLevel":"time-sensitive"}}"#,
            #"{"identifier":"a","content":{"summaryArgumentCount":-1}}"#, #"{"identifier":"a","misfirePolicy":"never"}"#,
            #"{"identifier":"a","misfirePolicy":"skip"}"#, #"{"identifier":"a","trigger":{"type":"push","repeats":false}}"#,
            #"{"identifier":"a","trigger":{"type":"calendar","repeats":true,"dateComponents":{}}}"#,
            #"{"identifier":"a","trigger":{"type":"calendar","repeats":true,"dateComponents":{"month":2,"day":30}}}"#,
            #"{"identifier":"a","trigger":{"type":"calendar","repeats":true,"dateComponents":{"hour":7,"timeZone":{"identifier":"Asia/Seoul"}}}}"#,
            #"{"identifier":"a","trigger":{"type":"calendar","repeats":null,"dateComponents":{"hour":7}}}"#,
            #"{"identifier":"a","trigger":{"type":"calendar","dateComponents":{"hour":7}}}"#,
            #"{"identifier":"a","trigger":{"repeats":true,"dateComponents":{"hour":7}}}"#,
        ]
        var texts = requests.map(Self.request)
        texts += [#"{"recipient":"ana","request":{"identifier":"a"}}"#, #"{"recipient":1,"app":"x","request":{"identifier":"a"}}"#, "[]", "", "null"]
        for text in texts {
            #expect(Self.agrees(Array(text.utf8)), "\(text)")
        }
        // Bytes that are not UTF-8, in a string and outside one.
        for broken in [Array(Self.request(#"{"identifier":"a"#).utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), Array(#"{"#.utf8) + [0xFF] + Array("}".utf8)] {
            #expect(Self.agrees(broken))
        }
    }

    /// Numbers with many digits and exponents round to the same `Double` as in the decoder.
    @Test func numbersRoundAsTheDecoderRoundsThem() {
        var generator = SplitMix64(seed: 0xD1_6175)
        func digits(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &generator)).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
        }
        var read = 0
        for _ in 0..<5_000 {
            let exponent = Bool.random(using: &generator) ? "e\(["", "+", "-"].randomElement(using: &generator)!)\(Int.random(in: 0...330, using: &generator))" : ""
            let number = "\(Int.random(in: 1...9, using: &generator))\(digits(0...20)).\(digits(1...25))\(exponent)"
            for text in [
                Self.request(#"{"identifier":"a","content":{"relevanceScore":0.\#(digits(1...30))}}"#),
                Self.request(#"{"identifier":"a","trigger":{"type":"timeInterval","repeats":false,"timeInterval":\#(number)}}"#),
            ] {
                #expect(Self.agrees(Array(text.utf8)), "\(text)")
                if Self.reader(text) != .declined { read += 1 }
            }
        }
        #expect(read > 5_000, "most of them are read (\(read))")
    }

    /// Random damage to real requests: whatever the bytes become, the reader agrees or declines.
    @Test func damagedRequestsAreReadAsTheDecoderReadsThemOrDeclined() throws {
        var generator = SplitMix64(seed: 0x5EED)
        let originals = try Self.typical().map { Array(try WireFormat.encoder().encode($0)) }
        let alphabet = Array(#"{}[],:"\0123456789.eE+-tfnulr aé"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
        var read = 0
        for round in 0..<20_000 {
            var bytes = originals[round % originals.count]
            for _ in 0...Int(generator.next() % 3) {
                let position = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            let same = Self.agrees(bytes)
            #expect(same, "\(String(decoding: bytes, as: UTF8.self))")
            if !same { break }
            if Self.reader(bytes) != .declined { read += 1 }
        }
        #expect(read > 1_000, "some damaged texts are still requests the reader takes (\(read))")
    }
}

/// A small seeded generator, so a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
