public import CCurl
import Foundation
import Synchronization

/// HTTP transfers on one libcurl multi handle, started by the caller and finished by a thread of the
/// loop's own: chime's and apps' requests to chimed, and server mode's requests to APNs.
///
/// Transfers block on the network; run on Dispatch's or the cooperative pool's threads they would hold
/// threads Swift concurrency needs (on Linux it runs on the same Dispatch pool), and an app waiting for a
/// slow answer would stall its own tasks. So the caller only starts a transfer — connecting and writing
/// the request without blocking, on its own thread, so nothing is handed over before the request is on
/// its way — and suspends; the loop's thread waits for answers in `epoll_wait`, any number at once, and
/// completes each. The multi handle, driven with `curl_multi_socket_action`, is touched only under the
/// lock; it keeps the connections between transfers (keep-alive), and HTTP/2 transfers to one host share
/// a connection (multiplexing). `stop()` ends the thread once the transfers under way have ended.
public final class CurlLoop: Sendable {
    /// A libcurl easy handle or slist, owned by one transfer.
    public struct Pointer: @unchecked Sendable {  // touched only under the loop's lock once submitted
        public let raw: UnsafeMutableRawPointer

        public init(raw: UnsafeMutableRawPointer) {
            self.raw = raw
        }
    }

    public struct Transfer: Sendable {
        public let easy: Pointer
        public let headers: Pointer?
        public let completion: @Sendable (CURLcode, Int) -> Void

        public init(easy: Pointer, headers: Pointer?, completion: @escaping @Sendable (CURLcode, Int) -> Void) {
            self.easy = easy
            self.headers = headers
            self.completion = completion
        }
    }

    private let driver: Mutex<Driver>
    /// Whether `submit` starts a transfer on the caller's thread, or leaves it to the loop's thread.
    private let startsOnSubmit: Bool
    /// Wakes the loop's thread: a new timer earlier than its wait, or `stop()`.
    private let wakeup: Int32
    private let poller: Int32

    /// Starts the loop's thread, which keeps the loop until `stop()`: its owner stops it when it goes away.
    /// With `connectionsPerHost`, transfers to one host use at most that many connections (APNs asks for
    /// one HTTP/2 connection carrying many streams, not many connections).
    public init(name: String, connectionsPerHost: Int? = nil, startsOnSubmit: Bool = true) {
        self.startsOnSubmit = startsOnSubmit
        wakeup = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        let driver = Driver(poller: poller, connectionsPerHost: connectionsPerHost)
        self.driver = Mutex(driver)
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wakeup))
        epoll_ctl(poller, EPOLL_CTL_ADD, wakeup, &event)
        let thread = Thread { self.run() }
        thread.name = name
        thread.start()
    }

    /// Carries out a configured easy handle; `completion` gets libcurl's code and the HTTP status, on
    /// the loop's thread (or on the caller's, before `submit` returns, when it fails at once). The loop
    /// cleans up the handle and the header list afterwards.
    public func submit(_ transfer: Transfer) {
        let finished = driver.withLock { driver -> [Finished] in
            guard !driver.stopping, let multi = driver.multi else { return [Finished(transfer: transfer, code: CURLE_ABORTED_BY_CALLBACK, status: 0)] }
            guard curl_multi_add_handle(multi, transfer.easy.raw) == CURLM_OK else {
                return [Finished(transfer: transfer, code: CURLE_FAILED_INIT, status: 0)]
            }
            driver.active[transfer.easy.raw] = transfer
            guard startsOnSubmit else {
                // The loop's thread starts it, with every other transfer added meanwhile, in one action.
                if !driver.wakePending {
                    driver.wakePending = true
                    Self.wake(wakeup)
                }
                return []
            }
            // Connects and writes what it can now, on this thread; the loop's thread is woken only when
            // libcurl wants a timer sooner than it would wake anyway.
            driver.act(on: CURL_SOCKET_TIMEOUT, events: 0)
            if let timer = driver.timer, timer < driver.waitsUntil { Self.wake(wakeup) }
            return driver.takeFinished()
        }
        Self.complete(finished)
    }

    public func stop() {
        driver.withLock { $0.stopping = true }
        Self.wake(wakeup)
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 32)
        while true {
            let (finished, wait, done) = driver.withLock { driver -> ([Finished], Int32, Bool) in
                driver.runDueTimer()
                let finished = driver.takeFinished()
                guard !(driver.stopping && driver.active.isEmpty) else { return (finished, 0, true) }
                return (finished, driver.beginWait(), false)
            }
            Self.complete(finished)
            if done { break }
            let count = epoll_wait(poller, &events, Int32(events.count), wait)
            guard count > 0 else { continue }
            let ready = events[0..<Int(count)].map { ($0.data.fd, $0.events) }
            Self.complete(
                driver.withLock { driver -> [Finished] in
                    for (fd, flags) in ready {
                        if fd == wakeup {
                            var value: UInt64 = 0
                            _ = read(wakeup, &value, 8)
                            if driver.wakePending {
                                driver.wakePending = false
                                driver.act(on: CURL_SOCKET_TIMEOUT, events: 0)
                            }
                        } else {
                            driver.act(on: fd, events: Self.curlEvents(flags))
                        }
                    }
                    return driver.takeFinished()
                })
        }
        driver.withLock { $0.close() }
        Foundation.close(poller)
        Foundation.close(wakeup)
    }

    private static func complete(_ finished: [Finished]) {
        for item in finished {
            release(item.transfer)
            item.transfer.completion(item.code, item.status)
        }
    }

    static func wake(_ wakeup: Int32) {
        var one: UInt64 = 1
        _ = write(wakeup, &one, 8)
    }

    private static func curlEvents(_ flags: UInt32) -> Int32 {
        var mask: Int32 = 0
        if flags & EPOLLIN.rawValue != 0 { mask |= CURL_CSELECT_IN }
        if flags & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
        if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { mask |= CURL_CSELECT_ERR }
        return mask
    }

    private static func release(_ transfer: Transfer) {
        curl_easy_cleanup(transfer.easy.raw)
        if let headers = transfer.headers { curl_slist_free_all(headers.raw.assumingMemoryBound(to: curl_slist.self)) }
    }
}

/// A transfer that ended, to be completed outside the lock.
private struct Finished: Sendable {
    let transfer: CurlLoop.Transfer
    let code: CURLcode
    let status: Int
}

/// The multi handle and what goes with it; used only under `CurlLoop`'s lock, where libcurl's socket and
/// timer callbacks (which run inside the calls made here) reach it too.
private final class Driver: @unchecked Sendable {
    var multi: UnsafeMutableRawPointer?
    var active: [UnsafeMutableRawPointer: CurlLoop.Transfer] = [:]
    var stopping = false
    /// A transfer was added for the loop's thread to start, and the thread was woken for it.
    var wakePending = false
    let poller: Int32
    /// When libcurl wants `act(on: CURL_SOCKET_TIMEOUT)`, in `DispatchTime` nanoseconds.
    var timer: UInt64?
    /// Until when the loop's thread sleeps: a timer `submit` sets earlier than this must wake it.
    var waitsUntil: UInt64 = 0

    /// The longest the loop's thread sleeps without a timer.
    static let longestWait: UInt64 = 1_000_000_000

    init(poller: Int32, connectionsPerHost: Int?) {
        self.poller = poller
        guard let multi = curl_multi_init() else { return }
        self.multi = multi
        if let connectionsPerHost { _ = chime_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = chime_curl_multi_setopt_socket(multi, watchSocket, context)
        _ = chime_curl_multi_setopt_timer(multi, setTimer, context)
    }

    func act(on socket: curl_socket_t, events: Int32) {
        guard let multi else { return }
        var running: Int32 = 0
        _ = curl_multi_socket_action(multi, socket, events, &running)
    }

    func runDueTimer() {
        // A timeout action can set the next timer at once; a few rounds, then the loop comes back.
        for _ in 0..<8 {
            guard let timer, timer <= DispatchTime.now().uptimeNanoseconds else { return }
            self.timer = nil
            act(on: CURL_SOCKET_TIMEOUT, events: 0)
        }
    }

    /// The milliseconds `epoll_wait` may sleep, noted so a sooner timer wakes it.
    func beginWait() -> Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        let until = min(timer ?? .max, now + Self.longestWait)
        waitsUntil = until
        return until <= now ? 0 : Int32((until - now + 999_999) / 1_000_000)
    }

    func takeFinished() -> [Finished] {
        guard let multi else { return [] }
        var finished: [Finished] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let transfer = active.removeValue(forKey: easy)
            else { continue }
            var status = 0
            _ = chime_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            curl_multi_remove_handle(multi, easy)
            finished.append(Finished(transfer: transfer, code: message.pointee.data.result, status: status))
        }
        return finished
    }

    func close() {
        if let multi { curl_multi_cleanup(multi) }
        multi = nil
    }
}

/// libcurl says which events of a socket it waits for: kept in the loop's epoll set.
private let watchSocket: chime_curl_socket_callback = { _, socket, what, context, _ in
    guard let context else { return 0 }
    let driver = Unmanaged<Driver>.fromOpaque(context).takeUnretainedValue()
    if what == CURL_POLL_REMOVE {
        epoll_ctl(driver.poller, EPOLL_CTL_DEL, socket, nil)
        return 0
    }
    var flags: UInt32 = 0
    if what & CURL_POLL_IN != 0 { flags |= EPOLLIN.rawValue }
    if what & CURL_POLL_OUT != 0 { flags |= EPOLLOUT.rawValue }
    var event = epoll_event(events: flags, data: epoll_data_t(fd: socket))
    if epoll_ctl(driver.poller, EPOLL_CTL_MOD, socket, &event) != 0, errno == ENOENT {
        epoll_ctl(driver.poller, EPOLL_CTL_ADD, socket, &event)
    }
    return 0
}

/// libcurl asks to be called back after `milliseconds` (−1: no timer); the loop's thread reads it before
/// it sleeps, and `submit` wakes it for a sooner one.
private let setTimer: chime_curl_timer_callback = { _, milliseconds, context in
    guard let context else { return 0 }
    let driver = Unmanaged<Driver>.fromOpaque(context).takeUnretainedValue()
    guard milliseconds >= 0 else {
        driver.timer = nil
        return 0
    }
    driver.timer = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    return 0
}
