import ChimeDelivery
import ChimeTestSupport
import Foundation
import Testing

/// Which addresses a webhook may be sent to, against Python's `ipaddress` module as the independent
/// judge (`address_oracle.py`), and the tenant's allow list.
@Suite("Outbound address policy")
struct OutboundAddressPolicyTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("address_oracle.py").path

    /// The addresses everyone thinks of, by name.
    @Test(arguments: [
        ("127.0.0.1", false), ("169.254.169.254", false), ("10.1.2.3", false), ("172.31.255.255", false), ("172.32.0.0", true),
        ("192.168.0.1", false), ("100.64.0.1", false), ("0.0.0.0", false), ("255.255.255.255", false), ("224.0.0.1", false),
        ("8.8.8.8", true), ("1.1.1.1", true), ("::1", false), ("::", false), ("fe80::1", false), ("fd12:3456::1", false),
        ("ff02::1", false), ("::ffff:127.0.0.1", false), ("::ffff:8.8.8.8", true), ("64:ff9b::a9fe:a9fe", false), ("64:ff9b::808:808", true),
        ("2002:7f00:1::1", false), ("2002:808:808::1", false), ("2606:4700:4700::1111", true), ("2001:db8::1", false),
    ])
    func wellKnownAddresses(text: String, allowed: Bool) throws {
        let address = try #require(IPAddress(text))
        #expect((OutboundAddressPolicy().refusal(address) == nil) == allowed, "\(text)")
    }

    /// A tenant opens private networks only; the node's operator opens anything, loopback included.
    @Test func aTenantOpensPrivateNetworksAndTheOperatorTheRest() throws {
        let policy = OutboundAddressPolicy(
            allowed: [try #require(IPNetwork("10.20.0.0/16")), try #require(IPNetwork("127.0.0.1")), try #require(IPNetwork("169.254.0.0/16"))],
            operatorAllowed: [try #require(IPNetwork("127.0.0.2"))])
        #expect(policy.refusal(try #require(IPAddress("10.20.255.1"))) == nil)
        #expect(policy.refusal(try #require(IPAddress("10.21.0.1")))?.contains("tenant's allow list") == true)
        #expect(policy.refusal(try #require(IPAddress("127.0.0.1")))?.contains("only the node's operator") == true, "a tenant cannot open loopback")
        #expect(policy.refusal(try #require(IPAddress("169.254.169.254")))?.contains("link-local") == true, "nor the metadata service")
        #expect(policy.refusal(try #require(IPAddress("127.0.0.2"))) == nil, "the operator can")
        #expect(policy.refusal(try #require(IPAddress("8.8.8.8"))) == nil)

        for (network, may) in [
            ("10.0.0.0/8", true), ("10.1.2.3", true), ("172.16.0.0/12", true), ("172.31.0.0/16", true), ("192.168.1.0/24", true),
            ("100.64.0.0/10", true), ("fd00::/8", true), ("fc00::/7", true), ("0.0.0.0/0", false), ("10.0.0.0/7", false), ("127.0.0.1", false),
            ("169.254.169.254", false), ("::1", false), ("fe80::/10", false), ("::/0", false), ("8.8.8.8", false), ("::ffff:10.0.0.1", false),
        ] {
            #expect(OutboundAddressPolicy.tenantMayOpen(try #require(IPNetwork(network))) == may, "\(network)")
        }
        for bad in ["10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.0/ 8", "10.0.0.0/08", "example.com/8", "", "::/129"] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
    }

    @Test func onlyNumericAddressesAreRead() {
        for text in ["localhost", "127.1", "0x7f.0.0.1", "127.0.0.1 ", "[::1]", "1.2.3.4.5", "::1%lo", "256.0.0.1", ""] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
        #expect(IPAddress("::ffff:10.0.0.1")?.description == "::ffff:10.0.0.1")
        #expect(IPAddress("::1")?.embeddedIPv4 == nil && IPAddress("::")?.embeddedIPv4 == nil)
        #expect(IPAddress("::0.0.0.2")?.embeddedIPv4 == IPAddress("0.0.0.2"))
        #expect(OutboundAddressPolicy.specialPurpose(IPAddress("::1")!) == "loopback")
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
    }

    /// Every block's edges and neighbours, well-known forms, and many random addresses of both families
    /// (half of the IPv6 ones inside special-purpose blocks or wrapping an IPv4 address): the policy and the
    /// oracle agree on each.
    @Test func agreesWithPythonsIpaddressOnManyAddresses() async throws {
        var generator = SystemRandomNumberGenerator()
        var addresses: [IPAddress] = []
        func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        func from(_ network: IPAddress, length: Int, _ fill: [UInt8]) -> IPAddress {
            var bytes = network.bytes
            for bit in length..<(bytes.count * 8) {
                let mask = UInt8(0x80) >> UInt8(bit % 8)
                bytes[bit / 8] = (bytes[bit / 8] & ~mask) | (fill[bit / 8] & mask)
            }
            return IPAddress(bytes: bytes)!
        }
        let blocks = [
            "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
            "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24", "192.168.0.0/16", "192.175.48.0/24", "198.18.0.0/15", "198.51.100.0/24",
            "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "::/128", "::1/128", "::ffff:0:0/96", "::/96", "64:ff9b::/96", "64:ff9b:1::/48",
            "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "2620:4f:8000::/48", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10",
            "fec0::/10", "ff00::/8",
        ].map { IPNetwork($0)! }
        for block in blocks {
            let size = block.address.bytes.count
            let first = from(block.address, length: block.prefixLength, [UInt8](repeating: 0, count: size))
            let last = from(block.address, length: block.prefixLength, [UInt8](repeating: 255, count: size))
            addresses += [first, last, Self.step(first, by: -1), Self.step(last, by: 1)].compactMap(\.self)
            for _ in 0..<200 { addresses.append(from(block.address, length: block.prefixLength, random(size))) }
        }
        for _ in 0..<20_000 { addresses.append(IPAddress(bytes: random(4))!) }
        for _ in 0..<5_000 { addresses.append(IPAddress(bytes: random(16))!) }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("chime-addresses-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data((addresses.map(\.description).joined(separator: "\n") + "\n").utf8).write(to: input)
        let verdicts = try await Subprocess.run("/usr/bin/python3", [Self.oracle, input.path])
        #expect(verdicts.status == 0, "\(verdicts.standardError)")
        let lines = verdicts.standardOutput.split(separator: "\n")
        try #require(lines.count == addresses.count, "the oracle answered for each address")
        var disagreements: [String] = []
        for (address, verdict) in zip(addresses, lines) where (OutboundAddressPolicy().refusal(address) != nil) != (verdict == "refuse") {
            disagreements.append("\(address): oracle \(verdict)")
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    /// The address one step before or after (`nil` past either end).
    static func step(_ address: IPAddress, by delta: Int) -> IPAddress? {
        var bytes = address.bytes
        var index = bytes.count - 1
        while index >= 0 {
            if delta > 0 {
                if bytes[index] < 255 { bytes[index] += 1; return IPAddress(bytes: bytes) }
                bytes[index] = 0
            } else {
                if bytes[index] > 0 { bytes[index] -= 1; return IPAddress(bytes: bytes) }
                bytes[index] = 255
            }
            index -= 1
        }
        return nil
    }
}
