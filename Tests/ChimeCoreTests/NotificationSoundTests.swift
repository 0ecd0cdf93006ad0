import ChimeCore
import Foundation
import Testing

@Suite struct NotificationSoundTests {
    @Test func systemSoundsHaveNoNameAndOnlyTheCriticalOneHasAVolume() {
        #expect(NotificationSound.default.kind == .default)
        #expect(NotificationSound.default.name == nil)
        #expect(NotificationSound.default.volume == nil)
        #expect(!NotificationSound.default.isCritical)
        #expect(NotificationSound.defaultRingtone.kind == .defaultRingtone)
        #expect(NotificationSound.defaultCritical.kind == .defaultCritical(volume: 1))
        #expect(NotificationSound.defaultCritical.isCritical)
    }

    @Test func namedSoundsKeepTheirName() throws {
        #expect(try NotificationSound.named("chime.aiff").kind == .named("chime.aiff"))
        #expect(try NotificationSound(named: "chime.aiff") == .named("chime.aiff"))
        #expect(try NotificationSound.ringtone("ring.caf").name == "ring.caf")
        #expect(try !NotificationSound.ringtone("ring.caf").isCritical)
    }

    @Test func criticalSoundsCarryTheirVolumeAndDefaultToFull() throws {
        let warning = try NotificationSound.criticalNamed("warning-sound.aiff", volume: 0.25)
        #expect(warning.kind == .criticalNamed("warning-sound.aiff", volume: 0.25))
        #expect(warning.name == "warning-sound.aiff")
        #expect(warning.volume == 0.25)
        #expect(warning.isCritical)
        #expect(try NotificationSound.criticalNamed("w.aiff").volume == 1)
        #expect(try NotificationSound.defaultCritical(volume: 0).volume == 0)
    }

    @Test(arguments: [Float(-0.01), 1.01, .nan, .infinity, -.infinity])
    func rejectsACriticalVolumeOutsideZeroToOne(volume: Float) {
        #expect(throws: ChimeError(.valueOutOfRange, field: "volume", "a critical sound's volume must be between 0 and 1")) {
            try NotificationSound.defaultCritical(volume: volume)
        }
        #expect(throws: ChimeError(.valueOutOfRange, field: "volume", "a critical sound's volume must be between 0 and 1")) {
            try NotificationSound.criticalNamed("w.aiff", volume: volume)
        }
    }

    @Test(arguments: [NotificationSound.Kind.named(""), .ringtone(""), .criticalNamed("", volume: 0.5)])
    func rejectsAnEmptyName(kind: NotificationSound.Kind) {
        #expect(throws: ChimeError(.invalidIdentifier, field: "name", "a sound name must not be empty")) {
            try NotificationSound(kind)
        }
    }

    @Test(arguments: [
        NotificationSound.default, .defaultRingtone, .defaultCritical,
        try NotificationSound.named("a.aiff"), try .ringtone("r.caf"), try .defaultCritical(volume: 0.5),
        try .criticalNamed("w.aiff", volume: 0.75),
    ])
    func roundTripsThroughJSON(sound: NotificationSound) throws {
        let data = try JSONEncoder().encode(sound)
        #expect(try JSONDecoder().decode(NotificationSound.self, from: data) == sound)
    }

    @Test func encodesKindNameAndVolume() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(NotificationSound.criticalNamed("w.aiff", volume: 0.5))
        #expect(String(decoding: data, as: UTF8.self) == #"{"kind":"criticalNamed","name":"w.aiff","volume":0.5}"#)
        #expect(String(decoding: try encoder.encode(NotificationSound.default), as: UTF8.self) == #"{"kind":"default"}"#)
    }

    @Test func decodingACriticalSoundWithoutVolumeGivesFullVolume() throws {
        let sound = try JSONDecoder().decode(NotificationSound.self, from: Data(#"{"kind":"defaultCritical"}"#.utf8))
        #expect(sound == .defaultCritical)
    }

    @Test(arguments: [
        (#"{"kind":"criticalNamed","name":"w.aiff","volume":2}"#, ChimeError.Code.valueOutOfRange),
        (#"{"kind":"defaultCritical","volume":-1}"#, .valueOutOfRange),
        (#"{"kind":"named","name":""}"#, .invalidIdentifier),
        (#"{"kind":"ringtone"}"#, .invalidIdentifier),
    ])
    func decodingRevalidates(json: String, code: ChimeError.Code) {
        let error = #expect(throws: ChimeError.self) {
            try JSONDecoder().decode(NotificationSound.self, from: Data(json.utf8))
        }
        #expect(error?.code == code)
    }

    @Test func decodingAnUnknownKindFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(NotificationSound.self, from: Data(#"{"kind":"loud"}"#.utf8))
        }
    }
}
