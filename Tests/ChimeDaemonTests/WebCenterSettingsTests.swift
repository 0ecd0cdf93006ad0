import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The web center's settings and scheduled views, in a real browser against a real chimed: what the
/// user changes there is what the next notification obeys, checked where chimed presents it (its log).
@Suite("Web center: settings and scheduled", .serialized)
struct WebCenterSettingsTests {
    static let app = "com.example.meetings"

    /// An app's first permission question waits for the user; answered on the page, the app's
    /// `requestAuthorization` returns granted.
    @Test func aPermissionQuestionIsAnsweredOnThePage() async throws {
        let session = try await WebCenterSession.start(["--authorization", "ask"])
        let browser = session.browser
        try await session.run {
            let client = try await session.home.connect(app: Self.app)
            defer { client.close() }
            let asking = Task { try await client.requestAuthorization(options: [.alert, .sound, .badge]) }
            try await browser.wait("#center .question[data-app='\(Self.app)']", showing: "would like to send you notifications")
            try await browser.wait("#center .question[data-app='\(Self.app)']", showing: "alerts")
            try await browser.click("#center .question[data-app='\(Self.app)'] button[data-answer='allow']")
            #expect(try await asking.value, "the waiting request returns granted")
            try await browser.waitGone("#center .question")
            try await browser.click("nav a[href='#settings']")
            try await browser.wait("#settings details[data-app='\(Self.app)'] .status", showing: "Allowed")
        }
    }

    /// Turned on the page: previews never and sounds off; the next notification is presented so.
    @Test func settingsChangedOnThePageDecideTheNextPresentation() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            #expect(await session.chime(["apps", "register", Self.app, "--name", "Meetings"]).exitCode == .success)
            await session.add(["--app", Self.app, "--id", "first", "--sound", "default", "Lunch?", "At noon"])
            try await session.daemon.presented(Self.app, "first")
            try await browser.click("nav a[href='#settings']")
            try await browser.click("#settings details[data-app='\(Self.app)'] summary")
            try await browser.click("#settings details[data-app='\(Self.app)'] input[id^='soundSetting']")
            try await eventually("sounds off") { await session.chime(["apps", "settings", Self.app, "--json"]).standardOutput.contains(#""soundSetting" : "disabled""#) }
            _ = try await browser.script("""
                const select = document.querySelector("#settings details[data-app='\(Self.app)'] select[id^='showPreviewsSetting']");
                select.value = 'never';
                select.dispatchEvent(new Event('change'));
                """)
            try await eventually("previews never") { await session.chime(["apps", "settings", Self.app, "--json"]).standardOutput.contains(#""showPreviewsSetting" : "never""#) }

            // The first was presented with its text and its sound; the next without either.
            await session.add(["--app", Self.app, "--id", "second", "--sound", "default", "Dinner?", "At eight"])
            let line = try await session.daemon.log.take("second presented") { $0.contains("presented \(Self.app)/second") }
            #expect(line.hasSuffix("presented \(Self.app)/second — “” — Notification"), "no text, no sound: \(line)")
            let first = try #require(session.daemon.log.lines.first { $0.contains("presented \(Self.app)/first") })
            #expect(first.hasSuffix("presented \(Self.app)/first — “Lunch?” — At noon (with sound)"), "\(first)")
            // The center hides the text of both now, the one that came before too.
            try await browser.click("nav a[href='#center']")
            try await browser.wait("li[data-id='second'].hidden-preview", showing: "Notification")
            try await browser.click("section[data-app='\(Self.app)'] .stack-toggle")
            try await browser.wait("li[data-id='first'].hidden-preview", showing: "Notification")
            #expect(try await browser.count("li[data-id='first'] .title") == 0)
        }
    }

    /// Focus turned on from the page: a passive and an active notification arrive quietly, a critical one
    /// (the critical permission granted on the page) comes through as critical.
    @Test func focusFromThePageHoldsBackAllButCriticalAlerts() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            #expect(await session.chime(["apps", "register", Self.app, "--name", "Meetings"]).exitCode == .success)
            await session.add(["--app", Self.app, "--id", "warm-up", "Hello"])
            try await session.daemon.presented(Self.app, "warm-up")
            try await browser.click("nav a[href='#settings']")
            try await browser.click("#focus-switch")
            try await eventually("focus on") { await session.chime(["focus", "status", "--json"]).standardOutput.contains(#""on" : true"#) }
            try await browser.wait("#focus-through", showing: "Critical alerts always come through")
            try await browser.click("#settings details[data-app='\(Self.app)'] summary")
            try await browser.click("#settings details[data-app='\(Self.app)'] input[id^='criticalAlertSetting']")
            try await eventually("critical allowed") {
                await session.chime(["apps", "settings", Self.app, "--json"]).standardOutput.contains(#""criticalAlertSetting" : "enabled""#)
            }

            await session.add(["--app", Self.app, "--id", "quiet", "--level", "passive", "Passive"])
            var line = try await session.daemon.log.take("quiet presented") { $0.contains("presented \(Self.app)/quiet") }
            #expect(line.hasSuffix("(quietly: in the list only)"), "\(line)")
            await session.add(["--app", Self.app, "--id", "active", "Active"])
            line = try await session.daemon.log.take("active presented") { $0.contains("presented \(Self.app)/active") }
            #expect(line.hasSuffix("(quietly: in the list only)"), "\(line)")
            await session.add(["--app", Self.app, "--id", "alarm", "--level", "critical", "Glucose low"])
            line = try await session.daemon.log.take("critical presented") { $0.contains("presented \(Self.app)/alarm") }
            #expect(line.contains("(critical, through the focus"), "\(line)")
            try await browser.click("nav a[href='#center']")
            try await browser.wait("li.critical[data-id='alarm'] .level", showing: "Critical")
            try await browser.wait("#center .notice", showing: "Focus is on")
            #expect(try await browser.script("return document.querySelectorAll(\"li.passive[data-id='quiet']\").length") as? Int == 1)
        }
    }

    /// The scheduled view: each request's trigger in words and next fire dates, and Remove.
    @Test func theScheduledViewDescribesTriggersAndRemoves() async throws {
        let session = try await WebCenterSession.start(language: "en-US")
        let browser = session.browser
        try await session.run {
            await session.add(["--app", Self.app, "--id", "standup", "--calendar", "weekday=mon hour=8 minute=30", "--time-zone", "Asia/Seoul", "--repeats", "Standup"])
            await session.add(["--app", Self.app, "--id", "water", "--in", "2h", "--repeats", "Drink water"])
            await session.add(["--app", Self.app, "--id", "once", "--in", "9min", "Tea is ready"])
            try await browser.click("nav a[href='#scheduled']")
            try await browser.wait("#scheduled li[data-id='standup'] .trigger", showing: "every Monday at 08:30, Asia/Seoul")
            try await browser.wait("#scheduled li[data-id='water'] .trigger", showing: "every 2 hours")
            try await browser.wait("#scheduled li[data-id='once'] .trigger", showing: "once, 9 minutes after it was set")
            #expect(try await browser.count("#scheduled li[data-id='standup'] .fire-dates time") == 3, "the next three Mondays")
            #expect(try await browser.count("#scheduled li[data-id='once'] .fire-dates time") == 1)
            let mondays = try await browser.script("""
                return [...document.querySelectorAll("#scheduled li[data-id='standup'] .fire-dates time")].map((t) => t.getAttribute('datetime'))
                """) as? [String] ?? []
            // 08:30 in Seoul is 23:30 UTC on Sunday.
            #expect(mondays.count == 3 && mondays.allSatisfy { $0.hasSuffix("T23:30:00.000Z") }, "\(mondays)")
            try await browser.click("#scheduled li[data-id='once'] button[data-action='remove']")
            try await browser.waitGone("#scheduled li[data-id='once']")
            let pending = await session.chime(["pending", "--app", Self.app, "--json"]).standardOutput
            #expect(!pending.contains(#""once""#) && pending.contains(#""standup""#), "\(pending)")
        }
    }

    /// Grouping by app puts the app's threads in one stack; off makes none.
    @Test func theGroupingSettingChangesTheStacks() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            for (identifier, thread) in [("a1", "ann"), ("b1", "bob"), ("a2", "ann")] {
                await session.add(["--app", Self.app, "--thread", thread, "--id", identifier, "Message \(identifier)"])
            }
            try await browser.wait("ul[data-thread='ann'] li[data-id='a2']", showing: "1 more notification")
            #expect(try await browser.count("#center ul.thread") == 2)
            #expect(await session.chime(["apps", "settings", Self.app, "--grouping", "by-app"]).exitCode == .success)
            try await browser.wait("ul[data-thread=''] li[data-id='a2']", showing: "2 more notifications")
            #expect(try await browser.count("#center ul.thread") == 1)
            #expect(await session.chime(["apps", "settings", Self.app, "--grouping", "off"]).exitCode == .success)
            try await eventually("three stacks of one") { try await browser.count("#center ul.thread") == 3 }
            #expect(try await browser.count("#center .stack-toggle") == 0)
        }
    }

    /// Badges: per app in its header, the total in the tab's title and on its icon.
    @Test func badgesShowPerAppAndTheirTotalInTheTab() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            await session.add(["--app", Self.app, "--id", "one", "--badge", "2", "One"])
            await session.add(["--app", "com.example.mail", "--id", "two", "--badge", "3", "Two"])
            // Generous waits: beside the other suites on two cores, the first render can take seconds.
            try await browser.wait("section[data-app='com.example.mail'] .badge", showing: "3", within: 15)
            try await browser.wait("section[data-app='\(Self.app)'] .badge", showing: "2", within: 15)
            try await eventually("the total in the title") { try await browser.script("return document.title") as? String == "(5) Notification Center — Chime" }
            try await eventually("the total on the icon") {
                try await browser.script("return document.querySelector(\"link[rel='icon']\").dataset.badge") as? String == "5"
            }
            #expect(try await browser.attribute("link[rel='icon']", "href")?.hasPrefix("data:image/png") == true)
        }
    }

    /// With the user's permission (asked by the page only when they turn it on), a notification arriving
    /// while the page is in a background tab is also shown by the browser.
    @Test func theBrowsersOwnNotificationsEchoNewOnesInTheBackground() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            try await browser.grant("notifications")
            try await browser.click("nav a[href='#settings']")
            #expect(try await browser.script("return document.querySelector('#browser-switch').checked") as? Bool == false, "off until the user turns it on")
            try await browser.click("#browser-switch")
            try await eventually("on") { try await browser.script("return localStorage.getItem('chime.browserNotifications')") as? String == "on" }
            try await browser.click("nav a[href='#center']")
            // A spy on the browser's Notification that also leaves what it saw in the origin's storage, where
            // another tab of the same origin can read it while this one stays in the background.
            _ = try await browser.script("""
                window.shown = [];
                const Real = window.Notification;
                window.Notification = class extends Real {
                  constructor(title, options) {
                    super(title, options);
                    window.shown.push(title + '|' + options.body);
                    localStorage.setItem('test.shown', JSON.stringify(window.shown));
                  }
                };
                """)
            let readShown = "return JSON.parse(localStorage.getItem('test.shown') || '[]')"
            // A second tab on the same origin puts the page out of sight.
            try await browser.newTab()
            try await browser.open(try session.origin + "/web/icon.svg")
            await session.add(["--app", Self.app, "--id", "late", "Running late", "Ten minutes"])
            try await session.daemon.presented(Self.app, "late")
            try await eventually("shown by the browser while in the background") {
                try await browser.script(readShown) as? [String] == ["Running late|Ten minutes"]
            }
            // Back in sight, a new notification is the page's alone.
            try await browser.switchTab(0)
            await session.add(["--app", Self.app, "--id", "soon", "Here soon", "Two minutes"])
            try await browser.wait("li[data-id='soon']", showing: "Here soon")
            #expect(try await browser.script("return window.shown") as? [String] == ["Running late|Ten minutes"])
        }
    }
}
