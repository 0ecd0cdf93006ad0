#if !canImport(Darwin)
public import ChimeCore
public import Foundation

/// The error domain of `UNError` (Apple's constant, same string).
public let UNErrorDomain: String = "UNErrorDomain"

/// An error of the notification center (Apple's `UNError`): its `code` says what went wrong, with Apple's
/// cases and raw values.
///
/// ```swift
/// center.add(request) { error in
///     if let error = error as? UNError, error.code == .notificationsNotAllowed { askAgainLater() }
/// }
/// do { try await center.add(request) } catch UNError.notificationsNotAllowed { ... }
/// ```
///
/// Chime's engine reports its failures as `ChimeError`; the center turns the ones Apple has a code for
/// into a `UNError` with that code, Apple's wording as `localizedDescription` ("Notifications are not
/// allowed for this application") and the original, which names the field, in `chimeError`. An invalid trigger (an interval that is not positive or repeats more often than every
/// 60 seconds, date components that never match) is `.notificationInvalidNoDate`: it gives no date to
/// fire. Failures Apple has no code for (an empty identifier, `userInfo` that JSON cannot hold) reach the
/// app as the `ChimeError` itself.
public struct UNError: CustomNSError, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong (Apple's `UNError.Code`, same cases and raw values).
    public enum Code: Int, Sendable, Hashable {
        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100
        case attachmentUnrecognizedType = 101
        case attachmentInvalidFileSize = 102
        case attachmentNotInDataStore = 103
        case attachmentMoveIntoDataStoreFailed = 104
        case attachmentCorrupt = 105
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
        case contentProvidingObjectNotAllowed = 1500
        case contentProvidingInvalid = 1501
        case badgeInputInvalid = 1600
    }

    public let code: Code
    /// Chime's error behind this one, with the field it concerns; `nil` when the error was made directly.
    public let chimeError: ChimeError?
    private let message: String?

    /// Apple's initializer. Only `NSLocalizedDescriptionKey` is kept from `userInfo`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        message = userInfo[NSLocalizedDescriptionKey] as? String
        chimeError = nil
    }

    init(_ code: Code, chimeError: ChimeError) {
        self.code = code
        self.chimeError = chimeError
        message = nil
    }

    public static var errorDomain: String { UNErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message ?? code.defaultMessage] }
    /// Apple's spelling of `errorUserInfo`.
    public var userInfo: [String: Any] { errorUserInfo }

    /// The code and Chime's error behind it; never notification text.
    public var description: String {
        "UNError(\(code))" + (chimeError.map { ": \($0)" } ?? "")
    }

    public static var notificationsNotAllowed: Code { .notificationsNotAllowed }
    public static var attachmentInvalidURL: Code { .attachmentInvalidURL }
    public static var attachmentUnrecognizedType: Code { .attachmentUnrecognizedType }
    public static var attachmentInvalidFileSize: Code { .attachmentInvalidFileSize }
    public static var attachmentNotInDataStore: Code { .attachmentNotInDataStore }
    public static var attachmentMoveIntoDataStoreFailed: Code { .attachmentMoveIntoDataStoreFailed }
    public static var attachmentCorrupt: Code { .attachmentCorrupt }
    public static var notificationInvalidNoDate: Code { .notificationInvalidNoDate }
    public static var notificationInvalidNoContent: Code { .notificationInvalidNoContent }
    public static var contentProvidingObjectNotAllowed: Code { .contentProvidingObjectNotAllowed }
    public static var contentProvidingInvalid: Code { .contentProvidingInvalid }
    public static var badgeInputInvalid: Code { .badgeInputInvalid }

    /// The error the app sees for a failure of Chime's engine or model (see the type's discussion).
    static func bridging(_ error: any Error) -> any Error {
        guard let chime = error as? ChimeError else { return error }
        if let code = Code(rawValue: chime.code.rawValue) {
            return UNError(code, chimeError: chime)
        }
        switch chime.code {
        case .invalidTimeInterval, .invalidDateComponents:
            return UNError(.notificationInvalidNoDate, chimeError: chime)
        default:
            return chime
        }
    }
}

/// Lets `catch UNError.notificationsNotAllowed` match, as with Apple's bridged errors.
public func ~= (code: UNError.Code, error: any Error) -> Bool {
    (error as? UNError)?.code == code
}

extension UNError.Code {
    /// Apple's wording, for errors made without a message.
    var defaultMessage: String {
        switch self {
        case .notificationsNotAllowed: "Notifications are not allowed for this application"
        case .attachmentInvalidURL: "Invalid attachment file URL"
        case .attachmentUnrecognizedType: "Unrecognized attachment file type"
        case .attachmentInvalidFileSize: "Invalid attachment file size"
        case .attachmentNotInDataStore: "Attachment is not in the data store"
        case .attachmentMoveIntoDataStoreFailed: "Attachment could not be moved into the data store"
        case .attachmentCorrupt: "Attachment is corrupt"
        case .notificationInvalidNoDate: "Notification has no trigger date"
        case .notificationInvalidNoContent: "Notification has no content"
        case .contentProvidingObjectNotAllowed: "Content providing object is not allowed"
        case .contentProvidingInvalid: "Content providing object is invalid"
        case .badgeInputInvalid: "Invalid badge count"
        }
    }
}
#endif
