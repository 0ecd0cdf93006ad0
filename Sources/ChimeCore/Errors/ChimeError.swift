/// An error raised by Chime's model, validation and codecs.
///
/// The codes mirror Apple's `UNError.Code` (same meaning, same raw values) where Apple has one, and add
/// Chime's own where Apple validates silently or not at all (Chime's codes start at 10 000).
///
/// ```swift
/// do {
///     _ = try TimeIntervalTrigger(timeInterval: 30, repeats: true)
/// } catch {
///     // error.code == .invalidTimeInterval: repeating intervals must be at least 60 seconds
/// }
/// ```
///
/// `description` never prints notification text, payload values or user data: only the code, the field
/// it concerns and a fixed explanation, so errors are safe to log.
public struct ChimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a stable, machine-readable value.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        // Apple's UNError.Code, same raw values.
        public static let notificationsNotAllowed = Code(rawValue: 1)
        public static let attachmentInvalidURL = Code(rawValue: 100)
        public static let attachmentUnrecognizedType = Code(rawValue: 101)
        public static let attachmentInvalidFileSize = Code(rawValue: 102)
        public static let attachmentNotInDataStore = Code(rawValue: 103)
        public static let attachmentMoveIntoDataStoreFailed = Code(rawValue: 104)
        public static let attachmentCorrupt = Code(rawValue: 105)
        public static let notificationInvalidNoDate = Code(rawValue: 1400)
        public static let notificationInvalidNoContent = Code(rawValue: 1401)
        public static let contentProvidingObjectNotAllowed = Code(rawValue: 1500)
        public static let contentProvidingInvalid = Code(rawValue: 1501)
        public static let badgeInputInvalid = Code(rawValue: 1600)

        // Chime's own: rules Apple enforces by crashing, silently, or not at all.
        /// An identifier (request, action, category, attachment) is empty.
        public static let invalidIdentifier = Code(rawValue: 10_001)
        /// A time interval is not positive, or repeats more often than every 60 seconds.
        public static let invalidTimeInterval = Code(rawValue: 10_002)
        /// Calendar date components are empty, out of range, or can never match.
        public static let invalidDateComponents = Code(rawValue: 10_003)
        /// Two actions of one category share an identifier.
        public static let duplicateActionIdentifier = Code(rawValue: 10_004)
        /// A number lies outside its allowed range (relevance score, volume, radius, badge).
        public static let valueOutOfRange = Code(rawValue: 10_005)
        /// An APNs payload is malformed: not JSON, a key of the wrong type, or a value out of range.
        public static let invalidPayload = Code(rawValue: 10_006)
        /// An APNs payload is larger than the 4096 bytes APNs accepts.
        public static let payloadTooLarge = Code(rawValue: 10_007)
        /// A location region is invalid (coordinate or radius).
        public static let invalidRegion = Code(rawValue: 10_008)
        /// A strings table (`Localizable.strings`) is not valid text in the `.strings` format.
        public static let invalidStringsTable = Code(rawValue: 10_009)
        /// No delivered notification (or pending request) has that identifier.
        public static let notificationNotFound = Code(rawValue: 10_010)
        /// The notification does not offer that action (not in its category or its own actions).
        public static let actionNotAvailable = Code(rawValue: 10_011)
        /// The action requires an unlocked session, and the session is locked.
        public static let sessionLocked = Code(rawValue: 10_012)

        public var description: String {
            switch self {
            case .notificationsNotAllowed: "notificationsNotAllowed"
            case .attachmentInvalidURL: "attachmentInvalidURL"
            case .attachmentUnrecognizedType: "attachmentUnrecognizedType"
            case .attachmentInvalidFileSize: "attachmentInvalidFileSize"
            case .attachmentNotInDataStore: "attachmentNotInDataStore"
            case .attachmentMoveIntoDataStoreFailed: "attachmentMoveIntoDataStoreFailed"
            case .attachmentCorrupt: "attachmentCorrupt"
            case .notificationInvalidNoDate: "notificationInvalidNoDate"
            case .notificationInvalidNoContent: "notificationInvalidNoContent"
            case .contentProvidingObjectNotAllowed: "contentProvidingObjectNotAllowed"
            case .contentProvidingInvalid: "contentProvidingInvalid"
            case .badgeInputInvalid: "badgeInputInvalid"
            case .invalidIdentifier: "invalidIdentifier"
            case .invalidTimeInterval: "invalidTimeInterval"
            case .invalidDateComponents: "invalidDateComponents"
            case .duplicateActionIdentifier: "duplicateActionIdentifier"
            case .valueOutOfRange: "valueOutOfRange"
            case .invalidPayload: "invalidPayload"
            case .payloadTooLarge: "payloadTooLarge"
            case .invalidRegion: "invalidRegion"
            case .invalidStringsTable: "invalidStringsTable"
            case .notificationNotFound: "notificationNotFound"
            case .actionNotAvailable: "actionNotAvailable"
            case .sessionLocked: "sessionLocked"
            default: "code \(rawValue)"
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// The field, key or parameter the error concerns (`"aps.alert.title"`, `"timeInterval"`), if any.
    public let field: String?
    /// A fixed, human-readable explanation. Never contains user data.
    public let message: String

    public init(_ code: Code, field: String? = nil, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String {
        if let field {
            return "ChimeError.\(code) (\(field)): \(message)"
        }
        return "ChimeError.\(code): \(message)"
    }
}
