import Foundation

/// Small real files of each supported type, and a temporary directory to write them to.
enum AttachmentFixtures {
    /// A complete, decodable 1×1 RGBA PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82,
    ]

    /// A complete 1×1 GIF89a.
    static let gif: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
        0xFF, 0xFF, 0xFF, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ]

    /// Start of image, a JFIF APP0 segment, end of image.
    static let jpeg: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
        0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9,
    ]

    /// 8-bit mono PCM at 8 kHz with `samples` samples of silence.
    static func wav(samples: Int = 8) -> [UInt8] {
        let data = [UInt8](repeating: 0x80, count: samples)
        return ascii("RIFF") + le32(36 + data.count) + ascii("WAVE")
            + ascii("fmt ") + le32(16) + le16(1) + le16(1) + le32(8000) + le32(8000) + le16(1) + le16(8)
            + ascii("data") + le32(data.count) + data
    }

    /// 8-bit mono AIFF (`form` "AIFF") or AIFF-C (`form` "AIFC") at 8 kHz.
    static func aiff(form: String = "AIFF", samples: Int = 8) -> [UInt8] {
        let data = [UInt8](repeating: 0, count: samples)
        let sampleRate8kHz: [UInt8] = [0x40, 0x0B, 0xFA, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let common = ascii("COMM") + be32(18) + be16(1) + be32(samples) + be16(8) + sampleRate8kHz
        let sound = ascii("SSND") + be32(8 + data.count) + be32(0) + be32(0) + data
        return ascii("FORM") + be32(4 + common.count + sound.count) + ascii(form) + common + sound
    }

    /// One MPEG-1 Layer III frame header (128 kbit/s, 44.1 kHz) and a silent 417-byte frame.
    static let mp3Frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)

    /// An empty ID3v2.4 tag followed by an MP3 frame.
    static let mp3WithID3: [UInt8] = ascii("ID3") + [0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00] + mp3Frame

    /// An `ftyp` box with `brand` as major brand, then an empty `mdat` box.
    static func mpeg4(brand: String) -> [UInt8] {
        be32(24) + ascii("ftyp") + ascii(brand) + be32(0x200) + ascii(brand) + ascii("isom")
            + be32(8) + ascii("mdat")
    }

    /// An MPEG-1 system stream: one pack header and the end code.
    static let mpeg1Pack: [UInt8] = [
        0x00, 0x00, 0x01, 0xBA, 0x21, 0x00, 0x01, 0x00, 0x01, 0x80, 0x00, 0x01, 0x00, 0x00, 0x01, 0xB9,
    ]

    /// An MPEG-2 program stream: one pack header and the end code.
    static let mpeg2Pack: [UInt8] = [
        0x00, 0x00, 0x01, 0xBA, 0x44, 0x00, 0x04, 0x00, 0x04, 0x01, 0x01, 0x89, 0xC3, 0xF8,
        0x00, 0x00, 0x01, 0xB9,
    ]

    /// An MPEG video sequence header (352×240, 29.97 fps) and the sequence end code.
    static let mpegVideoSequence: [UInt8] = [
        0x00, 0x00, 0x01, 0xB3, 0x16, 0x00, 0xF0, 0x14, 0xFF, 0xFF, 0xE0, 0xA0, 0x00, 0x00, 0x01, 0xB7,
    ]

    /// A RIFF AVI with an empty header list.
    static let avi: [UInt8] = ascii("RIFF") + le32(16) + ascii("AVI ") + ascii("LIST") + le32(4) + ascii("hdrl")

    static let text: [UInt8] = ascii("just some text, not an image\n")

    static func ascii(_ string: String) -> [UInt8] { Array(string.utf8) }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }
}

/// A fresh directory under the system's temporary directory, removed with its contents on deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("chime-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name`; with `size`, extends the file with a sparse hole to exactly `size` bytes.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String, size: Int? = nil) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        if let size {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.truncate(atOffset: UInt64(size))
        }
        return file
    }
}
