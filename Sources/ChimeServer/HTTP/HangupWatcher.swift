import CMHD
import Foundation
import Glibc
import Synchronization

/// Notices at once when the peer of an open stream goes away.
///
/// libmicrohttpd does not watch a suspended connection, and an idle event stream is suspended: without
/// help, a client that quits is noticed only at the next write (a heartbeat), and until then its app
/// counts as connected and its questions wait. This watcher keeps each stream's socket in an epoll set of
/// its own for `EPOLLRDHUP` (the peer closed its side) and closes the stream when that happens.
///
/// A socket is registered while its connection uses the stream and unregistered when libmicrohttpd
/// releases the stream — before it closes the socket — so the watcher never touches a closed descriptor.
final class HangupWatcher: Sendable {
    static let shared = HangupWatcher()

    private let epoll: Int32
    private let streams = Mutex<(next: UInt64, byToken: [UInt64: StreamingBody])>((1, [:]))

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let thread = Thread { self.run() }
        thread.name = "chimed.hangups"
        thread.start()
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = epoll_wait(epoll, &events, Int32(events.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            let gone = streams.withLock { streams in events[0..<Int(count)].compactMap { streams.byToken[$0.data.u64] } }
            for body in gone { body.close() }
        }
    }

    /// Watches `socket` for `body`; returns the token to stop with.
    func watch(_ socket: Int32, for body: StreamingBody) -> UInt64? {
        guard epoll >= 0, socket >= 0 else { return nil }
        let token = streams.withLock { streams -> UInt64 in
            defer { streams.next += 1 }
            streams.byToken[streams.next] = body
            return streams.next
        }
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLONESHOT.rawValue
        event.data.u64 = token
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else {
            streams.withLock { _ = $0.byToken.removeValue(forKey: token) }
            return nil
        }
        return token
    }

    /// Stops watching (the connection is done with the stream; its socket is still open).
    func stop(_ token: UInt64, socket: Int32) {
        streams.withLock { _ = $0.byToken.removeValue(forKey: token) }
        var event = epoll_event()
        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, &event)
    }
}
