import Foundation
import Testing

@testable import ChimeCore

@Suite("Named case coding")
struct NamedCaseCodingTests {
    /// The name tables must list the Swift case names in raw-value order; a case added without its name
    /// would encode as another case's.
    @Test func everyCaseEncodesAsItsOwnNameAndDecodesBack() throws {
        func check<Value: NamedCaseCodable & Equatable>(_ type: Value.Type) throws {
            #expect(Value.caseNames.count == Value.allCases.count)
            for value in Value.allCases {
                let encoded = try JSONEncoder().encode(value)
                #expect(String(decoding: encoded, as: UTF8.self) == "\"\(String(describing: value))\"")
                #expect(try JSONDecoder().decode(Value.self, from: encoded) == value)
                #expect(try JSONDecoder().decode(Value.self, from: Data("\(value.rawValue)".utf8)) == value)
            }
        }
        try check(AlertStyle.self)
        try check(AuthorizationStatus.self)
        try check(NotificationSetting.self)
        try check(ShowPreviewsSetting.self)
    }
}
