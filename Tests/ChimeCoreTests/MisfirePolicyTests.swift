import ChimeCore
import Foundation
import Testing

@Suite struct MisfirePolicyTests {
    @Test func defaultIsToDeliverLate() {
        #expect(MisfirePolicy.default == .deliverLate)
    }

    @Test func encodesAsItsName() throws {
        let data = try JSONEncoder().encode(MisfirePolicy.allCases)
        #expect(String(decoding: data, as: UTF8.self) == #"["deliverLate","skip"]"#)
        #expect(try JSONDecoder().decode([MisfirePolicy].self, from: data) == [.deliverLate, .skip])
    }

    @Test func decodingAnUnknownPolicyFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([MisfirePolicy].self, from: Data(#"["retry"]"#.utf8))
        }
    }
}
