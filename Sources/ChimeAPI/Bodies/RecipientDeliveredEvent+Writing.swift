import ChimeCore
import Foundation

extension RecipientDeliveredEvent {
    /// The event's JSON, the same bytes `WireFormat.encoder()` writes (keys sorted by their bytes, dates
    /// as seconds, slashes unescaped), written by hand: a node writes one event per fire inside the claim's
    /// transaction, and `JSONEncoder` was the largest single cost of a claim.
    ///
    /// The common forms are written here; an event with a sound, attachments, `userInfo`, actions of its
    /// own, a location or push trigger, date components with a calendar, a zone, a day of the year or a
    /// leap month, or a number whose text might differ from the encoder's is written by `JSONEncoder`.
    /// `RecipientDeliveredEventWritingTests` compares the two byte for byte.
    public func wireJSON() throws -> [UInt8] {
        if let bytes = handWrittenJSON() { return bytes }
        return Array(try WireFormat.encoder().encode(self))
    }

    /// The JSON written by hand, or `nil` for a form left to the encoder.
    func handWrittenJSON() -> [UInt8]? {
        var writer = WireJSONWriter()
        do {
            try write(into: &writer)
            return writer.bytes
        } catch {
            return nil
        }
    }

    private func write(into writer: inout WireJSONWriter) throws(WireJSONWriter.Declined) {
        writer.raw(#"{"alerting":"#)
        writer.string(alerting)
        writer.raw(#","app":"#)
        writer.string(app)
        writer.raw(#","notification":"#)
        try Self.write(notification, into: &writer)
        writer.raw(#","recipient":"#)
        writer.string(recipient)
        writer.raw(#","text":{"body":"#)
        writer.string(text.body)
        if let language = text.language {
            writer.raw(#","language":"#)
            writer.string(language)
        }
        writer.raw(#","subtitle":"#)
        writer.string(text.subtitle)
        writer.raw(#","title":"#)
        writer.string(text.title)
        writer.raw("}}")
    }

    private static func write(_ notification: DeliveredNotification, into writer: inout WireJSONWriter) throws(WireJSONWriter.Declined) {
        guard notification.actionsOverride == nil else { throw WireJSONWriter.Declined() }
        writer.raw(#"{"date":"#)
        try writer.number(notification.date.timeIntervalSince1970)
        writer.raw(#","isLate":"#)
        writer.raw(notification.isLate ? "true" : "false")
        writer.raw(#","request":"#)
        try write(notification.request, into: &writer)
        if let scheduled = notification.scheduledDate {
            writer.raw(#","scheduledDate":"#)
            try writer.number(scheduled.timeIntervalSince1970)
        }
        writer.raw("}")
    }

    private static func write(_ request: NotificationRequest, into writer: inout WireJSONWriter) throws(WireJSONWriter.Declined) {
        let content = request.content
        guard content.sound == nil, content.attachments.isEmpty, content.userInfo.isEmpty else { throw WireJSONWriter.Declined() }
        writer.raw(#"{"content":{"attachments":[]"#)
        if let badge = content.badge {
            writer.raw(#","badge":"#)
            writer.integer(badge)
        }
        writer.raw(#","body":"#)
        write(content.body, into: &writer)
        writer.raw(#","categoryIdentifier":"#)
        writer.string(content.categoryIdentifier)
        if let criteria = content.filterCriteria {
            writer.raw(#","filterCriteria":"#)
            writer.string(criteria)
        }
        writer.raw(#","interruptionLevel":"#)
        writer.string(content.interruptionLevel.apnsName)
        writer.raw(#","launchImageName":"#)
        writer.string(content.launchImageName)
        writer.raw(#","relevanceScore":"#)
        try writer.number(content.relevanceScore)
        writer.raw(#","subtitle":"#)
        write(content.subtitle, into: &writer)
        writer.raw(#","summaryArgument":"#)
        writer.string(content.summaryArgument)
        writer.raw(#","summaryArgumentCount":"#)
        writer.integer(content.summaryArgumentCount)
        if let target = content.targetContentIdentifier {
            writer.raw(#","targetContentIdentifier":"#)
            writer.string(target)
        }
        writer.raw(#","threadIdentifier":"#)
        writer.string(content.threadIdentifier)
        writer.raw(#","title":"#)
        write(content.title, into: &writer)
        writer.raw(#","userInfo":{}},"identifier":"#)
        writer.string(request.identifier)
        writer.raw(#","misfirePolicy":"#)
        writer.string(request.misfirePolicy.rawValue)
        if let trigger = request.trigger {
            writer.raw(#","trigger":"#)
            try write(trigger, into: &writer)
        }
        writer.raw("}")
    }

    /// A literal is a string; a localized text an object with its arguments (when there are any) and key.
    private static func write(_ text: LocalizableText, into writer: inout WireJSONWriter) {
        switch text {
        case .literal(let string):
            writer.string(string)
        case .localized(let key, let arguments):
            writer.raw("{")
            if !arguments.isEmpty {
                writer.raw(#""arguments":["#)
                for (index, argument) in arguments.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.string(argument)
                }
                writer.raw("],")
            }
            writer.raw(#""key":"#)
            writer.string(key)
            writer.raw("}")
        }
    }

    private static func write(_ trigger: NotificationTrigger, into writer: inout WireJSONWriter) throws(WireJSONWriter.Declined) {
        switch trigger {
        case .timeInterval(let trigger):
            writer.raw(#"{"repeats":"#)
            writer.raw(trigger.repeats ? "true" : "false")
            writer.raw(#","timeInterval":"#)
            try writer.number(trigger.timeInterval)
            writer.raw(#","type":"timeInterval"}"#)
        case .calendar(let trigger):
            let components = trigger.dateComponents
            guard components.calendar == nil, components.timeZone == nil, components.dayOfYear == nil, components.isLeapMonth == nil else {
                throw WireJSONWriter.Declined()
            }
            writer.raw(#"{"dateComponents":{"#)
            var first = true
            func field(_ key: StaticString, _ value: Int?) {
                guard let value else { return }
                writer.raw(first ? #"""# : #",""#)
                first = false
                writer.raw(key)
                writer.raw(#"":"#)
                writer.integer(value)
            }
            // Foundation's keys, sorted by their bytes as the encoder sorts them; no array built per event.
            field("day", components.day)
            field("era", components.era)
            field("hour", components.hour)
            field("minute", components.minute)
            field("month", components.month)
            field("nanosecond", components.nanosecond)
            field("quarter", components.quarter)
            field("second", components.second)
            field("weekOfMonth", components.weekOfMonth)
            field("weekOfYear", components.weekOfYear)
            field("weekday", components.weekday)
            field("weekdayOrdinal", components.weekdayOrdinal)
            field("year", components.year)
            field("yearForWeekOfYear", components.yearForWeekOfYear)
            writer.raw(#"},"repeats":"#)
            writer.raw(trigger.repeats ? "true" : "false")
            writer.raw(#","type":"calendar"}"#)
        case .location, .push:
            throw WireJSONWriter.Declined()
        }
    }
}
