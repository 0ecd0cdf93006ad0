import Foundation

/// An IPv4 or IPv6 address, as bytes in network order (4 or 16).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public var isIPv4: Bool { bytes.count == 4 }

    /// Reads a numeric address (`192.0.2.1`, `2001:db8::1`, `::ffff:10.0.0.1`); `nil` for anything else,
    /// names included: nothing is looked up.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: v6) { Array($0) }
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The IPv4 address an IPv6 one carries where the kernel or a translator would reach that address:
    /// IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated), NAT64 (`64:ff9b::/96`) and
    /// 6to4 (`2002:AABB:CCDD::/48`).
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let zeros = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeros && bytes[10] == 0xff && bytes[11] == 0xff { return IPAddress(bytes: Array(bytes[12..<16])) }
        // IPv4-compatible, which RFC 4291 defines without `::` and `::1` (those are themselves).
        if zeros && bytes[10] == 0 && bytes[11] == 0 && (bytes[12] != 0 || bytes[13] != 0 || bytes[14] != 0 || bytes[15] > 1) {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return IPAddress(bytes: Array(bytes[12..<16])) }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    /// Whether the address lies in `network` (its first `prefixLength` bits equal).
    public func isIn(_ network: IPAddress, prefixLength: Int) -> Bool {
        guard network.bytes.count == bytes.count, (0...bytes.count * 8).contains(prefixLength) else { return false }
        for bit in 0..<prefixLength {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if bytes[bit / 8] & mask != network.bytes[bit / 8] & mask { return false }
        }
        return true
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { _ = inet_ntop(isIPv4 ? AF_INET : AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A network in CIDR notation (`10.0.0.0/8`, `fd00::/8`; an address alone is one host).
public struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(String(parts[0])) else { return nil }
        let maximum = address.bytes.count * 8
        if parts.count == 2 {
            guard parts[1].allSatisfy(\.isASCII), let length = Int(parts[1]), String(length) == parts[1], (0...maximum).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = maximum
        }
        self.address = address
    }

    public func contains(_ other: IPAddress) -> Bool { other.isIn(address, prefixLength: prefixLength) }

    public var description: String { "\(address)/\(prefixLength)" }
}
