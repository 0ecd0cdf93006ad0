import ChimeCore
import Foundation
import Testing

@Suite("Notification trigger")
struct NotificationTriggerTests {
    private func json(_ trigger: NotificationTrigger) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(trigger), as: UTF8.self)
    }

    private func decode(_ json: String) throws -> NotificationTrigger {
        try JSONDecoder().decode(NotificationTrigger.self, from: Data(json.utf8))
    }

    @Test func encodesAsOneFlatObjectNamedByType() throws {
        #expect(try json(.timeInterval(TimeIntervalTrigger(timeInterval: 540, repeats: false)))
            == #"{"repeats":false,"timeInterval":540,"type":"timeInterval"}"#)
        #expect(try json(.calendar(CalendarTrigger(dateMatching: DateComponents(hour: 7, minute: 30), repeats: true)))
            == #"{"dateComponents":{"hour":7,"minute":30},"repeats":true,"type":"calendar"}"#)
        #expect(try json(.push(PushTrigger())) == #"{"repeats":false,"type":"push"}"#)
    }

    @Test func roundTripsEveryKindThroughJSON() throws {
        let office = try CircularRegion(latitude: 37.5665, longitude: 126.978, radius: 150, identifier: "office")
        var pinned = DateComponents(hour: 9, weekday: 2)
        pinned.timeZone = TimeZone(identifier: "Asia/Seoul")
        let triggers: [NotificationTrigger] = [
            .timeInterval(try TimeIntervalTrigger(timeInterval: 3600, repeats: true)),
            .calendar(try CalendarTrigger(dateMatching: pinned, repeats: true)),
            .location(LocationTrigger(region: office, repeats: false)),
            .push(PushTrigger()),
        ]
        let data = try JSONEncoder().encode(triggers)
        #expect(try JSONDecoder().decode([NotificationTrigger].self, from: data) == triggers)
    }

    @Test func decodingRevalidatesTheTrigger() {
        let error = #expect(throws: ChimeError.self) {
            try decode(#"{"type":"timeInterval","timeInterval":30,"repeats":true}"#)
        }
        #expect(error?.code == .invalidTimeInterval)
    }

    @Test func aDecodedPushTriggerNeverRepeats() throws {
        #expect(try decode(#"{"type":"push","repeats":true}"#) == .push(PushTrigger()))
    }

    @Test(arguments: [#"{"type":"geofence"}"#, #"{"timeInterval":60,"repeats":true}"#])
    func decodingAnUnknownOrMissingTypeFails(json: String) {
        #expect(throws: DecodingError.self) { try decode(json) }
    }
}
