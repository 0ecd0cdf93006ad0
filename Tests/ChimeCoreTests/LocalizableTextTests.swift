import ChimeCore
import Foundation
import Testing

@Suite struct LocalizableTextTests {
    @Test func stringLiteralsAndInterpolationsAreLiterals() {
        let name = "Earl Grey"
        let plain: LocalizableText = "Tea is ready"
        let interpolated: LocalizableText = "\(name) is ready"
        #expect(plain == .literal("Tea is ready"))
        #expect(interpolated == .literal("Earl Grey is ready"))
    }

    @Test func accessorsExposeTheLiteralOrTheKeyAndArguments() {
        let literal = LocalizableText.literal("Hello")
        #expect(literal.literal == "Hello")
        #expect(literal.key == nil)
        #expect(literal.arguments == [])

        let localized = LocalizableText.localized(key: "GREETING", arguments: ["Ann"])
        #expect(localized.literal == nil)
        #expect(localized.key == "GREETING")
        #expect(localized.arguments == ["Ann"])
    }

    @Test func localizedArgumentsDefaultToNone() {
        #expect(LocalizableText.localized(key: "K") == .localized(key: "K", arguments: []))
    }

    @Test func onlyTheEmptyLiteralIsEmpty() {
        #expect(LocalizableText.empty.isEmpty)
        #expect(LocalizableText("").isEmpty)
        #expect(!LocalizableText.literal(" ").isEmpty)
        #expect(!LocalizableText.localized(key: "K").isEmpty)
    }

    @Test func encodesLiteralAsStringAndLocalizedAsObject() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json(_ text: LocalizableText) throws -> String {
            String(decoding: try encoder.encode(text), as: UTF8.self)
        }
        #expect(try json("Hi") == #""Hi""#)
        #expect(try json(.localized(key: "K", arguments: ["a", "b"])) == #"{"arguments":["a","b"],"key":"K"}"#)
        #expect(try json(.localized(key: "K")) == #"{"key":"K"}"#)
    }

    @Test(arguments: [
        LocalizableText.empty, "Hi", .localized(key: "K"), .localized(key: "K", arguments: ["1", "two"]),
    ])
    func roundTripsThroughJSON(text: LocalizableText) throws {
        let data = try JSONEncoder().encode(text)
        #expect(try JSONDecoder().decode(LocalizableText.self, from: data) == text)
    }

    @Test func decodingAnObjectWithoutKeyFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LocalizableText.self, from: Data(#"{"arguments":[]}"#.utf8))
        }
    }
}
