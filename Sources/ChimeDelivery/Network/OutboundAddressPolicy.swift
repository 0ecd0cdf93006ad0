import Foundation

/// Where Chime may send a tenant's webhooks: only to addresses the public internet routes, unless the
/// tenant's allow list names the network. This keeps a webhook URL from reaching the node's own services
/// (loopback), its cloud's metadata service (link-local), or the private networks behind it (SSRF).
///
/// "Routed on the public internet" is IANA's special-purpose address registries read strictly
/// (https://www.iana.org/assignments/iana-ipv4-special-registry, …/iana-ipv6-special-registry): every block
/// they list is refused, whether or not a few addresses inside it are marked globally reachable, and so is
/// multicast. An IPv6 form that reaches an IPv4 address (mapped, compatible, NAT64, 6to4) is refused when
/// that IPv4 address would be; an IPv4-mapped one is otherwise judged as the IPv4 address it is (a socket
/// connected to `::ffff:8.8.8.8` reaches 8.8.8.8), as CPython's `ipaddress` judges it.
public struct OutboundAddressPolicy: Sendable {
    /// Networks the tenant allowed although they are not public (a receiver on their own network, or a test's
    /// on loopback).
    public let allowed: [IPNetwork]

    public init(allowed: [IPNetwork] = []) {
        self.allowed = allowed
    }

    /// Why an address is refused, for the delivery's error; `nil` when it may be called.
    public func refusal(_ address: IPAddress) -> String? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        if let reason = Self.specialPurpose(address) {
            return "\(address) is \(reason), not a public address (add it to the tenant's allow list to call it)"
        }
        return nil
    }

    /// The special-purpose block `address` is in, by name; `nil` for a public unicast address.
    public static func specialPurpose(_ address: IPAddress) -> String? {
        if let embedded = address.embeddedIPv4, let reason = specialPurpose(embedded) {
            return "\(reason) reached through IPv6"
        }
        let blocks = address.isIPv4 ? ipv4Blocks : ipv6Blocks
        return blocks.first { $0.network.contains(address) }?.name
    }

    static let ipv4Blocks: [(network: IPNetwork, name: String)] = [
        ("0.0.0.0/8", "\"this network\""), ("10.0.0.0/8", "a private network"), ("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "a private network"),
        ("192.0.0.0/24", "an IETF protocol assignment"), ("192.0.2.0/24", "documentation (TEST-NET-1)"),
        ("192.31.196.0/24", "AS112"), ("192.52.193.0/24", "AMT"), ("192.88.99.0/24", "the deprecated 6to4 relay anycast"),
        ("192.168.0.0/16", "a private network"), ("192.175.48.0/24", "AS112 direct delegation"), ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation (TEST-NET-2)"), ("203.0.113.0/24", "documentation (TEST-NET-3)"), ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"), ("255.255.255.255/32", "the limited broadcast address"),
    ].map { (IPNetwork($0.0)!, $0.1) }

    static let ipv6Blocks: [(network: IPNetwork, name: String)] = [
        ("::/128", "the unspecified address"), ("::1/128", "loopback"), ("::/96", "IPv4-compatible (deprecated)"),
        ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"), ("100::/64", "discard-only"), ("2001::/23", "an IETF protocol assignment"),
        ("2001:db8::/32", "documentation"), ("2002::/16", "6to4 (deprecated)"), ("2620:4f:8000::/48", "AS112"), ("3fff::/20", "documentation"), ("5f00::/16", "SRv6 SIDs"),
        ("fc00::/7", "unique local"), ("fe80::/10", "link-local"), ("fec0::/10", "site-local (deprecated)"), ("ff00::/8", "multicast"),
    ].map { (IPNetwork($0.0)!, $0.1) }
}
