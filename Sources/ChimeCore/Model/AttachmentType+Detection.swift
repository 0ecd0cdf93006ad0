extension AttachmentType {
    /// How many leading bytes `detect(fromHeader:)` looks at. Reading more changes nothing.
    public static let detectionHeaderLength = 16

    /// The type of a file whose first bytes are `header`, or `nil` when it is none of the supported types.
    ///
    /// Only the content counts: a PNG named `song.mp3` is a PNG. The signatures:
    ///
    /// - PNG `89 50 4E 47 0D 0A 1A 0A`; JPEG `FF D8 FF`; GIF `GIF87a` / `GIF89a`
    /// - AIFF `FORM`, size, `AIFF` or `AIFC`; WAV `RIFF`, size, `WAVE`; AVI `RIFF`, size, `AVI `
    /// - MP3: an ID3v2 tag header, or the sync word of an MPEG Layer III audio frame with a valid header
    /// - MPEG-4 (ISO base media): an `ftyp` box at offset 4. Major brands `M4A `, `M4B `, `M4P ` are
    ///   audio; still-image brands (HEIF, AVIF) are rejected; every other brand is a movie
    /// - MPEG: a pack header `00 00 01 BA`, MPEG-1 or MPEG-2 by its marker bits (ISO/IEC 11172-1 and
    ///   13818-1); or a video sequence header `00 00 01 B3`, which is `.mpeg`
    ///
    /// Pass at least `detectionHeaderLength` bytes, or the whole file when it is shorter.
    ///
    /// ```swift
    /// AttachmentType.detect(fromHeader: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // .png
    /// AttachmentType.detect(fromHeader: Array("hello".utf8))                              // nil
    /// ```
    public static func detect(fromHeader header: some Sequence<UInt8>) -> AttachmentType? {
        let bytes = Array(header.prefix(detectionHeaderLength))

        func has(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count
                && bytes[offset..<offset + signature.count].elementsEqual(signature)
        }
        func has(_ ascii: String, at offset: Int = 0) -> Bool {
            has(Array(ascii.utf8), at: offset)
        }

        if has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if has([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if has("GIF87a") || has("GIF89a") { return .gif }
        if has("FORM") {
            return has("AIFF", at: 8) || has("AIFC", at: 8) ? .aiff : nil
        }
        if has("RIFF") {
            if has("WAVE", at: 8) { return .wav }
            if has("AVI ", at: 8) { return .avi }
            return nil
        }
        if has("ftyp", at: 4), bytes.count >= 12 {
            return mpeg4Type(brand: String(decoding: bytes[8..<12], as: UTF8.self))
        }
        if has([0x00, 0x00, 0x01, 0xBA]), bytes.count >= 5 {
            // After the start code: '0010' + SCR bits + marker for MPEG-1, '01' + SCR bits + marker for
            // MPEG-2.
            if bytes[4] & 0xF1 == 0x21 { return .mpeg }
            if bytes[4] & 0xC4 == 0x44 { return .mpeg2 }
            return nil
        }
        if has([0x00, 0x00, 0x01, 0xB3]) { return .mpeg }
        if isID3TagHeader(bytes) || isMP3FrameHeader(bytes) { return .mp3 }
        return nil
    }

    /// Whether a type hint may replace the detected type `self`: only between types whose content the
    /// header cannot tell apart (audio or movie in an MPEG-4 container; MPEG-1 or MPEG-2).
    func admits(hint: AttachmentType) -> Bool {
        switch (self, hint) {
        case (.mpeg4Audio, .mpeg4Movie), (.mpeg4Movie, .mpeg4Audio): true
        case (.mpeg, .mpeg2), (.mpeg2, .mpeg): true
        default: self == hint
        }
    }

    private static let mpeg4AudioBrands: Set<String> = ["M4A ", "M4B ", "M4P "]

    /// HEIF and AVIF images share the MPEG-4 container but are not movies.
    private static let stillImageBrands: Set<String> = [
        "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "avif", "avis",
    ]

    private static func mpeg4Type(brand: String) -> AttachmentType? {
        if mpeg4AudioBrands.contains(brand) { return .mpeg4Audio }
        if stillImageBrands.contains(brand) { return nil }
        return .mpeg4Movie
    }

    /// `ID3`, a major version 2...4, a revision, flags, and a four-byte sync-safe size (high bits clear).
    private static func isID3TagHeader(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return false }
        guard (2...4).contains(bytes[3]), bytes[4] != 0xFF else { return false }
        return bytes[6..<10].allSatisfy { $0 < 0x80 }
    }

    /// An 11-bit frame sync, then a version, layer III, a bitrate and a sample rate that are not reserved.
    private static func isMP3FrameHeader(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 else { return false }
        let version = (bytes[1] >> 3) & 0b11
        let layer = (bytes[1] >> 1) & 0b11
        let bitrate = bytes[2] >> 4
        let sampleRate = (bytes[2] >> 2) & 0b11
        return version != 0b01 && layer == 0b01 && bitrate != 0b1111 && sampleRate != 0b11
    }
}
