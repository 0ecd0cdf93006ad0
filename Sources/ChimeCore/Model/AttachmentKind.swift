/// The broad kind of an attachment, which decides how it is presented and how large it may be.
///
/// Apple documents the limits as 5 MB for audio, 10 MB for images and 50 MB for movies; Chime reads
/// "MB" as 2^20 bytes.
///
/// ```swift
/// AttachmentType.mp3.kind                   // .audio
/// AttachmentKind.audio.maximumFileSize      // 5_242_880
/// ```
public enum AttachmentKind: String, Sendable, Hashable, Codable, CaseIterable {
    case image
    case audio
    case movie

    /// The largest accepted file, in bytes.
    public var maximumFileSize: Int {
        switch self {
        case .image: 10 * 1024 * 1024
        case .audio: 5 * 1024 * 1024
        case .movie: 50 * 1024 * 1024
        }
    }
}
