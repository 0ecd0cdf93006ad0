import ChimeCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct AttachmentTests {
    typealias F = AttachmentFixtures
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    // MARK: Accepting files

    @Test(arguments: [
        (F.png, "logo.png", AttachmentType.png), (F.jpeg, "photo.jpg", .jpeg), (F.gif, "anim.gif", .gif),
        (F.aiff(), "bell.aiff", .aiff), (F.aiff(form: "AIFC"), "bell.aifc", .aiff), (F.wav(), "ding.wav", .wav),
        (F.mp3Frame, "song.mp3", .mp3), (F.mp3WithID3, "tagged.mp3", .mp3),
        (F.mpeg4(brand: "M4A "), "voice.m4a", .mpeg4Audio), (F.mpeg4(brand: "mp42"), "clip.mp4", .mpeg4Movie),
        (F.mpeg4(brand: "qt  "), "clip.mov", .mpeg4Movie), (F.mpeg1Pack, "old.mpg", .mpeg),
        (F.mpeg2Pack, "dvd.mpg", .mpeg2), (F.mpegVideoSequence, "raw.m1v", .mpeg), (F.avi, "clip.avi", .avi),
    ])
    func acceptsEachSupportedType(bytes: [UInt8], name: String, type: AttachmentType) throws {
        let url = try directory.write(bytes, to: name)
        let attachment = try NotificationAttachment(identifier: "a", url: url)
        #expect(attachment.type == type)
        #expect(attachment.kind == type.kind)
        #expect(attachment.fileSize == bytes.count)
        #expect(attachment.identifier == "a")
        #expect(attachment.url == url)
        #expect(attachment.options == AttachmentOptions())
    }

    @Test func decidesTheTypeByContentNotByExtension() throws {
        let url = try directory.write(F.png, to: "not-a-song.mp3")
        let attachment = try NotificationAttachment(identifier: "logo", url: url)
        #expect(attachment.type == .png)
        #expect(attachment.kind == .image)
    }

    @Test func acceptsAFileWithoutExtension() throws {
        let url = try directory.write(F.wav(), to: "recording")
        #expect(try NotificationAttachment(url: url).type == .wav)
    }

    @Test func followsSymbolicLinks() throws {
        let target = try directory.write(F.gif, to: "real.gif")
        let link = directory.url.appendingPathComponent("link.gif")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let attachment = try NotificationAttachment(identifier: "g", url: link)
        #expect(attachment.type == .gif)
        #expect(attachment.url == link)
    }

    @Test func emptyIdentifierBecomesAUUIDString() throws {
        let url = try directory.write(F.png, to: "logo.png")
        let first = try NotificationAttachment(identifier: "", url: url)
        let second = try NotificationAttachment(url: url)
        #expect(UUID(uuidString: first.identifier) != nil)
        #expect(UUID(uuidString: second.identifier) != nil)
        #expect(first.identifier != second.identifier)
    }

    // MARK: Rejecting files

    @Test func rejectsTextRenamedToPNG() throws {
        let url = try directory.write(F.text, to: "fake.png")
        #expect(throws: ChimeError(.attachmentUnrecognizedType, field: "url", "the attachment's content is not a supported image, audio or movie type")) {
            try NotificationAttachment(identifier: "x", url: url)
        }
    }

    @Test func rejectsAMissingFile() {
        let url = directory.url.appendingPathComponent("missing.png")
        #expect(throws: ChimeError(.attachmentInvalidURL, field: "url", "the attachment file does not exist")) {
            try NotificationAttachment(identifier: "x", url: url)
        }
    }

    @Test func rejectsADanglingSymbolicLink() throws {
        let link = directory.url.appendingPathComponent("dangling.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory.url.appendingPathComponent("gone.png"))
        let error = #expect(throws: ChimeError.self) { try NotificationAttachment(identifier: "x", url: link) }
        #expect(error?.code == .attachmentInvalidURL)
    }

    @Test(arguments: ["https://example.com/logo.png", "data:image/png;base64,iVBORw0KGgo="])
    func rejectsAURLThatIsNotAFileURL(string: String) throws {
        let url = try #require(URL(string: string))
        #expect(throws: ChimeError(.attachmentInvalidURL, field: "url", "an attachment URL must be a file URL")) {
            try NotificationAttachment(identifier: "x", url: url)
        }
    }

    @Test func rejectsADirectory() {
        #expect(throws: ChimeError(.attachmentInvalidURL, field: "url", "the attachment is not a regular file")) {
            try NotificationAttachment(identifier: "x", url: directory.url)
        }
    }

    #if canImport(Glibc)
    @Test func rejectsAFIFOWithoutBlocking() throws {
        let fifo = directory.url.appendingPathComponent("pipe.png")
        try #require(mkfifo(fifo.path(percentEncoded: false), 0o600) == 0)
        #expect(throws: ChimeError(.attachmentInvalidURL, field: "url", "the attachment is not a regular file")) {
            try NotificationAttachment(identifier: "x", url: fifo)
        }
    }
    #endif

    @Test func rejectsAnEmptyFile() throws {
        let url = try directory.write([], to: "empty.png")
        #expect(throws: ChimeError(.attachmentInvalidFileSize, field: "url", "the attachment file is empty")) {
            try NotificationAttachment(identifier: "x", url: url)
        }
    }

    @Test(arguments: [(F.png, AttachmentKind.image), (F.mp3Frame, .audio), (F.mpeg4(brand: "mp42"), .movie)])
    func acceptsAFileOfExactlyTheLimitAndRejectsOneByteMore(header: [UInt8], kind: AttachmentKind) throws {
        let atLimit = try directory.write(header, to: "at-limit", size: kind.maximumFileSize)
        let attachment = try NotificationAttachment(identifier: "x", url: atLimit)
        #expect(attachment.fileSize == kind.maximumFileSize)
        #expect(attachment.kind == kind)

        let over = try directory.write(header, to: "over-limit", size: kind.maximumFileSize + 1)
        #expect(throws: ChimeError(.attachmentInvalidFileSize, field: "url", "the attachment file is larger than its kind allows (audio 5 MB, image 10 MB, movie 50 MB)")) {
            try NotificationAttachment(identifier: "x", url: over)
        }
    }

    @Test func audioLimitAppliesToMPEG4AudioEvenWithinTheMovieLimit() throws {
        let url = try directory.write(F.mpeg4(brand: "M4A "), to: "long.m4a", size: AttachmentKind.audio.maximumFileSize + 1)
        let error = #expect(throws: ChimeError.self) { try NotificationAttachment(identifier: "x", url: url) }
        #expect(error?.code == .attachmentInvalidFileSize)
    }

    // MARK: Options

    @Test func typeHintChoosesBetweenTypesTheContentCannotTellApart() throws {
        let m4a = try directory.write(F.mpeg4(brand: "M4A "), to: "a.m4a")
        let asMovie = try NotificationAttachment(identifier: "x", url: m4a, options: AttachmentOptions(typeHint: .mpeg4Movie))
        #expect(asMovie.type == .mpeg4Movie)
        #expect(asMovie.options.typeHint == .mpeg4Movie)

        let mpeg = try directory.write(F.mpegVideoSequence, to: "v.m2v")
        #expect(try NotificationAttachment(identifier: "x", url: mpeg, options: AttachmentOptions(typeHint: .mpeg2)).type == .mpeg2)
    }

    @Test func typeHintThatContradictsTheContentIsIgnored() throws {
        let png = try directory.write(F.png, to: "logo.png")
        let attachment = try NotificationAttachment(identifier: "x", url: png, options: AttachmentOptions(typeHint: .gif))
        #expect(attachment.type == .png)
        #expect(attachment.options.typeHint == .gif)
    }

    @Test func keepsThumbnailOptions() throws {
        let url = try directory.write(F.png, to: "logo.png")
        let options = AttachmentOptions(
            thumbnailHidden: true,
            thumbnailClippingRect: try .init(x: 0.25, y: 0, width: 0.5, height: 1),
            thumbnailTime: 3)
        #expect(try NotificationAttachment(identifier: "x", url: url, options: options).options == options)
    }

    @Test(arguments: [-1, Double.nan, .infinity])
    func rejectsAThumbnailTimeThatIsNegativeOrNotFinite(time: Double) throws {
        let url = try directory.write(F.png, to: "logo.png")
        #expect(throws: ChimeError(.valueOutOfRange, field: "thumbnailTime", "the thumbnail time must be a finite number, 0 or more")) {
            try NotificationAttachment(identifier: "x", url: url, options: AttachmentOptions(thumbnailTime: time))
        }
    }

    @Test(arguments: [
        (-0.1, 0.0, 0.5, 0.5), (0, -0.1, 0.5, 0.5), (0, 0, 0, 0.5), (0, 0, 0.5, 0), (0.6, 0, 0.5, 0.5),
        (0, 0.6, 0.5, 0.5), (0, 0, .nan, 0.5), (0, 0, 0.5, .infinity),
    ])
    func rejectsAClippingRectOutsideTheUnitSquare(x: Double, y: Double, width: Double, height: Double) {
        #expect(throws: ChimeError(.valueOutOfRange, field: "thumbnailClippingRect", "the clipping rectangle must have a positive size and lie within the unit square")) {
            try AttachmentOptions.ClippingRect(x: x, y: y, width: width, height: height)
        }
    }

    @Test func acceptsTheWholeUnitSquareAsClippingRect() throws {
        let whole = try AttachmentOptions.ClippingRect(x: 0, y: 0, width: 1, height: 1)
        #expect(whole.width == 1)
    }

    // MARK: Storage

    @Test func decodingRestoresTheValuesWithoutReadingTheFile() throws {
        let url = try directory.write(F.wav(), to: "ding.wav")
        let attachment = try NotificationAttachment(
            identifier: "ding", url: url,
            options: AttachmentOptions(thumbnailHidden: true, thumbnailClippingRect: try .init(x: 0, y: 0, width: 0.5, height: 0.5)))
        let data = try JSONEncoder().encode(attachment)
        try FileManager.default.removeItem(at: url)
        let decoded = try JSONDecoder().decode(NotificationAttachment.self, from: data)
        #expect(decoded == attachment)
    }

    @Test func decodingWithoutOptionsUsesTheDefaults() throws {
        let json = #"{"identifier":"a","url":"file:///store/a.png","type":"png","fileSize":67}"#
        let decoded = try JSONDecoder().decode(NotificationAttachment.self, from: Data(json.utf8))
        #expect(decoded.options == AttachmentOptions())
        #expect(decoded.url == URL(fileURLWithPath: "/store/a.png"))
    }

    @Test(arguments: [
        (#"{"identifier":"","url":"file:///a.png","type":"png","fileSize":1}"#, ChimeError.Code.invalidIdentifier),
        (#"{"identifier":"a","url":"https://example.com/a.png","type":"png","fileSize":1}"#, .attachmentInvalidURL),
        (#"{"identifier":"a","url":"file:///a.png","type":"png","fileSize":0}"#, .attachmentInvalidFileSize),
        (#"{"identifier":"a","url":"file:///a.mp3","type":"mp3","fileSize":5242881}"#, .attachmentInvalidFileSize),
        (#"{"identifier":"a","url":"file:///a.png","type":"png","fileSize":1,"options":{"thumbnailTime":-1}}"#, .valueOutOfRange),
        (#"{"identifier":"a","url":"file:///a.png","type":"png","fileSize":1,"options":{"thumbnailClippingRect":{"x":0,"y":0,"width":2,"height":1}}}"#, .valueOutOfRange),
    ])
    func decodingRevalidatesWhatItCanWithoutTheFile(json: String, code: ChimeError.Code) {
        let error = #expect(throws: ChimeError.self) {
            try JSONDecoder().decode(NotificationAttachment.self, from: Data(json.utf8))
        }
        #expect(error?.code == code)
    }

    @Test func decodingAnUnknownTypeFails() {
        let json = #"{"identifier":"a","url":"file:///a.heic","type":"heic","fileSize":1}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NotificationAttachment.self, from: Data(json.utf8))
        }
    }

    @Test func relocatingChangesOnlyTheURL() throws {
        let url = try directory.write(F.png, to: "logo.png")
        let attachment = try NotificationAttachment(identifier: "logo", url: url, options: AttachmentOptions(thumbnailHidden: true))
        let stored = URL(fileURLWithPath: "/var/lib/chime/attachments/logo.png")
        let moved = attachment.relocated(to: stored)
        #expect(moved.url == stored)
        #expect(moved.identifier == attachment.identifier)
        #expect(moved.type == attachment.type)
        #expect(moved.fileSize == attachment.fileSize)
        #expect(moved.options == attachment.options)
    }
}
