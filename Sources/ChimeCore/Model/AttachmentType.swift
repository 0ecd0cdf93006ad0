/// A file type an attachment may have: the types Apple's `UNNotificationAttachment` supports.
///
/// Chime decides the type from the file's content (see `detect(fromHeader:)`), never from its name.
/// Raw values are stable and used in storage.
///
/// ```swift
/// AttachmentType.mpeg4Audio.kind                                // .audio
/// AttachmentType(uniformTypeIdentifier: "public.png")          // .png
/// ```
public enum AttachmentType: String, Sendable, Hashable, Codable, CaseIterable {
    case png
    case jpeg
    case gif
    /// AIFF or AIFF-C audio.
    case aiff
    /// RIFF WAVE audio.
    case wav
    /// MPEG-1/2 Audio Layer III, with or without an ID3 tag.
    case mp3
    /// An MPEG-4 container branded as audio (`.m4a`, `.m4b`, `.m4p`).
    case mpeg4Audio
    /// An MPEG-1 program stream, or an MPEG video elementary stream.
    case mpeg
    /// An MPEG-2 program stream.
    case mpeg2
    /// Any other MPEG-4 or QuickTime (ISO base media) container.
    case mpeg4Movie
    /// RIFF AVI video.
    case avi

    public var kind: AttachmentKind {
        switch self {
        case .png, .jpeg, .gif: .image
        case .aiff, .wav, .mp3, .mpeg4Audio: .audio
        case .mpeg, .mpeg2, .mpeg4Movie, .avi: .movie
        }
    }

    /// Apple's uniform type identifier, as given in `UNNotificationAttachmentOptionsTypeHintKey`.
    public var uniformTypeIdentifier: String {
        switch self {
        case .png: "public.png"
        case .jpeg: "public.jpeg"
        case .gif: "com.compuserve.gif"
        case .aiff: "public.aiff-audio"
        case .wav: "com.microsoft.waveform-audio"
        case .mp3: "public.mp3"
        case .mpeg4Audio: "public.mpeg-4-audio"
        case .mpeg: "public.mpeg"
        case .mpeg2: "public.mpeg-2-video"
        case .mpeg4Movie: "public.mpeg-4"
        case .avi: "public.avi"
        }
    }

    /// The type with Apple's uniform type identifier `identifier`, or `nil` for an unsupported type.
    public init?(uniformTypeIdentifier identifier: String) {
        guard let type = Self.allCases.first(where: { $0.uniformTypeIdentifier == identifier }) else { return nil }
        self = type
    }

    /// The MIME type, for presenters and HTTP.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .aiff: "audio/aiff"
        case .wav: "audio/wav"
        case .mp3: "audio/mpeg"
        case .mpeg4Audio: "audio/mp4"
        case .mpeg, .mpeg2: "video/mpeg"
        case .mpeg4Movie: "video/mp4"
        case .avi: "video/x-msvideo"
        }
    }

    /// The usual file name extension, without the dot; for naming a stored copy.
    public var preferredFilenameExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .gif: "gif"
        case .aiff: "aiff"
        case .wav: "wav"
        case .mp3: "mp3"
        case .mpeg4Audio: "m4a"
        case .mpeg, .mpeg2: "mpg"
        case .mpeg4Movie: "mp4"
        case .avi: "avi"
        }
    }
}
