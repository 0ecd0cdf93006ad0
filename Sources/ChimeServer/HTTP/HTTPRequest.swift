import Foundation
import Synchronization

/// How a request reached the server: which kind of listening socket, and on a Unix socket the user at the
/// other end.
public enum HTTPPeer: Sendable, Hashable {
    /// A Unix socket; `uid` and `pid` from `SO_PEERCRED`, `nil` when the kernel did not say.
    case unix(uid: UInt32?, pid: Int32?)
    /// A TCP socket (loopback by default).
    case tcp
}

/// A request's line and headers: what the server knows before it reads the body.
public struct HTTPRequestHead: Sendable {
    public var method: String
    /// The path as sent, still percent-encoded, without the query.
    public var path: String
    /// Query arguments, decoded, in order (a name may repeat).
    public var query: [(name: String, value: String)]
    /// Header names in lower case.
    public var headers: [String: String]
    public var peer: HTTPPeer

    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:], peer: HTTPPeer) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.peer = peer
    }

    /// The first value of a query argument.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The declared body length, when the request has a `Content-Length`.
    public var contentLength: Int? {
        headers["content-length"].flatMap { Int(HTTPText.trimmed($0)) }
    }
}

/// A whole request: its head, its body, and what the handler's `screen` made of the head.
public struct HTTPRequest: Sendable {
    public var head: HTTPRequestHead
    public var body: [UInt8]
    public var context: (any Sendable)?

    public init(head: HTTPRequestHead, body: [UInt8] = [], context: (any Sendable)? = nil) {
        self.head = head
        self.body = body
        self.context = context
    }
}

/// An answer: a status, headers, and either bytes or a stream that stays open (Server-Sent Events).
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        case stream(StreamingBody)
        /// A file sent from its descriptor (the kernel copies it; nothing is read into memory).
        case file(OpenFile)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A file opened for an answer: the server takes its descriptor (and closes it once sent); an answer that
/// is never sent closes it when dropped.
public final class OpenFile: Sendable {
    public let size: UInt64
    private let descriptor: Mutex<Int32?>

    /// Opens `path` to read, refusing anything but a regular file and never following a link.
    public init(path: String) throws(OpenFileError) {
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard opened >= 0 else { throw OpenFileError(errno: errno) }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw OpenFileError(errno: EINVAL)
        }
        size = UInt64(status.st_size)
        descriptor = Mutex(opened)
    }

    /// The descriptor, handed over once.
    func take() -> Int32? {
        descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
    }

    deinit {
        if let descriptor = take() { close(descriptor) }
    }
}

public struct OpenFileError: Error, Sendable {
    public let errno: Int32
}

/// Header text as HTTP has it.
enum HTTPText {
    /// `value` without the spaces and tabs around it (HTTP's optional whitespace); cheaper than
    /// Foundation's `trimmingCharacters(in:)`, and this runs for every request.
    static func trimmed(_ value: some StringProtocol) -> Substring {
        let text = Substring(value)
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }
}
