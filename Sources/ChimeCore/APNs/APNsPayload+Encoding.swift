public import Foundation

extension APNsPayload {
    /// Writes the payload as a compact APNs JSON body with its keys sorted, so equal payloads give
    /// equal bytes.
    ///
    /// Only what differs from the defaults is written: no `badge` when it is `nil`, no
    /// `interruption-level` when it is `.active`, no `relevance-score` when it is 0, and so on. The alert
    /// is a plain string when the content has nothing but a literal body, and a dictionary otherwise;
    /// the sound is a string unless it is critical. `userInfo` becomes the top-level keys beside `aps`.
    /// Attachments are left out (a notification service extension downloads them on the device).
    ///
    /// ```swift
    /// var content = NotificationContent(title: "New Photo", body: "Jane Doe posted a new photo")
    /// content.threadIdentifier = "thread-identifier"
    /// content.userInfo = ["photoID": 12]
    /// String(decoding: try APNsPayload(content: content).jsonData(), as: UTF8.self)
    /// // {"aps":{"alert":{"body":"Jane Doe posted a new photo","title":"New Photo"},"thread-id":"thread-identifier"},"photoID":12}
    /// ```
    ///
    /// - Throws: What `content.validate()` throws for invalid content (a negative badge, say).
    ///   `ChimeError.invalidPayload` when `userInfo` has a key named `aps` (field `"userInfo.aps"`), or
    ///   the sound has no APNs form: a ringtone, or a file named `default`, which APNs reads as the
    ///   system sound (field `"sound"`). `ChimeError.payloadTooLarge` when the body would be larger than
    ///   `maximumSize` bytes.
    public func jsonData() throws(ChimeError) -> Data {
        try content.validate()
        guard content.userInfo[APNsKey.aps] == nil else {
            throw ChimeError(.invalidPayload, field: "userInfo.\(APNsKey.aps)", "the key aps is reserved for the aps dictionary")
        }

        var aps: [String: JSONValue] = [:]
        aps[APNsKey.alert] = alertValue()
        aps[APNsKey.badge] = content.badge.map(JSONValue.int)
        aps[APNsKey.sound] = try content.sound.map { sound throws(ChimeError) in try Self.soundValue(sound) }
        aps[APNsKey.threadID] = Self.nonEmpty(content.threadIdentifier)
        aps[APNsKey.category] = Self.nonEmpty(content.categoryIdentifier)
        aps[APNsKey.contentAvailable] = contentAvailable ? 1 : nil
        aps[APNsKey.mutableContent] = mutableContent ? 1 : nil
        aps[APNsKey.targetContentID] = content.targetContentIdentifier.map(JSONValue.string)
        aps[APNsKey.interruptionLevel] = content.interruptionLevel == .default ? nil : .string(content.interruptionLevel.apnsName)
        aps[APNsKey.relevanceScore] = content.relevanceScore == 0 ? nil : .double(content.relevanceScore)
        aps[APNsKey.filterCriteria] = content.filterCriteria.map(JSONValue.string)

        var payload = content.userInfo
        payload[APNsKey.aps] = .object(aps)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(JSONValue.object(payload))
        } catch {
            // validate() has rejected the only values JSON cannot hold (non-finite numbers).
            throw ChimeError(.invalidPayload, "the payload cannot be written as JSON")
        }
        guard data.count <= Self.maximumSize else {
            throw ChimeError(.payloadTooLarge, "the payload is larger than the \(Self.maximumSize) bytes APNs accepts")
        }
        return data
    }

    /// The plain body string when that says everything, otherwise the alert dictionary; `nil` when the
    /// content has no alert at all.
    private func alertValue() -> JSONValue? {
        var alert: [String: JSONValue] = [:]
        Self.write(content.title, literal: APNsKey.title, key: APNsKey.titleLocKey, arguments: APNsKey.titleLocArgs, into: &alert)
        Self.write(
            content.subtitle, literal: APNsKey.subtitle, key: APNsKey.subtitleLocKey, arguments: APNsKey.subtitleLocArgs,
            into: &alert)
        Self.write(content.body, literal: APNsKey.body, key: APNsKey.locKey, arguments: APNsKey.locArgs, into: &alert)
        alert[APNsKey.launchImage] = Self.nonEmpty(content.launchImageName)
        alert[APNsKey.summaryArg] = Self.nonEmpty(content.summaryArgument)
        alert[APNsKey.summaryArgCount] = content.summaryArgumentCount == 0 ? nil : .int(content.summaryArgumentCount)

        if alert.count == 1, let body = alert[APNsKey.body] {
            return body
        }
        return alert.isEmpty ? nil : .object(alert)
    }

    private static func write(
        _ text: LocalizableText, literal: String, key: String, arguments: String, into alert: inout [String: JSONValue]
    ) {
        switch text {
        case .literal(let string):
            alert[literal] = nonEmpty(string)
        case .localized(let localizationKey, let localizationArguments):
            alert[key] = .string(localizationKey)
            alert[arguments] = localizationArguments.isEmpty ? nil : .array(localizationArguments.map(JSONValue.string))
        }
    }

    private static func soundValue(_ sound: NotificationSound) throws(ChimeError) -> JSONValue {
        switch sound.kind {
        case .default:
            return .string(APNsKey.defaultSoundName)
        case .named(let name):
            try checkNotDefault(name)
            return .string(name)
        case .defaultCritical(let volume):
            return criticalSound(name: APNsKey.defaultSoundName, volume: volume)
        case .criticalNamed(let name, let volume):
            try checkNotDefault(name)
            return criticalSound(name: name, volume: volume)
        case .defaultRingtone, .ringtone:
            throw ChimeError(.invalidPayload, field: "sound", "ringtone sounds have no APNs form")
        }
    }

    /// The volume is always written, although 1 is the default, so a device never has to guess.
    private static func criticalSound(name: String, volume: Float) -> JSONValue {
        // Through the Float's shortest decimal form, so 0.8 is written as 0.8, not 0.800000011920929,
        // and reads back as the same Float.
        let written = Double("\(volume)") ?? Double(volume)
        return .object([APNsKey.critical: 1, APNsKey.name: .string(name), APNsKey.volume: .double(written)])
    }

    private static func checkNotDefault(_ name: String) throws(ChimeError) {
        guard name != APNsKey.defaultSoundName else {
            throw ChimeError(.invalidPayload, field: "sound", "a sound file named default would play the system sound")
        }
    }

    private static func nonEmpty(_ string: String) -> JSONValue? {
        string.isEmpty ? nil : .string(string)
    }
}
