/// How an attachment is typed and shown as a thumbnail (Apple's `UNNotificationAttachment` options
/// dictionary, as a typed struct).
///
/// ```swift
/// let options = AttachmentOptions(
///     thumbnailClippingRect: try .init(x: 0.25, y: 0.25, width: 0.5, height: 0.5),
///     thumbnailTime: 12)
/// ```
public struct AttachmentOptions: Sendable, Hashable {
    /// `UNNotificationAttachmentOptionsTypeHintKey`. Chime decides the type from the file's content;
    /// the hint only chooses between types the content cannot tell apart: audio or movie in an MPEG-4
    /// container, MPEG-1 or MPEG-2. A hint that contradicts the content is ignored.
    public var typeHint: AttachmentType?
    /// `UNNotificationAttachmentOptionsThumbnailHiddenKey`: show no thumbnail in the banner.
    public var thumbnailHidden: Bool
    /// `UNNotificationAttachmentOptionsThumbnailClippingRectKey`: the part of the image to use as the
    /// thumbnail, in unit coordinates.
    public var thumbnailClippingRect: ClippingRect?
    /// `UNNotificationAttachmentOptionsThumbnailTimeKey`: the frame of an animated image (a frame
    /// number) or the moment of a movie (in seconds) to use as the thumbnail. Finite and not negative.
    public var thumbnailTime: Double?

    public init(
        typeHint: AttachmentType? = nil,
        thumbnailHidden: Bool = false,
        thumbnailClippingRect: ClippingRect? = nil,
        thumbnailTime: Double? = nil
    ) {
        self.typeHint = typeHint
        self.thumbnailHidden = thumbnailHidden
        self.thumbnailClippingRect = thumbnailClippingRect
        self.thumbnailTime = thumbnailTime
    }

    /// - Throws: `ChimeError.valueOutOfRange` when `thumbnailTime` is negative or not finite.
    public func validate() throws(ChimeError) {
        if let thumbnailTime, !(thumbnailTime.isFinite && thumbnailTime >= 0) {
            throw ChimeError(.valueOutOfRange, field: "thumbnailTime", "the thumbnail time must be a finite number, 0 or more")
        }
    }

    /// A rectangle within the unit square, origin at the top left (Apple's `CGRect` in the options).
    public struct ClippingRect: Sendable, Hashable {
        public let x: Double
        public let y: Double
        public let width: Double
        public let height: Double

        /// - Throws: `ChimeError.valueOutOfRange` unless the rectangle has a positive size and lies
        ///   within the unit square.
        public init(x: Double, y: Double, width: Double, height: Double) throws(ChimeError) {
            guard [x, y, width, height].allSatisfy(\.isFinite), x >= 0, y >= 0, width > 0, height > 0,
                  x + width <= 1, y + height <= 1
            else {
                throw ChimeError(.valueOutOfRange, field: "thumbnailClippingRect", "the clipping rectangle must have a positive size and lie within the unit square")
            }
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}

extension AttachmentOptions: Codable {
    private enum CodingKeys: String, CodingKey { case typeHint, thumbnailHidden, thumbnailClippingRect, thumbnailTime }

    /// Missing keys take their defaults; the result is validated.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            typeHint: try container.decodeIfPresent(AttachmentType.self, forKey: .typeHint),
            thumbnailHidden: try container.decodeIfPresent(Bool.self, forKey: .thumbnailHidden) ?? false,
            thumbnailClippingRect: try container.decodeIfPresent(ClippingRect.self, forKey: .thumbnailClippingRect),
            thumbnailTime: try container.decodeIfPresent(Double.self, forKey: .thumbnailTime))
        try validate()
    }
}

extension AttachmentOptions.ClippingRect: Codable {
    private enum CodingKeys: String, CodingKey { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            x: container.decode(Double.self, forKey: .x),
            y: container.decode(Double.self, forKey: .y),
            width: container.decode(Double.self, forKey: .width),
            height: container.decode(Double.self, forKey: .height))
    }
}
