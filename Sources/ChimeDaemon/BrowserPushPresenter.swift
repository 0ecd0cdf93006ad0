import ChimeAPI
import ChimeCore
import ChimeCrypto
import ChimeDelivery
import ChimeServer
public import ChimeEngine
import Foundation
import Synchronization

/// Pushes what chimed shows to the browsers the user subscribed in the web center (Web Push: RFC 8030
/// delivery, RFC 8291 encryption, RFC 8292 VAPID), so a browser shows Chime's notifications even with the
/// page closed; the page's service worker (`/web/push-worker.js`) shows them.
///
/// A push is one more way to see a notification the desktop already shows, not its record: it is sent
/// when the notification is shown as a banner, tried three times over about half a minute when the push
/// service is busy or cannot be reached, and otherwise given up (the notification stays in the list).
/// A push service's 404 or 410 (the subscription is gone), a 401 or 403 (it was made with another key) or
/// an address the policy refuses ends the subscription. Sending never holds up the other presenters, and
/// at most `maximumSending` pushes are on their way at once; beyond that a push is dropped and logged.
final class BrowserPushPresenter: NotificationPresenter, BrowserPushing {
    let book: BrowserPushBook
    let sender: WebhookSender
    let policy: OutboundAddressPolicy
    let log: DaemonLog
    /// The pauses before the second and third attempt (a push service's `Retry-After` may lengthen each,
    /// up to `longestPause`).
    let pauses: [Duration]

    static let maximumSending = 256
    static let longestPause: Duration = .seconds(120)
    /// The notifications pushed lately, so that only their removals are passed on to the browsers.
    static let rememberedPushes = 1000
    /// Removals kept for the next push to carry (`closes`); the oldest go beyond this.
    static let heldRemovals = 64

    private struct State {
        var sending = 0
        var pushed: Set<String> = []
        var pushOrder: [String] = []
        /// Pushed notifications removed since the last push, as the service worker tags them.
        var removed: [String] = []
    }

    private let state = Mutex(State())

    init(book: BrowserPushBook, sender: WebhookSender, policy: OutboundAddressPolicy, log: DaemonLog, pauses: [Duration] = [.seconds(5), .seconds(25)]) {
        self.book = book
        self.sender = sender
        self.policy = policy
        self.log = log
        self.pauses = pauses
    }

    /// The web center is served at `origin` from now on. A subscription made on another address (a port
    /// that was taken at this start) ends: its service worker lives at an address chimed no longer
    /// serves, so a click on what it shows would lead nowhere. The page there can subscribe again.
    func serve(origin: String) {
        let stale = Set(book.subscribers.filter { $0.origin != nil && $0.origin != origin }.map(\.id))
        guard !stale.isEmpty else { return }
        do {
            try book.remove(stale)
            log.info("\(stale.count) browser(s) no longer receive pushes: they subscribed on another address of the web center than \(origin)")
        } catch {
            log.warning("browsers that subscribed on another address of the web center should stop receiving pushes, but \(book.file.path) could not be written: \(error)")
        }
    }

    // MARK: NotificationPresenter

    func present(_ presentation: Presentation) async {
        guard presentation.destinations.contains(.banner) else { return }
        let subscribers = book.subscribers
        guard !subscribers.isEmpty, let key = try? book.key() else { return }
        var message = WebPushMessageBody(
            app: presentation.appIdentifier, identifier: presentation.notificationIdentifier, title: presentation.title,
            subtitle: presentation.previewsHidden ? "" : presentation.subtitle, body: presentation.body, date: presentation.date,
            alerting: presentation.brokeThroughFocus ? "breakingThroughFocus" : presentation.sound == nil ? "quietly" : "normally",
            threadIdentifier: presentation.group.threadIdentifier.isEmpty ? nil : presentation.group.threadIdentifier,
            categoryIdentifier: presentation.categoryIdentifier.isEmpty ? nil : presentation.categoryIdentifier, badge: presentation.badge)
        let urgency: String =
            switch presentation.interruptionLevel {
            case .passive: "low"
            case .active: "normal"
            case .timeSensitive, .critical: "high"
            }
        let tag = presentation.appIdentifier + "/" + presentation.notificationIdentifier
        let removed = remember(tag)
        message.closes = removed.isEmpty ? nil : removed
        let bytes = message.encoded(fittingIn: WebPushEncryption.maximumPlaintext)
        let topic = WebPushHeaders.topic(identifier: tag)
        for subscriber in subscribers { send(bytes, to: subscriber, key: key, urgency: urgency, topic: topic) }
    }

    /// A removal is not pushed on its own (a push that shows nothing counts against the browser's budget
    /// of silent pushes): the next push carries it, and an open page of the center closes it at once.
    func withdraw(appIdentifier: String, identifiers: [String]) async {
        state.withLock { state in
            for identifier in identifiers {
                let tag = appIdentifier + "/" + identifier
                guard state.pushed.remove(tag) != nil else { continue }
                state.removed.append(tag)
            }
            if state.removed.count > Self.heldRemovals { state.removed.removeFirst(state.removed.count - Self.heldRemovals) }
        }
    }

    func updateBadge(appIdentifier: String, count: Int) async {}

    /// Notes that `tag` is pushed now; the removals the push carries (taken: the next push carries none).
    private func remember(_ tag: String) -> [String] {
        state.withLock { state in
            state.removed.removeAll { $0 == tag }  // shown again: not to be closed
            if state.pushed.insert(tag).inserted {
                state.pushOrder.append(tag)
                // The order may still name tags a withdrawal removed: they only make it shorter.
                while state.pushOrder.count > Self.rememberedPushes { state.pushed.remove(state.pushOrder.removeFirst()) }
            }
            defer { state.removed = [] }
            return state.removed
        }
    }

    // MARK: Sending

    private func send(_ message: [UInt8], to subscriber: BrowserPushBook.Subscriber, key: P256PrivateKey, urgency: String, topic: String) {
        let admitted = state.withLock { state in
            guard state.sending < Self.maximumSending else { return false }
            state.sending += 1
            return true
        }
        guard admitted else {
            log.warning("dropped a push to a browser: \(Self.maximumSending) are still on their way (is the push service answering?)")
            return
        }
        Task {
            await self.deliver(message, to: subscriber, key: key, urgency: urgency, topic: topic)
            self.state.withLock { $0.sending -= 1 }
        }
    }

    private func deliver(_ message: [UInt8], to subscriber: BrowserPushBook.Subscriber, key: P256PrivateKey, urgency: String, topic: String) async {
        guard let subscription = WebPushSubscription(endpoint: subscriber.endpoint, p256dh: subscriber.p256dh, auth: subscriber.auth),
            let origin = subscription.origin
        else { return end(subscriber, "its keys cannot be read") }
        if let expires = subscriber.expires, expires < Date() { return end(subscriber, "the push service said it would end it by \(expires)") }
        for attempt in 0...pauses.count {
            guard let body = try? WebPushEncryption.encrypt(message, for: subscription) else { return }
            let headers = WebPushHeaders.headers(vapid: VAPID(key: key), origin: origin, urgency: urgency, topic: topic, now: Date())
            let outcome = await sender.send(body, headers: headers, to: subscriber.endpoint, policy: policy, contentType: "application/octet-stream")
            var notBefore: Duration = .zero
            switch outcome {
            case .accepted: return
            case .gone, .rejected(404, _): return end(subscriber, "the push service answered \(outcome == .gone ? 410 : 404): the browser ended it")
            case .rejected(let status, _) where status == 401 || status == 403:
                return end(subscriber, "the push service answered \(status): it was made with another key than chimed's")
            case .refused(let reason): return end(subscriber, reason)
            case .rejected(let status, let retryAfter) where status == 429 || status >= 500:
                log.debug("a push service answered \(status) (attempt \(attempt + 1))")
                notBefore = .seconds(retryAfter ?? 0)
            case .failed(let reason): log.debug("a push did not reach its push service: \(reason) (attempt \(attempt + 1))")
            case .rejected(let status, _):
                log.warning("a push service refused a push with \(status); it is not sent again")
                return
            }
            guard attempt < pauses.count else { break }
            try? await Task.sleep(for: min(max(pauses[attempt], notBefore), Self.longestPause))
        }
        log.warning("gave up a push to a browser after \(pauses.count + 1) attempts; the notification is still in the list")
    }

    private func end(_ subscriber: BrowserPushBook.Subscriber, _ why: String) {
        do {
            try book.remove([subscriber.id])
            log.info("a browser no longer receives pushes: \(why)")
        } catch {
            log.warning("a browser's push subscription should end (\(why)) but \(book.file.path) could not be written: \(error)")
        }
    }

    // MARK: BrowserPushing

    func status() async throws -> BrowserPushStatus {
        let key = try book.key()
        return BrowserPushStatus(applicationServerKey: VAPID(key: key).applicationServerKey, subscriptions: book.subscribers.count)
    }

    func subscribe(_ subscription: WebPushAddress, origin: String?) async throws -> BrowserPushSubscribed {
        let endpoint = subscription.endpoint
        guard endpoint.utf8.count <= WebPushAddress.maximumEndpointLength, let url = URLComponents(string: endpoint), url.scheme?.lowercased() == "https",
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else {
            throw APIError(.invalidParameters, field: "endpoint", "a push service's endpoint is an https URL of at most \(WebPushAddress.maximumEndpointLength) bytes")
        }
        guard let point = Base64URL.decode(subscription.keys.p256dh), P256PublicKey(point: point) != nil else {
            throw APIError(.invalidParameters, field: "keys.p256dh", "p256dh is base64url of an uncompressed P-256 public key")
        }
        guard Base64URL.decode(subscription.keys.auth)?.count == 16 else {
            throw APIError(.invalidParameters, field: "keys.auth", "auth is base64url of a 16-byte secret")
        }
        let expires = subscription.expirationTime.map { Date(timeIntervalSince1970: $0 / 1000) }
        if let expires, expires <= Date() { throw APIError(.invalidParameters, field: "expirationTime", "this subscription has expired") }
        _ = try book.key()
        let id = BrowserPushBook.identifier(endpoint: endpoint)
        try book.add(
            .init(id: id, endpoint: endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, expires: expires, since: Date(), origin: origin))
        log.info("a browser subscribed to pushes (\(book.subscribers.count) now)")
        return BrowserPushSubscribed(id: id)
    }

    func unsubscribe(id: String) async throws {
        if try book.remove([id]) { log.info("a browser unsubscribed from pushes (\(book.subscribers.count) now)") }
    }
}
