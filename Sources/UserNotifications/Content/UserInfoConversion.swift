#if !canImport(Darwin)
import ChimeCore
import Foundation

/// `userInfo` between Apple's `[AnyHashable: Any]` and Chime's JSON.
///
/// Chime stores and transmits `userInfo` as JSON, so only what JSON holds is accepted: `String` (and
/// `NSString`), `Bool`, integers, `Double` and `Float`, `NSNumber`, `NSNull` (and `nil` optionals, as
/// null), arrays of these, and dictionaries with `String` keys. Apple also accepts `Date` and `Data`
/// (property-list types); Chime refuses them, and any other object, when the request is added.
///
/// Read back, numbers are `Int` or `Double`, texts `String`, null `NSNull`, arrays `[Any]` and
/// dictionaries `[String: Any]`, so `userInfo["id"] as? Int` and `as? [String: Any]` work as on iOS.
enum UserInfoConversion {
    static func json(_ userInfo: [AnyHashable: Any]) throws(ChimeError) -> [String: JSONValue] {
        try object(userInfo, path: "userInfo")
    }

    static func foundation(_ json: [String: JSONValue]) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for (key, value) in json {
            result[key] = foundation(value)
        }
        return result
    }

    private static func foundation(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let bool): bool
        case .int(let int): int
        case .double(let double): double
        case .string(let string): string
        case .array(let elements): elements.map(foundation) as [Any]
        case .object(let members): members.mapValues(foundation) as [String: Any]
        }
    }

    private static func object(_ dictionary: [AnyHashable: Any], path: String) throws(ChimeError) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for (key, value) in dictionary {
            guard let name = key.base as? String else {
                throw ChimeError(.invalidPayload, field: path, "userInfo keys must be strings")
            }
            members[name] = try json(value, path: "\(path).\(name)")
        }
        return members
    }

    /// The exact type decides, before any bridging: on Linux `NSNumber(value: 1) is Bool` holds, and a
    /// native `true` bridges to `NSNumber`.
    private static func json(_ value: Any, path: String) throws(ChimeError) -> JSONValue {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return try json(wrapped, path: path)
        }
        switch value {
        case is NSNull:
            return .null
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            return json(number)
        case let bool as Bool:
            return .bool(bool)
        case let int as Int: return .int(int)
        case let int as Int8: return .int(Int(int))
        case let int as Int16: return .int(Int(int))
        case let int as Int32: return .int(Int(int))
        case let int as Int64: return .int(Int(int))
        case let int as UInt8: return .int(Int(int))
        case let int as UInt16: return .int(Int(int))
        case let int as UInt32: return .int(Int(int))
        case let int as UInt: return Int(exactly: int).map(JSONValue.int) ?? .double(Double(int))
        case let int as UInt64: return Int(exactly: int).map(JSONValue.int) ?? .double(Double(int))
        case let double as Double: return .double(double)
        case let float as Float: return .double(Double(float))
        case let string as String:
            return .string(string)
        case let elements as [Any]:
            var array: [JSONValue] = []
            for (index, element) in elements.enumerated() {
                array.append(try json(element, path: "\(path)[\(index)]"))
            }
            return .array(array)
        case let dictionary as [AnyHashable: Any]:
            return .object(try object(dictionary, path: path))
        default:
            throw ChimeError(
                .invalidPayload, field: path,
                "userInfo values must be JSON: strings, numbers, booleans, NSNull, arrays and dictionaries with string keys (not Date, Data or other objects)")
        }
    }

    private static let booleanNumberType = type(of: NSNumber(value: true))

    private static func json(_ number: NSNumber) -> JSONValue {
        if booleanNumberType != NSNumber.self, type(of: number) == booleanNumberType {
            return .bool(number.boolValue)
        }
        switch String(cString: number.objCType) {
        case "f", "d":
            return .double(number.doubleValue)
        case "Q", "L":
            return Int(exactly: number.uint64Value).map(JSONValue.int) ?? .double(number.doubleValue)
        default:
            return .int(number.intValue)
        }
    }
}
#endif
