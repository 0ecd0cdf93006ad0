import CCurl
import Foundation
import Synchronization

/// A thread of its own that carries out a client's HTTP transfers with one libcurl multi handle.
///
/// Transfers block on the network; run on Dispatch's or the cooperative pool's threads they would hold
/// threads Swift concurrency needs (on Linux it runs on the same Dispatch pool), and an app waiting for a
/// slow answer would stall its own tasks. Here they wait in `curl_multi_poll` on this thread, any number at
/// once; callers suspend on a continuation. The multi handle keeps the connections between transfers
/// (keep-alive). `stop()` ends the thread once the transfers under way have ended.
final class CurlLoop: Sendable {
    /// A libcurl easy handle or slist, owned by one transfer.
    struct Pointer: @unchecked Sendable {  // touched only by the loop's thread once submitted
        let raw: UnsafeMutableRawPointer
    }

    struct Transfer: Sendable {
        let easy: Pointer
        let headers: Pointer?
        let completion: @Sendable (CURLcode, Int) -> Void
    }

    private struct State {
        var waiting: [Transfer] = []
        var stopping = false
        var multi: Pointer?
    }

    private let state = Mutex(State())

    /// Starts the loop's thread, which keeps the loop until `stop()`: its owner stops it when it goes away.
    init(name: String) {
        let thread = Thread { self.run() }
        thread.name = name
        thread.start()
    }

    /// Carries out a configured easy handle; `completion` gets libcurl's code and the HTTP status, on
    /// the loop's thread. The loop cleans up the handle and the header list afterwards.
    func submit(_ transfer: Transfer) {
        let stopped = state.withLock { state -> Bool in
            guard !state.stopping else { return true }
            state.waiting.append(transfer)
            if let multi = state.multi { curl_multi_wakeup(multi.raw) }
            return false
        }
        if stopped {
            Self.release(transfer)
            transfer.completion(CURLE_ABORTED_BY_CALLBACK, 0)
        }
    }

    func stop() {
        state.withLock { state in
            state.stopping = true
            if let multi = state.multi { curl_multi_wakeup(multi.raw) }
        }
    }

    private func run() {
        guard let multi = curl_multi_init() else { return }
        state.withLock { $0.multi = Pointer(raw: multi) }
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        while true {
            let (arrived, stopping) = state.withLock { state -> ([Transfer], Bool) in
                defer { state.waiting = [] }
                return (state.waiting, state.stopping)
            }
            for transfer in arrived {
                active[transfer.easy.raw] = transfer
                curl_multi_add_handle(multi, transfer.easy.raw)
            }
            if stopping && active.isEmpty { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: easy)
                else { continue }
                let code = message.pointee.data.result
                var status = 0
                _ = chime_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                curl_multi_remove_handle(multi, easy)
                Self.release(transfer)
                transfer.completion(code, status)
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
        state.withLock { $0.multi = nil }
        curl_multi_cleanup(multi)
    }

    private static func release(_ transfer: Transfer) {
        curl_easy_cleanup(transfer.easy.raw)
        if let headers = transfer.headers { curl_slist_free_all(headers.raw.assumingMemoryBound(to: curl_slist.self)) }
    }
}
