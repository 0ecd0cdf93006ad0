import ChimeCore
import Foundation

/// A notification request written straight into a record, without its `encode(to:)`.
///
/// Every add stores a request, and writing one through the `Encoder` protocols costs
/// several microseconds of dynamic dispatch and generic metadata lookups — a sixth of a batch add's time
/// in server mode (BENCHMARKS.md). In the wide form this writes the same bytes as the `Codable` path, key
/// for key in the same order: the synthesized `encode(to:)` of `NotificationRequest` and `NotificationContent` (optional
/// values absent when `nil`), `NotificationTrigger`'s flat object with its `type` first, and Foundation's
/// `DateComponents` keys. `StoreRecordRequestCodingTests` compares the two byte for byte.
///
/// In the compact form it also leaves out what `init(from:)` takes for an absent key — an empty subtitle,
/// no user info, the `active` level, a relevance of 0, the default misfire policy and the like — which is
/// most of a typical request's fields: those records are checked by reading them back through
/// `init(from:)` instead.
///
/// It covers the forms nearly every request takes. A request with attachments, a location or push
/// trigger, or date components with a calendar, a zone, a day of the year or a leap month is left to
/// `encode(to:)`: `writeDirectly` then writes nothing and returns `false`.
extension StoreRecordWriter {
    /// - Parameter includingIdentifier: `false` for a store that keeps the identifier beside the record
    ///   (`StoreRecord.encodeForKeyedRow(_:form:)`).
    func writeDirectly(_ request: NotificationRequest, includingIdentifier: Bool = true) -> Bool {
        let content = request.content
        guard Self.isWrittenDirectly(request) else { return false }

        let object = beginInlineContainer(.object)
        var count = 1
        if includingIdentifier {
            writeKey(.identifier)
            write(request.identifier)
            count += 1
        }
        writeKey(.content)
        write(content)
        if let trigger = request.trigger {
            writeKey(.trigger)
            write(trigger)
            count += 1
        }
        if !compact || request.misfirePolicy != .default {
            writeKey(.misfirePolicy)
            write(request.misfirePolicy.rawValue)
            count += 1
        }
        endInlineContainer(object, count: count)
        return true
    }

    /// A delivered notification, as every fire records one: in the wide form the bytes of its synthesized
    /// `encode(to:)` (the request, the date, the scheduled date when set, `isLate`, the actions override
    /// when set); in the compact form without `isLate` when it is false, which `init(from:)` takes for an
    /// absent key. One with an actions override, or whose request is left to `encode(to:)`, is left to
    /// `encode(to:)` whole: this writes nothing and returns `false`.
    func writeDirectly(_ delivered: DeliveredNotification) -> Bool {
        guard delivered.actionsOverride == nil, Self.isWrittenDirectly(delivered.request) else { return false }
        let object = beginInlineContainer(.object)
        var count = 2
        writeKey(.request)
        _ = writeDirectly(delivered.request)
        writeKey(.date)
        write(delivered.date.timeIntervalSinceReferenceDate)
        if let scheduledDate = delivered.scheduledDate {
            writeKey(.scheduledDate)
            write(scheduledDate.timeIntervalSinceReferenceDate)
            count += 1
        }
        if !compact || delivered.isLate {
            writeKey(.isLate)
            write(delivered.isLate)
            count += 1
        }
        endInlineContainer(object, count: count)
        return true
    }

    private static func isWrittenDirectly(_ request: NotificationRequest) -> Bool {
        request.content.attachments.isEmpty && isWrittenDirectly(request.trigger)
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
        /// Writes the entry, unless the compact form leaves it out because it holds the default.
        func entry(_ key: StoreRecordKnownKey, isDefault: Bool = false, _ write: () -> Void) {
            if compact && isDefault { return }
            writeKey(key)
            write()
            count += 1
        }
        entry(.title, isDefault: content.title == .empty) { write(content.title) }
        entry(.subtitle, isDefault: content.subtitle == .empty) { write(content.subtitle) }
        entry(.body, isDefault: content.body == .empty) { write(content.body) }
        if let badge = content.badge { entry(.badge) { writeSigned(Int64(badge)) } }
        if let sound = content.sound { entry(.sound) { write(sound) } }
        entry(.attachments, isDefault: true) { endInlineContainer(beginInlineContainer(.array), count: 0) }
        entry(.userInfo, isDefault: content.userInfo.isEmpty) { write(content.userInfo) }
        entry(.categoryIdentifier, isDefault: content.categoryIdentifier.isEmpty) { write(content.categoryIdentifier) }
        entry(.threadIdentifier, isDefault: content.threadIdentifier.isEmpty) { write(content.threadIdentifier) }
        if let target = content.targetContentIdentifier { entry(.targetContentIdentifier) { write(target) } }
        entry(.interruptionLevel, isDefault: content.interruptionLevel == .active) { write(content.interruptionLevel.apnsName) }
        // -0.0 is written: it is not the 0 an absent key gives.
        entry(.relevanceScore, isDefault: content.relevanceScore.bitPattern == 0) { write(content.relevanceScore) }
        if let criteria = content.filterCriteria { entry(.filterCriteria) { write(criteria) } }
        entry(.launchImageName, isDefault: content.launchImageName.isEmpty) { write(content.launchImageName) }
        entry(.summaryArgument, isDefault: content.summaryArgument.isEmpty) { write(content.summaryArgument) }
        entry(.summaryArgumentCount, isDefault: content.summaryArgumentCount == 0) { writeSigned(Int64(content.summaryArgumentCount)) }
        endInlineContainer(object, count: count)
    }

    /// Its kind's name, then the file name and the critical volume when it has them.
    private func write(_ sound: NotificationSound) {
        let object = beginInlineContainer(.object)
        writeKey(.kind)
        write(Self.kindName(sound.kind))
        var count = 1
        if let name = sound.name {
            writeKey(.name)
            write(name)
            count += 1
        }
        if let volume = sound.volume {
            writeKey(.volume)
            write(Double(volume))  // as the encoder writes a Float
            count += 1
        }
        endInlineContainer(object, count: count)
    }

    static func kindName(_ kind: NotificationSound.Kind) -> String {
        switch kind {
        case .default: "default"
        case .defaultRingtone: "defaultRingtone"
        case .named: "named"
        case .ringtone: "ringtone"
        case .defaultCritical: "defaultCritical"
        case .criticalNamed: "criticalNamed"
        }
    }

    /// A literal is a string; a localized text an object with its key and, when there are any, its
    /// arguments.
    private func write(_ text: LocalizableText) {
        switch text {
        case .literal(let string):
            write(string)
        case .localized(let key, let arguments):
            let object = beginInlineContainer(.object)
            writeKey(.key)
            write(key)
            if !arguments.isEmpty {
                writeKey(.arguments)
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
            writeKey(.type)
            write("timeInterval")
            writeKey(.timeInterval)
            write(trigger.timeInterval)
            writeKey(.repeats)
            write(trigger.repeats)
            endInlineContainer(object, count: 3)
        case .calendar(let trigger):
            writeKey(.type)
            write("calendar")
            writeKey(.dateComponents)
            write(trigger.dateComponents)
            writeKey(.repeats)
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
        func field(_ key: StoreRecordKnownKey, _ value: Int?) {
            guard let value else { return }
            writeKey(key)
            writeSigned(Int64(value))
            count += 1
        }
        field(.era, components.era)
        field(.year, components.year)
        field(.month, components.month)
        field(.day, components.day)
        field(.hour, components.hour)
        field(.minute, components.minute)
        field(.second, components.second)
        field(.nanosecond, components.nanosecond)
        field(.weekday, components.weekday)
        field(.weekdayOrdinal, components.weekdayOrdinal)
        field(.quarter, components.quarter)
        field(.weekOfMonth, components.weekOfMonth)
        field(.weekOfYear, components.weekOfYear)
        field(.yearForWeekOfYear, components.yearForWeekOfYear)
        endInlineContainer(object, count: count)
    }
}
