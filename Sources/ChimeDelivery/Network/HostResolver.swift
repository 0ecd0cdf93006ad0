import Foundation

/// Names to addresses through the system's resolver (`getaddrinfo`), so that a webhook's host is judged by
/// every address it has and then reached at one of exactly those (no second lookup a DNS server could
/// answer differently).
enum HostResolver {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Every address of `host` (a name, or a numeric address as it is), in the resolver's order, once each.
    static func addresses(of host: String) throws(Failure) -> [IPAddress] {
        if let numeric = IPAddress(host) { return [numeric] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(description: "\(host) does not resolve: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var found: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socket = current.pointee.ai_addr {
                let address: IPAddress?
                switch current.pointee.ai_family {
                case AF_INET:
                    address = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        withUnsafeBytes(of: v4.pointee.sin_addr) { IPAddress(bytes: Array($0)) }
                    }
                case AF_INET6:
                    address = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        withUnsafeBytes(of: v6.pointee.sin6_addr) { IPAddress(bytes: Array($0)) }
                    }
                default:
                    address = nil
                }
                if let address, !found.contains(address) { found.append(address) }
            }
            entry = current.pointee.ai_next
        }
        guard !found.isEmpty else { throw Failure(description: "\(host) has no IPv4 or IPv6 address") }
        return found
    }
}
