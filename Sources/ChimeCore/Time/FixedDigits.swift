/// Reads exactly `count` ASCII digits of `bytes` at `index` as a number, moving `index` past them; `nil`
/// (and `index` left where it was) when there are fewer or any is not a digit. The fixed-width fields of
/// RFC 3339 and HTTP dates.
func fixedDigits(_ bytes: [UInt8], at index: inout Int, count: Int) -> Int? {
    guard bytes.count - index >= count else { return nil }
    var value = 0
    for byte in bytes[index..<index + count] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 0x30)
    }
    index += count
    return value
}
