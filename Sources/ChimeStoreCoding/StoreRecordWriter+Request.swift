import ChimeCore
import Foundation

/// A notification request written straight into a record, without its `encode(to:)`.
///
/// Every add stores a request, and writing one through the `Encoder` protocols costs
/// several microseconds of dynamic dispatch and generic metadata lookups — a sixth of a batch add's time
/// in server mode (BENCHMARKS.md). This writes the same bytes as the `Codable` path, key for key in the
/// same order: the synthesized `encode(to:)` of `NotificationRequest` and `NotificationContent` (optional
/// values absent when `nil`), `NotificationTrigger`'s flat object with its `type` first, and Foundation's
/// `DateComponents` keys. `StoreRecordRequestCodingTests` compares the two byte for byte.
///
/// It covers the forms nearly every request takes. A request with a sound, attachments, a location or
/// push trigger, or date components with a calendar, a zone, a day of the year or a leap month is left to
/// `encode(to:)`: `writeDirectly` then writes nothing and returns `false`.
extension StoreRecordWriter {
    func writeDirectly(_ request: NotificationRequest) -> Bool {
        let content = request.content
        guard content.sound == nil, content.attachments.isEmpty, Self.isWrittenDirectly(request.trigger) else { return false }

        let object = beginInlineContainer(.object)
        var count = 2
        writeKey("identifier")
        write(request.identifier)
        writeKey("content")
        write(content)
        if let trigger = request.trigger {
            writeKey("trigger")
            write(trigger)
            count += 1
        }
        writeKey("misfirePolicy")
        write(request.misfirePolicy.rawValue)
        endInlineContainer(object, count: count + 1)
        return true
    }

    private static func isWrittenDirectly(_ trigger: NotificationTrigger?) -> Bool {
        switch trigger {
        case nil, .timeInterval: true
        case .calendar(let trigger):
            trigger.dateComponents.calendar == nil && trigger.dateComponents.timeZone == nil && trigger.dateComponents.dayOfYear == nil
                && trigger.dateComponents.isLeapMonth == nil
        case .location, .push: false
        }
    }

    private func write(_ content: NotificationContent) {
        let object = beginInlineContainer(.object)
        var count = 0
        func entry(_ key: String, _ write: () -> Void) {
            writeKey(key)
            write()
            count += 1
        }
        entry("title") { write(content.title) }
        entry("subtitle") { write(content.subtitle) }
        entry("body") { write(content.body) }
        if let badge = content.badge { entry("badge") { writeSigned(Int64(badge)) } }
        entry("attachments") { endInlineContainer(beginInlineContainer(.array), count: 0) }
        entry("userInfo") { write(content.userInfo) }
        entry("categoryIdentifier") { write(content.categoryIdentifier) }
        entry("threadIdentifier") { write(content.threadIdentifier) }
        if let target = content.targetContentIdentifier { entry("targetContentIdentifier") { write(target) } }
        entry("interruptionLevel") { write(content.interruptionLevel.apnsName) }
        entry("relevanceScore") { write(content.relevanceScore) }
        if let criteria = content.filterCriteria { entry("filterCriteria") { write(criteria) } }
        entry("launchImageName") { write(content.launchImageName) }
        entry("summaryArgument") { write(content.summaryArgument) }
        entry("summaryArgumentCount") { writeSigned(Int64(content.summaryArgumentCount)) }
        endInlineContainer(object, count: count)
    }

    /// A literal is a string; a localized text an object with its key and, when there are any, its
    /// arguments.
    private func write(_ text: LocalizableText) {
        switch text {
        case .literal(let string):
            write(string)
        case .localized(let key, let arguments):
            let object = beginInlineContainer(.object)
            writeKey("key")
            write(key)
            if !arguments.isEmpty {
                writeKey("arguments")
                let array = beginInlineContainer(.array)
                for argument in arguments { write(argument) }
                endInlineContainer(array, count: arguments.count)
            }
            endInlineContainer(object, count: arguments.isEmpty ? 1 : 2)
        }
    }

    /// Only the kinds `isWrittenDirectly` accepts.
    private func write(_ trigger: NotificationTrigger) {
        let object = beginInlineContainer(.object)
        switch trigger {
        case .timeInterval(let trigger):
            writeKey("type")
            write("timeInterval")
            writeKey("timeInterval")
            write(trigger.timeInterval)
            writeKey("repeats")
            write(trigger.repeats)
            endInlineContainer(object, count: 3)
        case .calendar(let trigger):
            writeKey("type")
            write("calendar")
            writeKey("dateComponents")
            write(trigger.dateComponents)
            writeKey("repeats")
            write(trigger.repeats)
            endInlineContainer(object, count: 3)
        case .location, .push:
            preconditionFailure("a trigger kind left to encode(to:)")
        }
    }

    /// Foundation's keys in Foundation's order, each only when set.
    private func write(_ components: DateComponents) {
        let object = beginInlineContainer(.object)
        var count = 0
        func field(_ key: String, _ value: Int?) {
            guard let value else { return }
            writeKey(key)
            writeSigned(Int64(value))
            count += 1
        }
        field("era", components.era)
        field("year", components.year)
        field("month", components.month)
        field("day", components.day)
        field("hour", components.hour)
        field("minute", components.minute)
        field("second", components.second)
        field("nanosecond", components.nanosecond)
        field("weekday", components.weekday)
        field("weekdayOrdinal", components.weekdayOrdinal)
        field("quarter", components.quarter)
        field("weekOfMonth", components.weekOfMonth)
        field("weekOfYear", components.weekOfYear)
        field("yearForWeekOfYear", components.yearForWeekOfYear)
        endInlineContainer(object, count: count)
    }
}
