import ChimeTestSupport
import Foundation
import Testing

/// "Notify this browser" in a real browser. Headless Chromium has no push service, so subscribing fails
/// there as it does in any browser without one: the page must say so. The service worker itself still
/// runs, and DevTools brings it push messages as a push service would, so what it shows is checked here;
/// what chimed sends to a push service is checked in `WebPushBrowsersTests`.
@Suite("Web center: notify this browser", .serialized)
struct WebCenterPushTests {
    static func message(_ identifier: String, title: String, body: String, alerting: String = "normally") -> String {
        #"{"type":"notification.delivered","app":"com.example.meetings","identifier":"\#(identifier)","title":"\#(title)","subtitle":"","body":"\#(body)","date":1796000000,"alerting":"\#(alerting)"}"#
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

            // The page in sight shows new notifications itself: the worker does not show them again.
            try await browser.push(Self.message("seen", title: "Seen here", body: "On the page"))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await browser.script(Self.shownNotifications) as? [String] == [])

            // Out of sight (another tab in front), a push is shown by the browser, tagged by app and id.
            try await browser.newTab()
            try await browser.open(try session.origin + "/web/icon.svg")
            try await browser.push(Self.message("standup", title: "Stand-up", body: "In five minutes"))
            try await browser.push(Self.message("quiet", title: "Quiet", body: "No sound", alerting: "quietly"))
            try await eventually("shown by the browser") { (try await browser.script(Self.shownNotifications) as? [String])?.count == 2 }
            let shown = Set(try await browser.script(Self.shownNotifications) as? [String] ?? [])
            #expect(shown == ["com.example.meetings/standup|Stand-up|In five minutes|false", "com.example.meetings/quiet|Quiet|No sound|true"])

            // Removed in chimed: closed in the browser. A message not of chimed's shows nothing.
            try await browser.push(#"{"type":"notification.removed","app":"com.example.meetings","identifiers":["standup"]}"#)
            try await eventually("closed") { try await browser.script(Self.shownNotifications) as? [String] == ["com.example.meetings/quiet|Quiet|No sound|true"] }
            try await browser.push("not json")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await browser.script(Self.shownNotifications) as? [String] == ["com.example.meetings/quiet|Quiet|No sound|true"])
        }
    }
}
