@testable import ChimeCore
import Testing

@Suite struct StrictJSONParserTests {
    private func parse(_ json: String) throws(ChimeError) -> JSONValue {
        try StrictJSONParser.parse(Array(json.utf8))
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#"{"n":null,"t":true,"f":false,"i":-17,"d":2.5,"e":1E3,"s":"x","a":[1,"two",[]],"o":{"k":{}}}"#)
        #expect(value == ["n": nil, "t": true, "f": false, "i": -17, "d": 2.5, "e": 1000, "s": "x", "a": [1, "two", []], "o": ["k": [:]]])
    }

    @Test func parsesTopLevelScalarsSurroundedByWhitespace() throws {
        #expect(try parse(" \t\r\n42\n") == 42)
        #expect(try parse(#""text""#) == "text")
        #expect(try parse("null") == nil)
    }

    @Test func keepsIntegersExactAndMakesFractionsAndExponentsDoubles() throws {
        guard case .int(9_007_199_254_740_993) = try parse("9007199254740993") else {
            Issue.record("an integer within Int should stay exact")
            return
        }
        guard case .double(2) = try parse("2.0") else {
            Issue.record("2.0 should be a double")
            return
        }
        guard case .double(100) = try parse("1e2") else {
            Issue.record("1e2 should be a double")
            return
        }
        guard case .double = try parse("18446744073709551616") else {
            Issue.record("an integer beyond Int should be a double")
            return
        }
        #expect(try parse("-0") == 0)
        #expect(try parse("0.1") == 0.1)
        #expect(try parse("-1.5e-7") == -1.5e-7)
    }

    @Test func decodesEveryEscapeAndKeepsRawUTF8() throws {
        let value = try parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \uD83D\uDE00 한글 😀""#)
        #expect(value == "q\" b\\ s/ \u{08}\u{0C}\n\r\t é 😀 한글 😀")
    }

    @Test(arguments: [
        ("", nil, "the text ends too early"),
        ("   ", nil, "the text ends too early"),
        (#"{"a":1,}"#, nil, "a trailing comma"),
        (#"{"a":[1,2,]}"#, "a", "a trailing comma"),
        (#"[1,]"#, nil, "a trailing comma"),
        (#"{"a":{"b":1,},}"#, "a", "a trailing comma"),
        (#"{"a":1,"a":2}"#, "a", "a key appears twice"),
        (#"{"a":{"b":1,"b":1}}"#, "a.b", "a key appears twice"),
        (#"{'a':1}"#, nil, "expected a key in quotes"),
        (#"{a:1}"#, nil, "expected a key in quotes"),
        (#"{"a" 1}"#, nil, "expected a colon after a key"),
        (#"{"a":1 "b":2}"#, nil, "expected a comma or a closing brace"),
        (#"[1 2]"#, nil, "expected a comma or a closing bracket"),
        (#"{"a":1"#, nil, "expected a comma or a closing brace"),
        (#"{"a":"#, "a", "the text ends too early"),
        (#"{"a":1} x"#, nil, "text follows the JSON value"),
        (#"{"a":1}{}"#, nil, "text follows the JSON value"),
        ("/* note */ {}", nil, "an unexpected character"),
        ("\u{FEFF}{}", nil, "an unexpected character"),
        (#"{"a":tru}"#, "a", "an unexpected character"),
        (#"{"a":True}"#, "a", "an unexpected character"),
        (#"{"a":NaN}"#, "a", "an unexpected character"),
        (#"{"a":+1}"#, "a", "an unexpected character"),
        (#"{"a":.5}"#, "a", "an unexpected character"),
        (#"{"a":01}"#, "a", "a number has a leading zero"),
        (#"{"a":-}"#, "a", "an invalid number"),
        (#"{"a":1.}"#, "a", "an invalid number"),
        (#"{"a":1e}"#, "a", "an invalid number"),
        (#"{"a":[0,1e999]}"#, "a[1]", "a number is too large"),
        (#"{"a":"tab\#tinside"}"#, "a", "a string holds an unescaped control character"),
        (#"{"a":"line\#nbreak"}"#, "a", "a string holds an unescaped control character"),
        (#"{"a":"\x"}"#, "a", "a string holds an invalid escape"),
        (#"{"a":"\u12"}"#, "a", "a string holds an invalid escape"),
        (#"{"a":"\uD800"}"#, "a", "a string holds a lone surrogate escape"),
        (#"{"a":"\uD800\u0041"}"#, "a", "a string holds a lone surrogate escape"),
        (#"{"a":"\uDC00"}"#, "a", "a string holds a lone surrogate escape"),
        (#"{"a":"open"#, "a", "a string is not closed"),
    ] as [(String, String?, String)])
    func rejectsWhatRFC8259DoesNotAllow(json: String, field: String?, reason: String) {
        #expect(throws: ChimeError(.invalidPayload, field: field, "the payload is not valid JSON: \(reason)")) {
            try parse(json)
        }
    }

    @Test func rejectsInvalidUTF8InAString() {
        var bytes = Array(#"{"a":"xy"}"#.utf8)
        bytes[6] = 0xFF
        #expect(throws: ChimeError(.invalidPayload, field: "a", "the payload is not valid JSON: a string is not valid UTF-8")) {
            try StrictJSONParser.parse(bytes)
        }
    }

    @Test func acceptsNestingUpToTheLimitAndRejectsOneLevelMore() throws {
        let depth = StrictJSONParser.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try parse(deepest)
        let tooDeep = "[" + deepest + "]"
        let error = #expect(throws: ChimeError.self) { try parse(tooDeep) }
        #expect(error?.code == .invalidPayload)
        #expect(error?.message == "the payload is not valid JSON: the payload nests deeper than 64 levels")
    }

    @Test func errorsNeverQuoteTheInput() {
        for json in [#"{"a":"SECRET"#, #"{"a":SECRET}"#, #"{"a":"SECRET\q"}"#, #"{"a":1,"a":"SECRET"}"#] {
            let error = #expect(throws: ChimeError.self) { try parse(json) }
            #expect(error.map { !"\($0)".contains("SECRET") } == true)
        }
    }
}
