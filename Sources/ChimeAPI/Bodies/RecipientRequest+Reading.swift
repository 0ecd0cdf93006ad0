import ChimeCore
import Foundation

// Hand-written readers of a batch's requests in their common forms, each giving exactly what
// `JSONDecoder` gives through the types' `init(from:)` — the same keys, the same defaults for absent and
// null values, the same validating initializers — or declining (`WireJSONReader.Declined`), after which
// `JSONDecoder` decodes the request. They decline whatever they do not need to take to be fast: localized
// texts, sounds, attachments, a non-empty `userInfo`, location and push triggers, calendars and zones in
// date components, and any value not of the expected JSON type (where `JSONDecoder` might convert it).

typealias Declined = WireJSONReader.Declined

extension RecipientRequest {
    static func read(from reader: inout WireJSONReader) throws(Declined) -> RecipientRequest {
        var recipient: String?
        var app: String?
        var request: NotificationRequest?
        try reader.readObject { reader, key throws(Declined) in
            switch key {
            case "recipient": recipient = try reader.readString()
            case "app": app = try reader.readString()
            case "request": request = try NotificationRequest.read(from: &reader)
            default: try reader.skipValue()
            }
        }
        guard let recipient, let app, let request else { throw Declined() }
        return RecipientRequest(recipient: recipient, app: app, request: request)
    }
}

extension NotificationRequest {
    static func read(from reader: inout WireJSONReader) throws(Declined) -> NotificationRequest {
        var identifier: String?
        var content = NotificationContent()
        var trigger: NotificationTrigger?
        var misfirePolicy = MisfirePolicy.default
        try reader.readObject { reader, key throws(Declined) in
            switch key {
            case "identifier": identifier = try reader.readString()
            case "content": if try !reader.readNull() { content = try NotificationContent.read(from: &reader) }
            case "trigger": if try !reader.readNull() { trigger = try NotificationTrigger.read(from: &reader) }
            case "misfirePolicy":
                if try !reader.readNull() {
                    guard let policy = MisfirePolicy(rawValue: try reader.readString()) else { throw Declined() }
                    misfirePolicy = policy
                }
            default: try reader.skipValue()
            }
        }
        guard let identifier else { throw Declined() }
        do {
            return try NotificationRequest(identifier: identifier, content: content, trigger: trigger, misfirePolicy: misfirePolicy)
        } catch {
            throw Declined()
        }
    }
}

extension NotificationContent {
    static func read(from reader: inout WireJSONReader) throws(Declined) -> NotificationContent {
        var content = NotificationContent()
        try reader.readObject { reader, key throws(Declined) in
            // Every key is optional and null means absent, as `decodeIfPresent` has it.
            if try reader.readNull() { return }
            switch key {
            case "title": content.title = .literal(try reader.readString())
            case "subtitle": content.subtitle = .literal(try reader.readString())
            case "body": content.body = .literal(try reader.readString())
            case "badge": content.badge = try reader.readInt()
            case "attachments": try reader.readEmptyArray()
            case "userInfo": try reader.readEmptyObject()
            case "categoryIdentifier": content.categoryIdentifier = try reader.readString()
            case "threadIdentifier": content.threadIdentifier = try reader.readString()
            case "targetContentIdentifier": content.targetContentIdentifier = try reader.readString()
            case "interruptionLevel": content.interruptionLevel = try InterruptionLevel.read(from: &reader)
            case "relevanceScore": content.relevanceScore = try reader.readDouble()
            case "filterCriteria": content.filterCriteria = try reader.readString()
            case "launchImageName": content.launchImageName = try reader.readString()
            case "summaryArgument": content.summaryArgument = try reader.readString()
            case "summaryArgumentCount": content.summaryArgumentCount = try reader.readInt()
            case "sound": throw Declined()
            default: try reader.skipValue()
            }
        }
        do {
            try content.validate()
        } catch {
            throw Declined()
        }
        return content
    }
}

extension InterruptionLevel {
    /// Its APNs name (`"time-sensitive"`) or its number.
    static func read(from reader: inout WireJSONReader) throws(Declined) -> InterruptionLevel {
        let level = reader.nextIsString() ? InterruptionLevel(apnsName: try reader.readString()) : InterruptionLevel(rawValue: try reader.readInt())
        guard let level else { throw Declined() }
        return level
    }
}

extension NotificationTrigger {
    /// A time interval or calendar trigger: `type` and that trigger's keys in one object.
    static func read(from reader: inout WireJSONReader) throws(Declined) -> NotificationTrigger {
        var type: String?
        var timeInterval: Double?
        var repeats: Bool?
        var dateComponents: DateComponents?
        try reader.readObject { reader, key throws(Declined) in
            switch key {
            case "type": type = try reader.readString()
            case "timeInterval": timeInterval = try reader.readDouble()
            case "repeats": repeats = try reader.readBool()
            case "dateComponents": dateComponents = try DateComponents.read(from: &reader)
            default: try reader.skipValue()
            }
        }
        guard let repeats else { throw Declined() }
        do {
            switch type {
            case "timeInterval":
                guard let timeInterval else { throw Declined() }
                return .timeInterval(try TimeIntervalTrigger(timeInterval: timeInterval, repeats: repeats))
            case "calendar":
                guard let dateComponents else { throw Declined() }
                return .calendar(try CalendarTrigger(dateMatching: dateComponents, repeats: repeats))
            default:
                throw Declined()
            }
        } catch {
            throw Declined()
        }
    }
}

extension DateComponents {
    /// Foundation's keys for the numbered components and `isLeapMonth`; a calendar or zone declines.
    static func read(from reader: inout WireJSONReader) throws(Declined) -> DateComponents {
        var components = DateComponents()
        try reader.readObject { reader, key throws(Declined) in
            if try reader.readNull() { return }
            switch key {
            case "era": components.era = try reader.readInt()
            case "year": components.year = try reader.readInt()
            case "month": components.month = try reader.readInt()
            case "day": components.day = try reader.readInt()
            case "hour": components.hour = try reader.readInt()
            case "minute": components.minute = try reader.readInt()
            case "second": components.second = try reader.readInt()
            case "nanosecond": components.nanosecond = try reader.readInt()
            case "weekday": components.weekday = try reader.readInt()
            case "weekdayOrdinal": components.weekdayOrdinal = try reader.readInt()
            case "quarter": components.quarter = try reader.readInt()
            case "weekOfMonth": components.weekOfMonth = try reader.readInt()
            case "weekOfYear": components.weekOfYear = try reader.readInt()
            case "yearForWeekOfYear": components.yearForWeekOfYear = try reader.readInt()
            case "dayOfYear": components.dayOfYear = try reader.readInt()
            case "isLeapMonth": components.isLeapMonth = try reader.readBool()
            case "calendar", "timeZone": throw Declined()
            default: try reader.skipValue()
            }
        }
        return components
    }
}
