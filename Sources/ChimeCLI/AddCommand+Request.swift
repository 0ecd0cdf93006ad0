public import ChimeCore
public import Foundation

extension AddCommand {
    /// The request this command schedules, with `identifier` unless `--id` gave one.
    ///
    /// - Throws: `ChimeError` for content or a trigger the notification center would refuse (a payload
    ///   that is not valid APNs JSON, an attachment that is missing or of an unknown type, a repeating
    ///   interval under 60 s, a calendar component out of range), naming the field; nothing is scheduled.
    ///
    /// The `--payload` file is read with `UserFile`, which names a missing file, a folder or a FIFO as such.
    public func request(identifier generated: String) throws -> NotificationRequest {
        try request(identifier: generated) { try UserFile.read($0.path, field: "payload") }
    }

    /// The same, with `readFile` reading the `--payload` file (tests hand in the bytes).
    public func request(identifier generated: String, readFile: (URL) throws -> Data) throws -> NotificationRequest {
        var content: NotificationContent
        if let payloadPath {
            let data: Data
            do {
                data = try readFile(URL(fileURLWithPath: payloadPath))
            } catch let error as ChimeError {
                throw error
            } catch {
                throw ChimeError(.invalidPayload, field: "payload", "\(payloadPath) cannot be read: \(error.localizedDescription)")
            }
            content = try APNsPayload(jsonData: data).content
        } else {
            content = NotificationContent(title: .literal(title), subtitle: .literal(subtitle), body: .literal(body))
            content.badge = badge
            content.threadIdentifier = threadIdentifier
            content.categoryIdentifier = categoryIdentifier
            content.sound = try sound.map(Self.notificationSound)
            if let interruptionLevel { content.interruptionLevel = interruptionLevel }
            if case .critical = sound, interruptionLevel == nil { content.interruptionLevel = .critical }
            content.attachments = try attachmentPaths.map { path throws(ChimeError) in
                try NotificationAttachment(url: URL(fileURLWithPath: path))
            }
        }
        return try NotificationRequest(identifier: identifier ?? generated, content: content, trigger: try trigger())
    }

    /// The command with a local `--at` resolved to its instant at `now` in `zone`.
    ///
    /// - Throws: `UsageError` (exit 64) for a time that has passed or a date that does not exist.
    public func resolvingTimes(now: Date, zone: TimeZone) throws(UsageError) -> AddCommand {
        var resolved = self
        switch when {
        case .atLocal(let local):
            resolved.when = .at(try local.resolve(now: now, zone: zone, option: "--at", command: Self.name))
        case .at(let date) where date <= now:
            throw UsageError("--at: \(InstantFormat.iso8601(date, in: zone)) is in the past", command: Self.name)
        default:
            break
        }
        return resolved
    }

    private func trigger() throws(ChimeError) -> NotificationTrigger? {
        switch when {
        case .now:
            return nil
        case .after(let seconds, let repeats):
            return .timeInterval(try TimeIntervalTrigger(timeInterval: seconds, repeats: repeats))
        case .atLocal:
            preconditionFailure("a local --at is resolved (resolvingTimes(now:zone:)) before the request is made")
        case .at(let date):
            // Every component down to the second, pinned to UTC: that instant and no other.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            var components = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            components.timeZone = calendar.timeZone
            return .calendar(try CalendarTrigger(dateMatching: components, repeats: false))
        case .calendar(let components, let repeats):
            return .calendar(try CalendarTrigger(dateMatching: components, repeats: repeats))
        case .region(let region, let repeats):
            return .location(LocationTrigger(region: region, repeats: repeats))
        }
    }

    private static func notificationSound(_ sound: Sound) throws(ChimeError) -> NotificationSound {
        switch sound {
        case .default: return .default
        case .named(let name): return try NotificationSound(named: name)
        case .critical(nil, let volume): return try NotificationSound(.defaultCritical(volume: volume))
        case .critical(let name?, let volume): return try NotificationSound(.criticalNamed(name, volume: volume))
        }
    }
}
