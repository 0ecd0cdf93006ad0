import Foundation

/// A JSON file that does not fit what it should hold, said as a person fixes it: where (`[0].identifier`)
/// and what is wrong ("a number where text belongs"), never Swift's `DecodingError` dump.
enum DecodingProblem {
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            return "\(place(context.codingPath))\(kind(of: type)) was expected\(found(context))"
        case DecodingError.valueNotFound(let type, let context):
            return "\(place(context.codingPath))\(kind(of: type)) was expected, found null"
        case DecodingError.keyNotFound(let key, let context):
            return "\(place(context.codingPath))\"\(key.stringValue)\" is missing"
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case DecodingError.dataCorrupted(let context):
            return "\(place(context.codingPath))the value is not one it can take"
        default:
            return "\(error)"
        }
    }

    /// `at [0].actions[1].identifier: `, or nothing for the top level.
    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        var text = ""
        for key in path {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return "at \(text): "
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "a JSON array"
        case is [String: Any].Type: "a JSON object"
        default:
            String(describing: type).hasPrefix("Array") ? "a JSON array" : String(describing: type).hasPrefix("Dictionary") ? "a JSON object" : "another kind of value"
        }
    }

    /// `, found a number` from the context's description, when it says.
    private static func found(_ context: DecodingError.Context) -> String {
        let description = context.debugDescription
        guard let range = description.range(of: "but found ") else { return "" }
        var what = String(description[range.upperBound...])
        if let end = what.range(of: " instead") { what = String(what[..<end.lowerBound]) }
        let named = ["number": "a number", "string": "text", "a string": "text", "a dictionary": "an object", "bool": "true or false", "null": "null"]
        return ", found \(named[what] ?? what)"
    }
}
