public import Foundation

extension APNsPayload {
    /// Reads an APNs JSON body.
    ///
    /// Every key of the `aps` dictionary that Chime models is checked for its type and range; the first
    /// problem found is thrown, and nothing of the body is kept. See `APNsPayload` for how keys map to
    /// `NotificationContent` and which keys are ignored.
    ///
    /// ```swift
    /// let body = #"{"aps":{"sound":{"critical":1,"name":"warning-sound.aiff","volume":1.0}}}"#
    /// let payload = try APNsPayload(jsonData: Data(body.utf8))
    /// payload.content.sound  // .criticalNamed("warning-sound.aiff", volume: 1)
    ///
    /// try APNsPayload(jsonData: Data(#"{"aps":{"badge":"3"}}"#.utf8))
    /// // ChimeError.invalidPayload (aps.badge): must be an integer of 0 or more
    /// ```
    ///
    /// - Parameter jsonData: The body exactly as APNs would receive it, UTF-8 JSON.
    /// - Throws: `ChimeError.payloadTooLarge` when `jsonData` is larger than `maximumSize` bytes.
    ///   `ChimeError.invalidPayload` when it is not strict JSON, not an object, has no `aps` dictionary,
    ///   or a known key has the wrong type or a value out of range; `field` is the key path, such as
    ///   `"aps.alert.title"`.
    public init(jsonData: Data) throws(ChimeError) {
        guard jsonData.count <= Self.maximumSize else {
            throw ChimeError(.payloadTooLarge, "the payload is larger than the \(Self.maximumSize) bytes APNs accepts")
        }
        guard case .object(var members) = try StrictJSONParser.parse(Array(jsonData)) else {
            throw ChimeError(.invalidPayload, "the payload must be a JSON object")
        }
        guard let apsValue = members.removeValue(forKey: APNsKey.aps) else {
            throw ChimeError(.invalidPayload, field: APNsKey.aps, "the payload has no aps dictionary")
        }
        let aps = try PayloadDictionary(apsValue, path: APNsKey.aps)

        var content = NotificationContent(userInfo: members)
        try Self.readAlert(of: aps, into: &content)
        content.badge = try aps.integer(APNsKey.badge)
        content.sound = try Self.readSound(of: aps)
        content.threadIdentifier = try aps.string(APNsKey.threadID) ?? ""
        content.categoryIdentifier = try aps.string(APNsKey.category) ?? ""
        content.targetContentIdentifier = try aps.string(APNsKey.targetContentID)
        content.interruptionLevel = try Self.readInterruptionLevel(of: aps)
        content.relevanceScore = try aps.fraction(APNsKey.relevanceScore) ?? 0
        content.filterCriteria = try aps.string(APNsKey.filterCriteria)

        self.init(
            content: content,
            contentAvailable: try aps.flag(APNsKey.contentAvailable) ?? false,
            mutableContent: try aps.flag(APNsKey.mutableContent) ?? false)
    }

    private static func readAlert(of aps: PayloadDictionary, into content: inout NotificationContent) throws(ChimeError) {
        switch aps.members[APNsKey.alert] {
        case nil:
            return
        case .string(let body):
            content.body = .literal(body)
        case .object(let members):
            let alert = PayloadDictionary(members: members, path: aps.path(APNsKey.alert))
            content.title = try readText(
                of: alert, literal: APNsKey.title, key: APNsKey.titleLocKey, arguments: APNsKey.titleLocArgs)
            content.subtitle = try readText(
                of: alert, literal: APNsKey.subtitle, key: APNsKey.subtitleLocKey, arguments: APNsKey.subtitleLocArgs)
            content.body = try readText(of: alert, literal: APNsKey.body, key: APNsKey.locKey, arguments: APNsKey.locArgs)
            content.launchImageName = try alert.string(APNsKey.launchImage) ?? ""
            content.summaryArgument = try alert.string(APNsKey.summaryArg) ?? ""
            content.summaryArgumentCount = try alert.integer(APNsKey.summaryArgCount) ?? 0
        default:
            throw ChimeError(.invalidPayload, field: aps.path(APNsKey.alert), "must be a string or a dictionary")
        }
    }

    /// A localization key, when present, wins over the literal; its arguments are ignored without it.
    private static func readText(
        of alert: PayloadDictionary, literal: String, key: String, arguments: String
    ) throws(ChimeError) -> LocalizableText {
        let text = try alert.string(literal)
        let localizationKey = try alert.string(key)
        let localizationArguments = try alert.strings(arguments)
        guard let localizationKey else {
            return text.map(LocalizableText.literal) ?? .empty
        }
        guard !localizationKey.isEmpty else {
            throw ChimeError(.invalidPayload, field: alert.path(key), "a localization key must not be empty")
        }
        return .localized(key: localizationKey, arguments: localizationArguments ?? [])
    }

    private static func readSound(of aps: PayloadDictionary) throws(ChimeError) -> NotificationSound? {
        let field = aps.path(APNsKey.sound)
        switch aps.members[APNsKey.sound] {
        case nil:
            return nil
        case .string(let name):
            return try sound(name == APNsKey.defaultSoundName ? .default : .named(name), field: field)
        case .object(let members):
            let sound = PayloadDictionary(members: members, path: field)
            let isCritical = try sound.flag(APNsKey.critical) ?? false
            guard let name = try sound.string(APNsKey.name) else {
                throw ChimeError(.invalidPayload, field: sound.path(APNsKey.name), "a sound dictionary needs a name")
            }
            let volume = Float(try sound.fraction(APNsKey.volume) ?? 1)
            let kind: NotificationSound.Kind = switch (isCritical, name == APNsKey.defaultSoundName) {
            case (true, true): .defaultCritical(volume: volume)
            case (true, false): .criticalNamed(name, volume: volume)
            case (false, true): .default
            case (false, false): .named(name)
            }
            return try self.sound(kind, field: sound.path(APNsKey.name))
        default:
            throw ChimeError(.invalidPayload, field: field, "must be a string or a dictionary")
        }
    }

    /// Builds a sound, reporting the model's objection (an empty name) against the payload's key path.
    /// Volumes were range-checked already.
    private static func sound(_ kind: NotificationSound.Kind, field: String) throws(ChimeError) -> NotificationSound {
        do {
            return try NotificationSound(kind)
        } catch {
            throw ChimeError(.invalidPayload, field: field, error.message)
        }
    }

    private static func readInterruptionLevel(of aps: PayloadDictionary) throws(ChimeError) -> InterruptionLevel {
        guard let name = try aps.string(APNsKey.interruptionLevel) else { return .default }
        guard let level = InterruptionLevel(apnsName: name) else {
            throw ChimeError(
                .invalidPayload, field: aps.path(APNsKey.interruptionLevel),
                "must be passive, active, time-sensitive or critical")
        }
        return level
    }
}

/// One dictionary of a payload (`aps`, `aps.alert`, `aps.sound`) with typed reads that name the key
/// path of whatever has the wrong type. Every read returns `nil` for an absent key.
private struct PayloadDictionary {
    let members: [String: JSONValue]
    /// The key path of this dictionary, such as `"aps.alert"`.
    let path: String

    init(members: [String: JSONValue], path: String) {
        self.members = members
        self.path = path
    }

    init(_ value: JSONValue, path: String) throws(ChimeError) {
        guard case .object(let members) = value else {
            throw ChimeError(.invalidPayload, field: path, "must be a dictionary")
        }
        self.init(members: members, path: path)
    }

    func path(_ key: String) -> String {
        "\(path).\(key)"
    }

    func string(_ key: String) throws(ChimeError) -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value else {
            throw ChimeError(.invalidPayload, field: path(key), "must be a string")
        }
        return string
    }

    func strings(_ key: String) throws(ChimeError) -> [String]? {
        guard let value = members[key] else { return nil }
        guard case .array(let elements) = value else {
            throw ChimeError(.invalidPayload, field: path(key), "must be an array of strings")
        }
        var strings: [String] = []
        for element in elements {
            guard case .string(let string) = element else {
                throw ChimeError(.invalidPayload, field: path(key), "must be an array of strings")
            }
            strings.append(string)
        }
        return strings
    }

    /// A whole number of 0 or more (`badge`, `summary-arg-count`).
    func integer(_ key: String) throws(ChimeError) -> Int? {
        guard let value = members[key] else { return nil }
        guard let integer = value.intValue, integer >= 0 else {
            throw ChimeError(.invalidPayload, field: path(key), "must be an integer of 0 or more")
        }
        return integer
    }

    /// A number from 0 to 1 (`relevance-score`, `volume`).
    func fraction(_ key: String) throws(ChimeError) -> Double? {
        guard let value = members[key] else { return nil }
        guard let number = value.doubleValue, (0...1).contains(number) else {
            throw ChimeError(.invalidPayload, field: path(key), "must be a number from 0 to 1")
        }
        return number
    }

    /// The number 0 (`false`) or 1 (`true`); JSON's `true` and `false` are not flags in APNs.
    func flag(_ key: String) throws(ChimeError) -> Bool? {
        guard let value = members[key] else { return nil }
        switch value.intValue {
        case 0: return false
        case 1: return true
        default: throw ChimeError(.invalidPayload, field: path(key), "must be 0 or 1")
        }
    }
}
