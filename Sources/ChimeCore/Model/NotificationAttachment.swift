public import Foundation

/// An image, sound or movie file shown with a notification (Apple's `UNNotificationAttachment`).
///
/// Creating one checks the file as Apple does when `UNNotificationAttachment(identifier:url:options:)`
/// is called: it must be a readable regular file, of a supported type, within the size limit of its
/// kind. The type comes from the file's first bytes, never from its name. Only those bytes are read.
///
/// ```swift
/// let logo = try NotificationAttachment(identifier: "logo", url: URL(fileURLWithPath: "/tmp/logo.png"))
/// logo.type  // .png
/// logo.kind  // .image
/// content.attachments = [logo]
/// ```
///
/// The value records what was validated. When the notification center accepts a request, it moves the
/// file into its store and keeps `attachment.relocated(to: storedURL)`. Decoding restores the stored
/// values without reading the file again, since it may have moved.
public struct NotificationAttachment: Sendable, Hashable {
    /// Unique among the attachments of one notification. Never empty.
    public let identifier: String
    /// Where the file is: a file URL.
    public private(set) var url: URL
    /// The file's type, from its content (and the type hint, where the content is ambiguous).
    public let type: AttachmentType
    /// The file's size in bytes when it was validated: more than 0 and at most the kind's limit.
    public let fileSize: Int
    public let options: AttachmentOptions

    /// Image, audio or movie.
    public var kind: AttachmentKind { type.kind }

    /// Validates the file at `url` and describes it.
    ///
    /// - Parameters:
    ///   - identifier: An identifier unique within the notification. Empty means "make one up": a UUID
    ///     string, as Apple does.
    ///   - url: A file URL of a regular file (symbolic links are followed).
    ///   - options: Type hint and thumbnail options.
    /// - Throws: `ChimeError.attachmentInvalidURL` when `url` is not a file URL, or the file is missing,
    ///   not a regular file, or cannot be read; `ChimeError.attachmentInvalidFileSize` when the file is
    ///   empty or larger than its kind allows; `ChimeError.attachmentUnrecognizedType` when the content
    ///   is not a supported type; `ChimeError.valueOutOfRange` for invalid options.
    public init(identifier: String = "", url: URL, options: AttachmentOptions = AttachmentOptions()) throws(ChimeError) {
        try options.validate()
        guard url.isFileURL else {
            throw ChimeError(.attachmentInvalidURL, field: "url", "an attachment URL must be a file URL")
        }
        let (size, header) = try Self.readHeader(of: url)
        guard size > 0 else {
            throw ChimeError(.attachmentInvalidFileSize, field: "url", "the attachment file is empty")
        }
        guard let detected = AttachmentType.detect(fromHeader: header) else {
            throw ChimeError(.attachmentUnrecognizedType, field: "url", "the attachment's content is not a supported image, audio or movie type")
        }
        let type = options.typeHint.flatMap { detected.admits(hint: $0) ? $0 : nil } ?? detected
        try self.init(identifier: identifier.isEmpty ? UUID().uuidString : identifier, url: url, type: type, fileSize: size, options: options)
    }

    /// Restores an attachment that was validated before, without reading the file: for stores.
    ///
    /// - Throws: the same errors as `init(identifier:url:options:)` for the facts it can check without
    ///   the file: `ChimeError.invalidIdentifier` for an empty identifier, `.attachmentInvalidURL` for a
    ///   URL that is not a file URL, `.attachmentInvalidFileSize` for a size out of range for `type`,
    ///   `.valueOutOfRange` for invalid options.
    public init(identifier: String, url: URL, type: AttachmentType, fileSize: Int, options: AttachmentOptions = AttachmentOptions()) throws(ChimeError) {
        guard !identifier.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "identifier", "an attachment identifier must not be empty")
        }
        guard url.isFileURL else {
            throw ChimeError(.attachmentInvalidURL, field: "url", "an attachment URL must be a file URL")
        }
        guard fileSize > 0 else {
            throw ChimeError(.attachmentInvalidFileSize, field: "url", "the attachment file is empty")
        }
        guard fileSize <= type.kind.maximumFileSize else {
            throw ChimeError(.attachmentInvalidFileSize, field: "url", "the attachment file is larger than its kind allows (audio 5 MB, image 10 MB, movie 50 MB)")
        }
        try options.validate()
        self.identifier = identifier
        self.url = url
        self.type = type
        self.fileSize = fileSize
        self.options = options
    }

    /// The same attachment with its file at `url`, where the caller has moved or copied it.
    ///
    /// - Precondition: `url` is a file URL.
    public func relocated(to url: URL) -> NotificationAttachment {
        precondition(url.isFileURL, "an attachment can only be relocated to a file URL")
        var copy = self
        copy.url = url
        return copy
    }

    /// The file's size and its first `AttachmentType.detectionHeaderLength` bytes.
    private static func readHeader(of url: URL) throws(ChimeError) -> (size: Int, header: Data) {
        let file = url.resolvingSymlinksInPath()
        // Check the type before opening: opening a FIFO for reading would block until a writer comes.
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))
        } catch {
            throw ChimeError(.attachmentInvalidURL, field: "url", "the attachment file does not exist")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw ChimeError(.attachmentInvalidURL, field: "url", "the attachment is not a regular file")
        }
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            let header = try handle.read(upToCount: AttachmentType.detectionHeaderLength) ?? Data()
            return (Int(clamping: size), header)
        } catch {
            throw ChimeError(.attachmentInvalidURL, field: "url", "the attachment file cannot be read")
        }
    }
}

extension NotificationAttachment: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, url, type, fileSize, options }

    /// Restores the stored values and checks them as `init(identifier:url:type:fileSize:options:)`
    /// does; the file itself is not read. Missing options are the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            identifier: container.decode(String.self, forKey: .identifier),
            url: container.decode(URL.self, forKey: .url),
            type: container.decode(AttachmentType.self, forKey: .type),
            fileSize: container.decode(Int.self, forKey: .fileSize),
            options: container.decodeIfPresent(AttachmentOptions.self, forKey: .options) ?? AttachmentOptions())
    }
}
