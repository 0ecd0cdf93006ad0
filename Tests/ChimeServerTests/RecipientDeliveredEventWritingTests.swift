@testable import ChimeAPI
import ChimeCore
import ChimeTesting
import Foundation
import Testing

/// A fire's event is written by hand for speed; its bytes must be `JSONEncoder`'s (`WireFormat`), and the
/// forms left to the encoder must still be written, by it.
@Suite("Server mode: writing a delivered event")
struct RecipientDeliveredEventWritingTests {
    static func expectEncodersBytes(_ event: RecipientDeliveredEvent, byHand: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let reference = Array(try WireFormat.encoder().encode(event))
        let hand = event.handWrittenJSON()
        guard (hand != nil) == byHand else {
            Issue.record("\(event.notification.identifier): expected \(byHand ? "" : "not ")to be written by hand", sourceLocation: sourceLocation)
            return false
        }
        guard try event.wireJSON() == reference, hand == nil || hand == reference else {
            Issue.record(
                "\(event.notification.identifier): written \(String(decoding: hand ?? [], as: UTF8.self))\nencoder \(String(decoding: reference, as: UTF8.self))",
                sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    static func event(_ request: NotificationRequest, date: Date = Date(timeIntervalSince1970: 1_765_000_123.25), scheduled: Date? = nil, language: String? = "ko") throws
        -> RecipientDeliveredEvent
    {
        RecipientDeliveredEvent(
            recipient: "minji", app: "com.example.shop/app", alerting: "normally",
            notification: try DeliveredNotification(request: request, date: date, scheduledDate: scheduled, isLate: scheduled != nil),
            text: DeliveredText(title: "주문", subtitle: "", body: "Line\nbreak \"quoted\" \\ / \u{1}", language: language))
    }

    @Test func leftToTheEncoderAreStillItsBytes() throws {
        var sound = NotificationContent(title: "Ring")
        sound.sound = .default
        var info = NotificationContent(title: "Info")
        info.userInfo = ["order": 42]
        var tiny = NotificationContent(title: "Tiny")
        tiny.relevanceScore = 0.00001
        var zoned = DateComponents(hour: 7)
        zoned.timeZone = TimeZone(identifier: "Asia/Seoul")
        let requests = [
            try NotificationRequest(identifier: "sound", content: sound, trigger: nil),
            try NotificationRequest(identifier: "info", content: info, trigger: nil),
            try NotificationRequest(identifier: "tiny", content: tiny, trigger: nil),
            try NotificationRequest(identifier: "zoned", content: NotificationContent(), trigger: .calendar(CalendarTrigger(dateMatching: zoned, repeats: true))),
            try NotificationRequest(identifier: "push", content: NotificationContent(), trigger: .push(PushTrigger())),
        ]
        for request in requests {
            _ = try Self.expectEncodersBytes(Self.event(request), byHand: false)
        }
        let actions = RecipientDeliveredEvent(
            recipient: "r", app: "a", alerting: "quietly",
            notification: try DeliveredNotification(
                request: NotificationRequest(identifier: "actions", content: NotificationContent(), trigger: nil), date: Date(timeIntervalSince1970: 1_765_000_000),
                actionsOverride: [NotificationAction(identifier: "like", title: "Like")]),
            text: DeliveredText(title: "", subtitle: "", body: "", language: nil))
        _ = try Self.expectEncodersBytes(actions, byHand: false)
    }

    /// 10,000 random events over every field the writer takes, each optional one present or not.
    @Test func randomEventsAreTheEncodersBytes() throws {
        var random = SeededGenerator(seed: 0xE7E2_7)
        var byHand = 0
        for index in 0..<10_000 {
            let (event, expected) = try Self.randomEvent(index, &random)
            guard try Self.expectEncodersBytes(event, byHand: expected) else { return }
            if expected { byHand += 1 }
        }
        #expect(byHand > 9_000, "\(byHand) of 10,000 written by hand")
    }

    /// A random event, and whether the writer must take it (every number in its range).
    static func randomEvent(_ index: Int, _ random: inout SeededGenerator) throws -> (RecipientDeliveredEvent, Bool) {
        func text() -> String { RandomRequestParts.text(using: &random) }
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        // Seconds as the engine makes them: whole, in milliseconds, or any fraction.
        func seconds() -> Double {
            let whole = Double(Int.random(in: 1_000_000_000...2_000_000_000, using: &random))
            switch Int.random(in: 0...2, using: &random) {
            case 0: return whole
            case 1: return whole + Double(Int.random(in: 1...999, using: &random)) / 1000
            default: return whole + Double.random(in: 0..<1, using: &random)
            }
        }

        let content = RandomRequestParts.content(relevanceScores: [0, 0.5, 1, 0.25, Double.random(in: 0.001...1, using: &random)], using: &random)

        let trigger: NotificationTrigger?
        switch Int.random(in: 0...2, using: &random) {
        case 0:
            trigger = nil
        case 1:
            let repeats = Bool.random(using: &random)
            let interval = repeats ? Double(Int.random(in: 60...1_000_000, using: &random)) : [0.5, 1, 7.25, Double.random(in: 0.001...1e9, using: &random)].randomElement(using: &random)!
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: repeats))
        default:
            let components = RandomRequestParts.dateComponents(using: &random)
            trigger = .calendar(try CalendarTrigger(dateMatching: components, repeats: Bool.random(using: &random)))
        }
        let request = try NotificationRequest(
            identifier: "e\(index)" + text(), content: content, trigger: trigger, misfirePolicy: MisfirePolicy.allCases.randomElement(using: &random)!)
        let date = seconds()
        let scheduled = maybe { date - Double(Int.random(in: 0...3_600, using: &random)) }
        let event = RecipientDeliveredEvent(
            recipient: "r" + text(), app: text(), alerting: ["nothing", "quietly", "normally", "breakingThroughFocus"].randomElement(using: &random)!,
            notification: try DeliveredNotification(
                request: request, date: Date(timeIntervalSince1970: date), scheduledDate: scheduled.map { Date(timeIntervalSince1970: $0) },
                isLate: scheduled != nil && Bool.random(using: &random)),
            text: DeliveredText(title: text(), subtitle: text(), body: text(), language: maybe { ["ko", "en", "Base"].randomElement(using: &random)! }))
        return (event, true)
    }
}
