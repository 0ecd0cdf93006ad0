import ChimeCore
import Foundation
import Testing

@Suite struct JSONValueTests {
    private func decode(_ json: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    private func encode(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func literalsBuildTheMatchingCases() {
        let value: JSONValue = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1, "two"], "o": ["k": false]]
        #expect(value == .object([
            "n": .null, "b": .bool(true), "i": .int(3), "d": .double(2.5), "s": .string("x"),
            "a": .array([.int(1), .string("two")]), "o": .object(["k": .bool(false)]),
        ]))
    }

    @Test func dictionaryLiteralKeepsTheLastOfRepeatedKeys() {
        let value: JSONValue = ["k": 1, "k": 2]
        #expect(value == ["k": 2])
    }

    @Test func subscriptsReachNestedValues() {
        let info: JSONValue = ["order": ["id": 42, "items": ["tea", "cake"]]]
        #expect(info["order"]?["items"]?[1]?.stringValue == "cake")
        #expect(info["order"]?["id"]?.intValue == 42)
    }

    @Test func subscriptsReturnNilForMissingKeysOutOfBoundsIndicesAndWrongCases() {
        let info: JSONValue = ["list": [1]]
        #expect(info["missing"] == nil)
        #expect(info["list"]?[1] == nil)
        #expect(info["list"]?[-1] == nil)
        #expect(info[0] == nil)
        #expect(info["list"]?["key"] == nil)
    }

    @Test func accessorsReturnValuesOnlyForTheirCase() {
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.int(1).boolValue == nil)
        #expect(JSONValue.string("s").stringValue == "s")
        #expect(JSONValue.int(7).stringValue == nil)
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.int(0).isNull)
        #expect(JSONValue.array([1]).arrayValue == [.int(1)])
        #expect(JSONValue.object(["a": 1]).objectValue == ["a": .int(1)])
        #expect(JSONValue.string("x").arrayValue == nil)
        #expect(JSONValue.string("x").objectValue == nil)
    }

    @Test func numberAccessorsConvertBetweenIntAndDoubleOnlyWhenExact() {
        #expect(JSONValue.int(3).doubleValue == 3)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.double(3.5).intValue == nil)
        #expect(JSONValue.double(1e300).intValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
    }

    @Test func numbersCompareAndHashByValue() {
        #expect(JSONValue.int(2) == .double(2))
        #expect(JSONValue.double(2) == .int(2))
        #expect(JSONValue.int(2) != .double(2.5))
        #expect(Set<JSONValue>([.int(2), .double(2), .double(-0.0), .int(0)]).count == 2)
        #expect(JSONValue.bool(true) != .int(1))
        #expect(JSONValue.string("1") != .int(1))
    }

    @Test func encodesToNaturalJSON() throws {
        let value: JSONValue = ["n": nil, "b": true, "i": 3, "d": 2.5, "s": "x", "a": [1, "two"], "o": ["k": false]]
        #expect(try encode(value) == #"{"a":[1,"two"],"b":true,"d":2.5,"i":3,"n":null,"o":{"k":false},"s":"x"}"#)
    }

    @Test func decodesAnyJSON() throws {
        let value = try decode(#"{"a":[1,"two",null],"b":true,"d":2.5,"big":1e300,"o":{"k":{}}}"#)
        #expect(value == ["a": [1, "two", nil], "b": true, "d": 2.5, "big": 1e300, "o": ["k": [:]]])
        #expect(try decode("[]") == [])
        #expect(try decode(#""text""#) == "text")
        #expect(try decode("null") == nil)
    }

    @Test func keepsIntegersExactAndDecodesFractionsAsDoubles() throws {
        #expect(try decode("9007199254740993") == .int(9_007_199_254_740_993))
        guard case .int = try decode("42") else {
            Issue.record("42 should decode as .int")
            return
        }
        guard case .double(let fraction) = try decode("0.1") else {
            Issue.record("0.1 should decode as .double")
            return
        }
        #expect(fraction == 0.1)
        guard case .double = try decode("18446744073709551615") else {
            Issue.record("a number beyond Int should decode as .double")
            return
        }
    }

    @Test func booleansStayBooleans() throws {
        #expect(try decode("true") == .bool(true))
        #expect(try decode("false") == .bool(false))
    }

    @Test(arguments: [
        JSONValue.null, true, 0, -17, .int(.max), .int(.min), 2.0, 0.1, -1.5e-7, "", "ünï €", [], [:],
        [1, [2, [3, ["deep": [nil]]]]], ["aps": ["alert": ["title": "Hi"], "badge": 3], "id": "x"],
    ])
    func roundTripsThroughJSON(value: JSONValue) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }

    @Test func userInfoDictionaryEncodesAsAnObject() throws {
        let userInfo: [String: JSONValue] = ["id": 1]
        let data = try JSONEncoder().encode(userInfo)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":1}"#)
    }
}
