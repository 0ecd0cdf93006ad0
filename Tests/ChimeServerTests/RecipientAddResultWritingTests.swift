import ChimeAPI
import Foundation
import Testing

/// An add's answer is written by hand for speed; its bytes must be `JSONEncoder`'s, whatever the strings
/// and dates.
@Suite("Server mode: writing an add's answer")
struct RecipientAddResultWritingTests {
    static func encoded(_ result: RecipientAddResult) throws -> String {
        String(decoding: try WireFormat.encoder().encode(result), as: UTF8.self)
    }

    static func written(_ result: RecipientAddResult) throws -> String {
        String(decoding: try result.wireJSON(), as: UTF8.self)
    }

    @Test func theAnswerIsTheEncodersBytes() throws {
        let now = Date().timeIntervalSince1970
        let dates: [Date?] = [
            nil, Date(timeIntervalSince1970: 1_765_000_000), Date(timeIntervalSince1970: now), Date(timeIntervalSince1970: 0.5),
            Date(timeIntervalSince1970: -86_400.25), Date(timeIntervalSince1970: 253_402_300_799), Date(timeIntervalSince1970: 0),
            Date(timeIntervalSince1970: -0.0), Date(timeIntervalSince1970: 1e-9), Date(timeIntervalSince1970: 1e17), Date(timeIntervalSince1970: 0.1 + 0.2),
        ]
        let strings = ["", "ana", "사용자 🍵", #"quote " backslash \ slash / "#, "\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}", "\u{2028}\u{2029}é"]
        var items: [RecipientAddedItem] = []
        for (index, date) in dates.enumerated() {
            for string in strings {
                items.append(RecipientAddedItem(recipient: string, app: "com.example.\(index)", identifier: string + "\(index)", nextFireDate: date))
            }
        }
        for item in items {
            let one = RecipientAddResult(added: [item])
            #expect(try Self.written(one) == Self.encoded(one))
        }
        let all = RecipientAddResult(added: items)
        #expect(try Self.written(all) == Self.encoded(all))
        #expect(try Self.written(RecipientAddResult(added: [])) == Self.encoded(RecipientAddResult(added: [])))
    }

    @Test func randomDatesAreWrittenAsTheEncoderWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let seconds = [
                Double.random(in: 1.7e9...1.9e9, using: &generator), Double.random(in: -1e12...1e12, using: &generator),
                Double(Int.random(in: -1_000_000_000_000...1_000_000_000_000, using: &generator)) / 1_000,
                Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)),
            ].randomElement(using: &generator)!
            let result = RecipientAddResult(added: [RecipientAddedItem(recipient: "r", app: "a", identifier: "i", nextFireDate: Date(timeIntervalSince1970: seconds))])
            let written = try? Self.written(result)
            let encoded = try? Self.encoded(result)
            #expect(written == encoded, "\(seconds)")
            if written != encoded { break }
        }
    }
}
