/// One D-Bus value, copied out of (or into) an sd-bus message, so no C pointer outlives the message.
///
/// The cases follow the D-Bus type system (https://dbus.freedesktop.org/doc/dbus-specification.html#type-system):
/// a dictionary `a{sv}` is an `.array` of `.dictEntry` values, and every container carries its element
/// signature so that an empty one can still be written.
///
/// ```swift
/// let hints: BusValue = .dictionary(["urgency": .variant(.byte(2))])
/// hints.signature                 // "a{sv}"
/// ```
indirect enum BusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor's index in the message; read, never written (nothing here passes descriptors).
    case unixFD(Int32)
    /// `a<element>`: values that all have `elementSignature`.
    case array(elementSignature: String, [BusValue])
    /// `{kv}`, only inside an array.
    case dictEntry(BusValue, BusValue)
    /// `(...)`.
    case structure([BusValue])
    /// `v`: a value with its own signature.
    case variant(BusValue)

    /// The value's D-Bus type signature.
    var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// `as`.
    static func strings(_ strings: [String]) -> BusValue {
        .array(elementSignature: "s", strings.map(BusValue.string))
    }

    /// `a{sv}`, keys sorted so that a message's bytes do not depend on dictionary order.
    static func dictionary(_ entries: [String: BusValue]) -> BusValue {
        .array(
            elementSignature: "{sv}",
            entries.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .variant($0.value)) })
    }

    // MARK: Reading

    var string: String? {
        switch self {
        case .string(let value), .objectPath(let value), .signature(let value): value
        case .variant(let inner): inner.string
        default: nil
        }
    }

    var bool: Bool? {
        switch self {
        case .boolean(let value): value
        case .variant(let inner): inner.bool
        default: nil
        }
    }

    var double: Double? {
        switch self {
        case .double(let value): value
        case .variant(let inner): inner.double
        default: nil
        }
    }

    var uint64: UInt64? {
        switch self {
        case .uint64(let value): value
        case .variant(let inner): inner.uint64
        default: nil
        }
    }

    var uint32: UInt32? {
        switch self {
        case .uint32(let value): value
        case .variant(let inner): inner.uint32
        default: nil
        }
    }

    /// The strings of an `as` (`nil` for anything else).
    var strings: [String]? {
        guard case .array(_, let elements) = self else { return variantValue?.strings }
        let strings = elements.compactMap(\.string)
        return strings.count == elements.count ? strings : nil
    }

    /// The entries of an `a{s…}` by key, variants unwrapped one level (`nil` for anything else).
    var dictionary: [String: BusValue]? {
        guard case .array(_, let elements) = self else { return variantValue?.dictionary }
        var result: [String: BusValue] = [:]
        for element in elements {
            guard case .dictEntry(let key, let value) = element, let name = key.string else { return nil }
            result[name] = value.variantValue ?? value
        }
        return result
    }

    /// The inside of a `.variant`.
    var variantValue: BusValue? {
        if case .variant(let inner) = self { return inner }
        return nil
    }
}
