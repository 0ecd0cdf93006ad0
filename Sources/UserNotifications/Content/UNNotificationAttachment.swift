#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// Option key: the attachment's type as a uniform type identifier (`"public.png"`); only chooses between
/// types the content cannot tell apart (Apple's constant, same string).
public let UNNotificationAttachmentOptionsTypeHintKey: String = "UNNotificationAttachmentOptionsTypeHintKey"
/// Option key: `true` hides the thumbnail (Apple's constant, same string).
public let UNNotificationAttachmentOptionsThumbnailHiddenKey: String = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
/// Option key: the part of the image used as thumbnail, in unit coordinates: a `CGRect`, or its dictionary
/// form with the keys `X`, `Y`, `Width` and `Height` (Apple's constant, same string).
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey: String = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
/// Option key: the frame number of an animated image, or the moment in seconds of a movie, used as
/// thumbnail (Apple's constant, same string).
public let UNNotificationAttachmentOptionsThumbnailTimeKey: String = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// An image, sound or movie shown with a notification (Apple's `UNNotificationAttachment`).
///
/// ```swift
/// let image = try UNNotificationAttachment(identifier: "logo-image", url: url, options: nil)
/// content.attachments = [image]
/// ```
///
/// Creating one checks the file as Apple does: it exists, its content is a supported type, and it is
/// within its kind's size limit (audio 5 MB, image 10 MB, movie 50 MB). When the request is added, the
/// file is moved into the notification store (when the engine has an attachments directory), and the
/// attachments read back from the center point there.
// @unchecked Sendable: immutable.
public final class UNNotificationAttachment: NSObject, NSCopying, @unchecked Sendable {
    let attachment: NotificationAttachment

    init(_ attachment: NotificationAttachment) {
        self.attachment = attachment
    }

    /// - Parameters:
    ///   - identifier: Unique within the notification; empty makes one up.
    ///   - url: A file URL.
    ///   - options: The `UNNotificationAttachmentOptions…Key` options.
    /// - Throws: `UNError` with `.attachmentInvalidURL`, `.attachmentUnrecognizedType` or
    ///   `.attachmentInvalidFileSize`; `ChimeError` for an option of the wrong type or out of range.
    public convenience init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
        do {
            let parsed = try Self.attachmentOptions(options ?? [:])
            self.init(try NotificationAttachment(identifier: identifier, url: URL, options: parsed))
        } catch {
            throw UNError.bridging(error)
        }
    }

    public var identifier: String { attachment.identifier }
    public var url: URL { attachment.url }
    /// The file's uniform type identifier (`"public.png"`).
    public var type: String { attachment.type.uniformTypeIdentifier }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? UNNotificationAttachment)?.attachment == attachment
    }

    public override var hash: Int {
        attachment.hashValue
    }

    private static func attachmentOptions(_ options: [AnyHashable: Any]) throws(ChimeError) -> AttachmentOptions {
        var result = AttachmentOptions()
        for (key, value) in options {
            switch key.base as? String {
            case UNNotificationAttachmentOptionsTypeHintKey:
                guard let identifier = value as? String else { throw wrongType(UNNotificationAttachmentOptionsTypeHintKey) }
                guard let type = AttachmentType(uniformTypeIdentifier: identifier) else {
                    throw ChimeError(.attachmentUnrecognizedType, field: "options", "the type hint names a type attachments cannot have")
                }
                result.typeHint = type
            case UNNotificationAttachmentOptionsThumbnailHiddenKey:
                guard let hidden = value as? Bool else { throw wrongType(UNNotificationAttachmentOptionsThumbnailHiddenKey) }
                result.thumbnailHidden = hidden
            case UNNotificationAttachmentOptionsThumbnailClippingRectKey:
                result.thumbnailClippingRect = try clippingRect(value)
            case UNNotificationAttachmentOptionsThumbnailTimeKey:
                guard let time = (value as? NSNumber)?.doubleValue ?? (value as? Double) else {
                    throw wrongType(UNNotificationAttachmentOptionsThumbnailTimeKey)
                }
                result.thumbnailTime = time
            default:
                break  // Apple ignores keys it does not know.
            }
        }
        return result
    }

    private static func clippingRect(_ value: Any) throws(ChimeError) -> AttachmentOptions.ClippingRect {
        if let rect = value as? CGRect {
            return try AttachmentOptions.ClippingRect(
                x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.size.width), height: Double(rect.size.height))
        }
        if let dictionary = value as? [String: Any] {
            func number(_ name: String) throws(ChimeError) -> Double {
                guard let value = (dictionary[name] as? NSNumber)?.doubleValue ?? (dictionary[name] as? Double) else {
                    throw wrongType(UNNotificationAttachmentOptionsThumbnailClippingRectKey)
                }
                return value
            }
            return try AttachmentOptions.ClippingRect(x: number("X"), y: number("Y"), width: number("Width"), height: number("Height"))
        }
        throw wrongType(UNNotificationAttachmentOptionsThumbnailClippingRectKey)
    }

    private static func wrongType(_ key: String) -> ChimeError {
        ChimeError(.valueOutOfRange, field: key, "the attachment option has the wrong type")
    }
}
#endif
