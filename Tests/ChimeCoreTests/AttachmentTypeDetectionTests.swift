import ChimeCore
import Testing

@Suite struct AttachmentTypeDetectionTests {
    typealias F = AttachmentFixtures

    @Test(arguments: [
        (F.png, AttachmentType.png), (F.jpeg, .jpeg), (F.gif, .gif), (F.ascii("GIF87a") + [0, 0], .gif),
        (F.aiff(), .aiff), (F.aiff(form: "AIFC"), .aiff), (F.wav(), .wav),
        (F.mp3Frame, .mp3), (F.mp3WithID3, .mp3),
        (F.mpeg4(brand: "M4A "), .mpeg4Audio), (F.mpeg4(brand: "M4B "), .mpeg4Audio), (F.mpeg4(brand: "M4P "), .mpeg4Audio),
        (F.mpeg4(brand: "isom"), .mpeg4Movie), (F.mpeg4(brand: "mp41"), .mpeg4Movie), (F.mpeg4(brand: "mp42"), .mpeg4Movie),
        (F.mpeg4(brand: "qt  "), .mpeg4Movie), (F.mpeg4(brand: "M4V "), .mpeg4Movie), (F.mpeg4(brand: "3gp4"), .mpeg4Movie),
        (F.mpeg1Pack, .mpeg), (F.mpeg2Pack, .mpeg2), (F.mpegVideoSequence, .mpeg), (F.avi, .avi),
    ])
    func detectsEachSupportedTypeFromItsFirstBytes(header: [UInt8], type: AttachmentType) {
        #expect(AttachmentType.detect(fromHeader: header) == type)
    }

    @Test(arguments: [
        ("empty", []),
        ("text", F.text),
        ("PNG signature cut short", Array(F.png.prefix(4))),
        ("PDF", F.ascii("%PDF-1.7\n")),
        ("ZIP", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]),
        ("WebP is RIFF but not WAVE or AVI", F.ascii("RIFF") + [0x1A, 0, 0, 0] + F.ascii("WEBPVP8 ")),
        ("8SVX is FORM but not AIFF", F.ascii("FORM") + [0, 0, 0, 4] + F.ascii("8SVX")),
        ("HEIC still image", F.mpeg4(brand: "heic")),
        ("AVIF still image", F.mpeg4(brand: "avif")),
        ("ftyp without a brand", [0, 0, 0, 8] + F.ascii("ftyp")),
        ("AAC in ADTS has layer 00", [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC]),
        ("MPEG Layer I frame", [0xFF, 0xFF, 0x90, 0x64]),
        ("MPEG frame with the reserved version", [0xFF, 0xEB, 0x90, 0x64]),
        ("MPEG frame with a bad bitrate", [0xFF, 0xFB, 0xF0, 0x64]),
        ("MPEG frame with the reserved sample rate", [0xFF, 0xFB, 0x9C, 0x64]),
        ("ID3 in an unknown version", F.ascii("ID3") + [0x09, 0, 0, 0, 0, 0, 0]),
        ("ID3 with a size that is not sync-safe", F.ascii("ID3") + [0x04, 0, 0, 0x80, 0, 0, 0]),
        ("text that starts with ID3", F.ascii("ID3 tags explained")),
        ("MPEG pack header with neither marker pattern", [0x00, 0x00, 0x01, 0xBA, 0x00, 0x00]),
        ("MPEG transport stream", [0x47, 0x40, 0x00, 0x10, 0x00]),
    ] as [(String, [UInt8])])
    func rejectsContentOfNoSupportedType(_ what: String, header: [UInt8]) {
        #expect(AttachmentType.detect(fromHeader: header) == nil, "\(what)")
    }

    @Test func looksOnlyAtTheFirstBytes() {
        let pngThenGarbage = F.png + [UInt8](repeating: 0xAB, count: 10_000)
        #expect(AttachmentType.detect(fromHeader: pngThenGarbage) == .png)
        #expect(AttachmentType.detect(fromHeader: F.png.prefix(AttachmentType.detectionHeaderLength)) == .png)
    }

    @Test func kindsAndUniformTypeIdentifiersMatchApple() {
        let expected: [AttachmentType: (AttachmentKind, String)] = [
            .png: (.image, "public.png"), .jpeg: (.image, "public.jpeg"), .gif: (.image, "com.compuserve.gif"),
            .aiff: (.audio, "public.aiff-audio"), .wav: (.audio, "com.microsoft.waveform-audio"),
            .mp3: (.audio, "public.mp3"), .mpeg4Audio: (.audio, "public.mpeg-4-audio"),
            .mpeg: (.movie, "public.mpeg"), .mpeg2: (.movie, "public.mpeg-2-video"),
            .mpeg4Movie: (.movie, "public.mpeg-4"), .avi: (.movie, "public.avi"),
        ]
        for type in AttachmentType.allCases {
            #expect(type.kind == expected[type]?.0)
            #expect(type.uniformTypeIdentifier == expected[type]?.1)
            #expect(AttachmentType(uniformTypeIdentifier: type.uniformTypeIdentifier) == type)
        }
        #expect(AttachmentType(uniformTypeIdentifier: "public.heic") == nil)
    }

    @Test func sizeLimitsAreFiveTenAndFiftyMebibytes() {
        #expect(AttachmentKind.audio.maximumFileSize == 5 * 1_048_576)
        #expect(AttachmentKind.image.maximumFileSize == 10 * 1_048_576)
        #expect(AttachmentKind.movie.maximumFileSize == 50 * 1_048_576)
    }
}
