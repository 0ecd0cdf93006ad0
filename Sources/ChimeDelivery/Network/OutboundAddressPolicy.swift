import Foundation

/// Where Chime may send a tenant's webhooks: only to addresses the public internet routes, unless the
/// network is opened. This keeps a webhook URL from reaching the node's own services (loopback), its
/// cloud's metadata service (link-local), or the private networks behind it (SSRF).
///
/// Two parties may open networks. A tenant may open private-use networks only (RFC 1918, shared address
/// space, unique local IPv6): a receiver on its own network. Everything else that is not public — loopback,
/// link-local, "this network", multicast and the rest — only the node's operator may open
/// (`chimed --webhook-allow`), since it reaches the node itself and what every tenant shares.
///
/// "Routed on the public internet" is IANA's special-purpose address registries read strictly
/// (https://www.iana.org/assignments/iana-ipv4-special-registry, …/iana-ipv6-special-registry): every block
/// they list is refused, whether or not a few addresses inside it are marked globally reachable, and so is
/// multicast; the NAT64 prefix (`64:ff9b::/96`) is judged by the IPv4 address it carries. An IPv6 form that
/// reaches an IPv4 address (mapped, compatible, NAT64, 6to4) is refused when that IPv4 address would be;
/// an IPv4-mapped one is otherwise judged as the IPv4 address it is (a socket connected to
/// `::ffff:8.8.8.8` reaches 8.8.8.8), as CPython's `ipaddress` judges it.
public struct OutboundAddressPolicy: Sendable {
    /// Private-use networks the tenant opened (others in it count for nothing).
    public let allowed: [IPNetwork]
    /// Networks the node's operator opened, for every tenant: any address.
    public let operatorAllowed: [IPNetwork]

    public init(allowed: [IPNetwork] = [], operatorAllowed: [IPNetwork] = []) {
        self.allowed = allowed
        self.operatorAllowed = operatorAllowed
    }

    /// Why an address is refused, for the delivery's error; `nil` when it may be called.
    public func refusal(_ address: IPAddress) -> String? {
        if operatorAllowed.contains(where: { $0.contains(address) }) { return nil }
        guard let block = Self.specialPurposeBlock(address) else { return nil }
        if block.tenantMayOpen {
            if allowed.contains(where: { $0.contains(address) }) { return nil }
            return "\(address) is \(block.name), not a public address (add its network to the tenant's allow list to call it)"
        }
        return "\(address) is \(block.name), not a public address (only the node's operator can open it: chimed --webhook-allow)"
    }

    /// The special-purpose block `address` is in, by name; `nil` for a public unicast address.
    public static func specialPurpose(_ address: IPAddress) -> String? {
        specialPurposeBlock(address)?.name
    }

    /// Whether a tenant may open `network`: it lies inside one private-use block.
    public static func tenantMayOpen(_ network: IPNetwork) -> Bool {
        let blocks = network.address.isIPv4 ? ipv4Blocks : ipv6Blocks
        return blocks.contains { $0.tenantMayOpen && network.prefixLength >= $0.network.prefixLength && $0.network.contains(network.address) }
    }

    static func specialPurposeBlock(_ address: IPAddress) -> (name: String, tenantMayOpen: Bool)? {
        if let embedded = address.embeddedIPv4, let block = specialPurposeBlock(embedded) {
            return ("\(block.name) reached through IPv6", false)
        }
        let blocks = address.isIPv4 ? ipv4Blocks : ipv6Blocks
        return blocks.first { $0.network.contains(address) }.map { ($0.name, $0.tenantMayOpen) }
    }

    /// The private-use blocks, which a tenant may open.
    static let privateUse: Set<String> = ["10.0.0.0/8", "100.64.0.0/10", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]

    static let ipv4Blocks: [(network: IPNetwork, name: String, tenantMayOpen: Bool)] = [
        ("0.0.0.0/8", "\"this network\""), ("10.0.0.0/8", "a private network"), ("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "a private network"),
        ("192.0.0.0/24", "an IETF protocol assignment"), ("192.0.2.0/24", "documentation (TEST-NET-1)"),
        ("192.31.196.0/24", "AS112"), ("192.52.193.0/24", "AMT"), ("192.88.99.0/24", "the deprecated 6to4 relay anycast"),
        ("192.168.0.0/16", "a private network"), ("192.175.48.0/24", "AS112 direct delegation"), ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation (TEST-NET-2)"), ("203.0.113.0/24", "documentation (TEST-NET-3)"), ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"), ("255.255.255.255/32", "the limited broadcast address"),
    ].map { (IPNetwork($0.0)!, $0.1, privateUse.contains($0.0)) }

    static let ipv6Blocks: [(network: IPNetwork, name: String, tenantMayOpen: Bool)] = [
        ("::/128", "the unspecified address"), ("::1/128", "loopback"), ("::/96", "IPv4-compatible (deprecated)"),
        ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"), ("100::/64", "discard-only"), ("2001::/23", "an IETF protocol assignment"),
        ("2001:db8::/32", "documentation"), ("2002::/16", "6to4 (deprecated)"), ("2620:4f:8000::/48", "AS112"), ("3fff::/20", "documentation"), ("5f00::/16", "SRv6 SIDs"),
        ("fc00::/7", "unique local"), ("fe80::/10", "link-local"), ("fec0::/10", "site-local (deprecated)"), ("ff00::/8", "multicast"),
    ].map { (IPNetwork($0.0)!, $0.1, privateUse.contains($0.0)) }
}
