import ChimeCLI
import ChimeTestSupport
import Foundation
import Testing

/// "Notify this browser" in a real browser. Headless Chromium has no push service, so subscribing fails
/// there as it does in any browser without one: the page must say so. The service worker itself still
/// runs, and DevTools brings it push messages as a push service would, so what it shows is checked here;
/// what chimed sends to a push service is checked in `WebPushBrowsersTests`.
@Suite("Web center: notify this browser", .serialized)
struct WebCenterPushTests {
    static let app = "com.example.meetings"

    static func message(_ identifier: String, title: String, body: String, alerting: String = "normally", closes: [String] = []) -> String {
        let closing = closes.isEmpty ? "" : #","closes":[\#(closes.map { "\"\($0)\"" }.joined(separator: ","))]"#
        return #"{"type":"notification.delivered","app":"\#(app)","identifier":"\#(identifier)","title":"\#(title)","subtitle":"","body":"\#(body)","date":1796000000,"alerting":"\#(alerting)"\#(closing)}"#
    }

    static let shownNotifications = """
        const registration = await navigator.serviceWorker.getRegistration('/web/');
        return (await registration.getNotifications()).map((n) => [n.tag, n.title, n.body, n.silent].join('|'));
        """

    @Test func withoutAPushServiceThePageSaysSoAndTheWorkerStillShowsPushes() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            try await browser.grant("notifications")
            try await browser.click("nav a[href='#settings']")
            #expect(try await browser.script("return document.querySelector('#push-switch').checked") as? Bool == false, "off until the user turns it on")
            try await browser.click("#push-switch")
            try await browser.wait("#push-note", showing: "has no push service", within: 15)
            #expect(try await browser.script("return document.querySelector('#push-switch').checked") as? Bool == false, "it stays off")
            #expect(try await browser.script("return document.querySelector('#push-switch').disabled") as? Bool == false, "and can be tried again")
            let worker = try await browser.script("return (await navigator.serviceWorker.getRegistration('/web/'))?.active?.scriptURL") as? String
            #expect(worker == (try session.origin) + "/web/push-worker.js", "the worker was registered and runs")

            // Every push shows a notification (a push that shows nothing spends the browser's budget of silent
            // pushes); with the page in sight, without a sound: the page lists it and says so itself.
            // DevTools may bring the first message before the just-activated worker takes push events, and
            // then drops it: it is brought again until one arrives (the same tag, so shown once).
            try await eventually("shown quietly") {
                try await browser.push(Self.message("seen", title: "Seen here", body: "On the page"))
                try await Task.sleep(for: .milliseconds(300))
                return try await browser.script(Self.shownNotifications) as? [String] == ["\(Self.app)/seen|Seen here|On the page|true"]
            }

            // Out of sight (another tab in front), shown as it came, tagged by app and id; a push closes what
            // chimed removed since the last one (`closes`).
            try await browser.newTab()
            try await browser.open(try session.origin + "/web/icon.svg")
            try await browser.push(Self.message("standup", title: "Stand-up", body: "In five minutes", closes: ["\(Self.app)/seen"]))
            try await browser.push(Self.message("quiet", title: "Quiet", body: "No sound", alerting: "quietly"))
            try await eventually("shown by the browser") { (try await browser.script(Self.shownNotifications) as? [String])?.count == 2 }
            let shown = Set(try await browser.script(Self.shownNotifications) as? [String] ?? [])
            #expect(shown == ["\(Self.app)/standup|Stand-up|In five minutes|false", "\(Self.app)/quiet|Quiet|No sound|true"])
            try await browser.push("not json")
            try await Task.sleep(for: .milliseconds(300))
            #expect((try await browser.script(Self.shownNotifications) as? [String])?.count == 2, "a message not of chimed's shows nothing")

            // Removed in chimed while the page is open: the page closes it in the browser at once.
            try await browser.switchTab(0)
            await session.add(["--app", Self.app, "--id", "standup", "Stand-up", "In five minutes"])
            try await session.daemon.presented(Self.app, "standup")
            let removed = await session.chime(["remove", "--delivered", "--app", Self.app, "standup"])
            #expect(removed.exitCode == .success, "\(removed.standardError)")
            try await eventually("closed by the page") {
                try await browser.script(Self.shownNotifications) as? [String] == ["\(Self.app)/quiet|Quiet|No sound|true"]
            }
        }
    }
}
