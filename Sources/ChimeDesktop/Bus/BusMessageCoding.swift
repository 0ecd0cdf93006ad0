import CSystemd

/// Writes `BusValue`s into an sd-bus message and reads them back out, with sd-bus's non-variadic calls
/// (`sd_bus_message_append` and `sd_bus_message_read` are variadic, which Swift cannot call).
///
/// Only the bus thread touches messages (see `BusConnection`); values leave as Swift copies.
enum BusMessageCoding {
    /// Appends `values` in order.
    static func append(_ values: [BusValue], to message: OpaquePointer) throws(DesktopError) {
        for value in values { try append(value, to: message) }
    }

    private static func append(_ value: BusValue, to message: OpaquePointer) throws(DesktopError) {
        func check(_ result: Int32) throws(DesktopError) {
            if result < 0 { throw DesktopError(.invalidMessage, errno: result, "writing a value of type \(value.signature)") }
        }
        func basic<T>(_ type: String, _ value: T) throws(DesktopError) {
            var copy = value
            try check(withUnsafeMutablePointer(to: &copy) { sd_bus_message_append_basic(message, code(type), $0) })
        }
        func text(_ type: String, _ string: String) throws(DesktopError) {
            // D-Bus strings end at the first NUL; refuse rather than send a shortened text.
            guard !string.utf8.contains(0) else { throw DesktopError(.invalidMessage, "a D-Bus string cannot contain NUL") }
            // For strings sd-bus takes the characters themselves, not a pointer to them.
            try check(string.withCString { sd_bus_message_append_basic(message, code(type), $0) })
        }
        func container(_ type: String, _ contents: String, _ body: () throws(DesktopError) -> Void) throws(DesktopError) {
            try check(sd_bus_message_open_container(message, code(type), contents))
            try body()
            try check(sd_bus_message_close_container(message))
        }

        switch value {
        case .byte(let byte): try basic("y", byte)
        case .boolean(let flag): try basic("b", Int32(flag ? 1 : 0))  // a C int
        case .int16(let number): try basic("n", number)
        case .uint16(let number): try basic("q", number)
        case .int32(let number): try basic("i", number)
        case .uint32(let number): try basic("u", number)
        case .int64(let number): try basic("x", number)
        case .uint64(let number): try basic("t", number)
        case .double(let number): try basic("d", number)
        case .string(let string): try text("s", string)
        case .objectPath(let path): try text("o", path)
        case .signature(let signature): try text("g", signature)
        case .unixFD: throw DesktopError(.invalidMessage, "passing file descriptors is not supported")
        case .array(let element, let items):
            try container("a", element) { () throws(DesktopError) in
                for item in items { try append(item, to: message) }
            }
        case .dictEntry(let key, let entry):
            try container("e", key.signature + entry.signature) { () throws(DesktopError) in
                try append(key, to: message)
                try append(entry, to: message)
            }
        case .structure(let fields):
            try container("r", fields.map(\.signature).joined()) { () throws(DesktopError) in
                for field in fields { try append(field, to: message) }
            }
        case .variant(let inner):
            try container("v", inner.signature) { () throws(DesktopError) in try append(inner, to: message) }
        }
    }

    /// Reads every value left in `message` (or in the container it is in).
    static func readAll(from message: OpaquePointer) throws(DesktopError) -> [BusValue] {
        var values: [BusValue] = []
        while let value = try readNext(from: message) { values.append(value) }
        return values
    }

    /// The next value, or `nil` at the end of the message or container.
    private static func readNext(from message: OpaquePointer) throws(DesktopError) -> BusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contentsPointer)
        if peeked < 0 { throw DesktopError(.invalidMessage, errno: peeked, "reading a message") }
        if peeked == 0 { return nil }
        // Copied now: the pointer is only good until the next call on the message.
        let contents = contentsPointer.map { String(cString: $0) } ?? ""

        func check(_ result: Int32) throws(DesktopError) {
            if result < 0 { throw DesktopError(.invalidMessage, errno: result, "reading a value") }
        }
        func basic<T>(_ initial: T) throws(DesktopError) -> T {
            var value = initial
            try check(withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, type, $0) })
            return value
        }
        func text() throws(DesktopError) -> String {
            var pointer: UnsafePointer<CChar>?
            try check(sd_bus_message_read_basic(message, type, &pointer))
            return pointer.map { String(cString: $0) } ?? ""
        }
        func container(_ body: () throws(DesktopError) -> BusValue) throws(DesktopError) -> BusValue {
            try check(sd_bus_message_enter_container(message, type, contents))
            let value = try body()
            try check(sd_bus_message_exit_container(message))
            return value
        }

        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try basic(UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try basic(Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try basic(Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try basic(UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(Double(0)))
        case UInt8(ascii: "h"): return .unixFD(try basic(Int32(0)))
        case UInt8(ascii: "s"): return .string(try text())
        case UInt8(ascii: "o"): return .objectPath(try text())
        case UInt8(ascii: "g"): return .signature(try text())
        case UInt8(ascii: "a"):
            return try container { () throws(DesktopError) in .array(elementSignature: contents, try readAll(from: message)) }
        case UInt8(ascii: "e"):
            return try container { () throws(DesktopError) in
                let fields = try readAll(from: message)
                guard fields.count == 2 else { throw DesktopError(.invalidMessage, "a dictionary entry without two fields") }
                return .dictEntry(fields[0], fields[1])
            }
        case UInt8(ascii: "r"):
            return try container { () throws(DesktopError) in .structure(try readAll(from: message)) }
        case UInt8(ascii: "v"):
            return try container { () throws(DesktopError) in
                guard let inner = try readNext(from: message) else { throw DesktopError(.invalidMessage, "an empty variant") }
                return .variant(inner)
            }
        default:
            throw DesktopError(.invalidMessage, "an unknown D-Bus type code \(type)")
        }
    }

    /// A D-Bus type code as the `char` sd-bus takes.
    static func code(_ type: String) -> CChar {
        CChar(bitPattern: type.utf8.first ?? 0)
    }
}
