import ChimeCore
import Foundation
import Testing

@Suite struct InterruptionLevelTests {
    @Test(arguments: [
        (InterruptionLevel.passive, 0, "passive"), (.active, 1, "active"),
        (.timeSensitive, 2, "time-sensitive"), (.critical, 3, "critical"),
    ])
    func hasApplesRawValueAndTheAPNsName(level: InterruptionLevel, raw: Int, name: String) {
        #expect(level.rawValue == raw)
        #expect(level.apnsName == name)
        #expect(InterruptionLevel(apnsName: name) == level)
        #expect(InterruptionLevel(rawValue: raw) == level)
    }

    @Test func unknownNamesAndRawValuesGiveNil() {
        #expect(InterruptionLevel(apnsName: "timeSensitive") == nil)
        #expect(InterruptionLevel(rawValue: 4) == nil)
    }

    @Test func defaultIsActive() {
        #expect(InterruptionLevel.default == .active)
    }

    @Test func levelsAreOrderedByUrgency() {
        #expect(InterruptionLevel.allCases.sorted() == [.passive, .active, .timeSensitive, .critical])
        #expect(InterruptionLevel.critical > .timeSensitive)
    }

    @Test func encodesAsTheAPNsName() throws {
        let data = try JSONEncoder().encode([InterruptionLevel.timeSensitive])
        #expect(String(decoding: data, as: UTF8.self) == #"["time-sensitive"]"#)
    }

    @Test func decodesTheAPNsNameOrTheRawValue() throws {
        let levels = try JSONDecoder().decode([InterruptionLevel].self, from: Data(#"["critical", 0]"#.utf8))
        #expect(levels == [.critical, .passive])
    }

    @Test(arguments: [#"["loud"]"#, "[7]", "[true]"])
    func decodingAnUnknownLevelFails(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([InterruptionLevel].self, from: Data(json.utf8))
        }
    }
}
