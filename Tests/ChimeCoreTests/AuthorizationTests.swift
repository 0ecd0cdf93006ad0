import ChimeCore
import Foundation
import Testing

@Suite struct AuthorizationTests {
    @Test(arguments: [
        (AuthorizationOptions.badge, UInt(1)), (.sound, 2), (.alert, 4), (.carPlay, 8), (.criticalAlert, 16),
        (.providesAppNotificationSettings, 32), (.provisional, 64), (.announcement, 128), (.timeSensitive, 256),
    ])
    func optionsHaveApplesRawValues(option: AuthorizationOptions, raw: UInt) {
        #expect(option.rawValue == raw)
    }

    @Test(arguments: [
        (AuthorizationStatus.notDetermined, 0), (.denied, 1), (.authorized, 2), (.provisional, 3), (.ephemeral, 4),
    ])
    func statusesHaveApplesRawValues(status: AuthorizationStatus, raw: Int) {
        #expect(status.rawValue == raw)
        #expect(AuthorizationStatus(rawValue: raw) == status)
    }

    @Test func onlyAGrantedStatusAllowsDelivery() {
        #expect(AuthorizationStatus.allCases.filter(\.allowsDelivery) == [.authorized, .provisional, .ephemeral])
    }

    @Test func theSeedsRequestsEncodeAsOptionNames() throws {
        let encoder = JSONEncoder()
        let provisional: AuthorizationOptions = [.badge, .sound, .alert, .provisional]
        let critical: AuthorizationOptions = [.badge, .sound, .alert, .criticalAlert]
        #expect(String(decoding: try encoder.encode(provisional), as: UTF8.self) == #"["badge","sound","alert","provisional"]"#)
        #expect(String(decoding: try encoder.encode(critical), as: UTF8.self) == #"["badge","sound","alert","criticalAlert"]"#)
        #expect(try JSONDecoder().decode(AuthorizationOptions.self, from: Data("71".utf8)) == provisional)
    }

    @Test func optionsRoundTripThroughJSON() throws {
        let every = AuthorizationOptions(rawValue: 0x1FF)
        #expect(try JSONDecoder().decode(AuthorizationOptions.self, from: JSONEncoder().encode(every)) == every)
    }

    @Test func statusEncodesAsItsNameAndDecodesNameOrRawValue() throws {
        #expect(String(decoding: try JSONEncoder().encode([AuthorizationStatus.notDetermined, .provisional]), as: UTF8.self)
            == #"["notDetermined","provisional"]"#)
        #expect(try JSONDecoder().decode([AuthorizationStatus].self, from: Data(#"["ephemeral", 1]"#.utf8)) == [.ephemeral, .denied])
    }

    @Test(arguments: [#"["granted"]"#, "[5]", "[-1]", "[true]"])
    func decodingAnUnknownStatusFails(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([AuthorizationStatus].self, from: Data(json.utf8))
        }
    }

    @Test func decodingAnUnknownOptionNameFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AuthorizationOptions.self, from: Data(#"["alert","vibrate"]"#.utf8))
        }
    }
}
