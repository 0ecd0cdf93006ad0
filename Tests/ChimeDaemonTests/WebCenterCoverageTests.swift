import ChimeAPI
import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeSQLite
import ChimeTestSupport
import Foundation
import Testing

/// The web center in a real browser against a real chimed, for what the other suites leave unseen: how
/// soon a notification reaches every open tab, clearing from the page, authorization and focus both
/// ways, Korean, a phone's width, attachments, late deliveries and a locked stack.
@Suite("Web center: what the user sees", .serialized)
struct WebCenterCoverageTests {
    static let app = "com.example.meetings"
    static let other = "com.example.mail"

    /// The identifiers of `app`'s delivered notifications, as `chime delivered` lists them, sorted.
    func delivered(_ session: WebCenterSession, _ app: String) async throws -> [String] {
        let listed = await session.chime(["delivered", "--app", app, "--json"])
        #expect(listed.exitCode == .success, "\(listed.standardError)")
        let items = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["identifier"] as? String }.sorted()
    }

    /// `chime add` → the notification shows, in its app's section and its thread's stack with the
    /// category's summary, within a second of the command returning — on the page in front (polled) and
    /// on a second tab opened before it, in the background (noted by the page as it changes).
    @Test func aNewNotificationReachesEveryOpenTabWithinASecond() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            try await session.setCategories(meetingCategories, app: Self.app)
            let lunch = "section[data-app='\(Self.app)'] ul[data-thread='ann'] li[data-id='lunch']"
            let coffee = "section[data-app='\(Self.app)'] ul[data-thread='ann'] li[data-id='coffee']"
            // Each tab notes when each notification first shows as it should; the answer tells a reload apart.
            let watch = """
                window.arrivals = {};
                const watched = { lunch: ["\(lunch)", 'Lunch on Friday?'], coffee: ["\(coffee) .summary", '1 more invitations'] };
                new MutationObserver(() => {
                  for (const [key, [css, text]] of Object.entries(watched)) {
                    if (window.arrivals[key] === undefined && [...document.querySelectorAll(css)].some((e) => e.textContent.includes(text))) {
                      window.arrivals[key] = Date.now();
                    }
                  }
                }).observe(document.getElementById('center'), { childList: true, subtree: true, characterData: true });
                return performance.timeOrigin;
                """
            try await browser.wait("#center .empty", showing: "No notifications.")
            _ = try await browser.script(watch)
            try await browser.newTab()
            try await browser.open(try session.origin + "/")
            try await browser.wait("#center .empty", showing: "No notifications.")
            let secondLoaded = try #require(try await browser.script(watch) as? Double)
            try await browser.switchTab(0)

            // Arrival times are taken in the page when the notification first shows, so a slow WebDriver
            // round trip on a busy machine is not counted; the waits only keep the steps in order.
            await session.add(["--app", Self.app, "--category", "invite", "--thread", "ann", "--id", "lunch", "Lunch on Friday?", "Ann invites you"])
            let lunchAdded = Date()
            try await browser.wait(lunch, showing: "Lunch on Friday?", within: 10)

            await session.add(["--app", Self.app, "--category", "invite", "--thread", "ann", "--id", "coffee", "Coffee?", "Ann: at 3?"])
            let coffeeAdded = Date()
            try await browser.wait("\(coffee) .summary", showing: "1 more invitations", within: 10)
            #expect(try await browser.count("ul[data-thread='ann'] li.notification") == 1, "the stack shows its newest only")
            let firstArrivals = try await browser.script("return window.arrivals") as? [String: Double] ?? [:]

            // The tab that stayed in the background saw both arrive, in time, without being reloaded.
            try await browser.switchTab(1)
            #expect(try await browser.script("return performance.timeOrigin") as? Double == secondLoaded, "the second tab was not reloaded")
            let secondArrivals = try await browser.script("return window.arrivals") as? [String: Double] ?? [:]
            for (tab, arrivals) in [("front", firstArrivals), ("background", secondArrivals)] {
                for (key, added) in [("lunch", lunchAdded), ("coffee", coffeeAdded)] {
                    let arrival = try #require(arrivals[key], "the \(tab) tab never showed \(key): \(arrivals)")
                    let after = arrival / 1000 - added.timeIntervalSince1970
                    #expect(after <= 1, "\(key) showed on the \(tab) tab \(after) s after chime add returned")
                }
            }
            try await browser.wait("\(coffee)", showing: "Coffee?")
        }
    }

    /// A stack's "Clear stack" takes exactly that stack's notifications off the list, and the app's
    /// "Clear" exactly the app's: the other thread and the other app (with a thread of the same name) stay.
    @Test func clearingAStackOrAnAppFromThePageRemovesExactlyThose() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            for (identifier, thread) in [("a1", "ann"), ("b1", "bob"), ("a2", "ann"), ("b2", "bob")] {
                await session.add(["--app", Self.app, "--thread", thread, "--id", identifier, "Message \(identifier)"])
            }
            await session.add(["--app", Self.other, "--thread", "ann", "--id", "m1", "From the other app"])
            await session.add(["--app", Self.other, "--thread", "ann", "--id", "m2", "From the other app again"])
            try await browser.wait("section[data-app='\(Self.app)'] ul[data-thread='ann'] li[data-id='a2']", showing: "1 more notification")
            try await browser.wait("section[data-app='\(Self.app)'] ul[data-thread='bob'] li[data-id='b2']", showing: "1 more notification")
            try await browser.wait("section[data-app='\(Self.other)'] ul[data-thread='ann'] li[data-id='m2']", showing: "1 more notification")

            try await browser.click("section[data-app='\(Self.app)'] .stack:has(ul[data-thread='ann']) .stack-controls button:not(.stack-toggle)")
            try await eventually("ann's stack cleared") { try await delivered(session, Self.app) == ["b1", "b2"] }
            #expect(try await delivered(session, Self.other) == ["m1", "m2"])
            try await browser.waitGone("li[data-id='a2']")
            try await browser.wait("section[data-app='\(Self.app)'] ul[data-thread='bob'] li[data-id='b2']", showing: "Message b2")
            #expect(try await browser.count("section[data-app='\(Self.other)'] li[data-id='m2']") == 1)

            try await browser.click("section[data-app='\(Self.app)'] > header button")
            try await eventually("the app cleared") { try await delivered(session, Self.app).isEmpty }
            #expect(try await delivered(session, Self.other) == ["m1", "m2"])
            try await browser.waitGone("section[data-app='\(Self.app)']")
            try await browser.wait("section[data-app='\(Self.other)'] li[data-id='m2']", showing: "From the other app again")
        }
    }

    /// Settings › Notifications shows each app's authorization as such: a denied app as not allowed
    /// (switch off, no settings), a provisional one as delivered quietly with Keep and Turn Off, which
    /// decide it; and Focus turns on and off from the page.
    @Test func authorizationShowsAsSuchAndFocusTurnsOnAndOffFromThePage() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        let denied = "com.example.denied"
        let kept = "com.example.kept"
        let turnedOff = "com.example.trial"
        func app(_ app: String) -> String { "#settings details[data-app='\(app)']" }
        func status(_ app: String) async -> String {
            await session.chime(["apps", "settings", app, "--json"]).standardOutput
        }
        try await session.run {
            #expect(await session.chime(["apps", "deny", denied]).exitCode == .success)
            for identifier in [kept, turnedOff] {
                let client = try await session.home.connect(app: identifier)
                #expect(try await client.requestAuthorization(options: [.alert, .sound, .provisional]), "provisional is granted without asking")
                client.close()
            }
            try await browser.click("nav a[href='#settings']")
            try await browser.wait("\(app(denied)) .status[data-status='denied']", showing: "Not allowed")
            try await browser.click("\(app(denied)) summary")
            try await browser.wait("\(app(denied)) label", showing: "Allow Notifications")
            #expect(try await browser.script("return document.querySelector(\"\(app(denied)) input[id^='allow-']\").checked") as? Bool == false)
            #expect(try await browser.count("\(app(denied)) .settings-list") == 0, "a denied app has no settings to change")

            for identifier in [kept, turnedOff] {
                try await browser.wait("\(app(identifier)) .status[data-status='provisional']", showing: "Delivered quietly (provisional)")
                try await browser.click("\(app(identifier)) summary")
                try await browser.wait("\(app(identifier)) button[data-answer='allow']", showing: "Keep")
                try await browser.wait("\(app(identifier)) button[data-answer='deny']", showing: "Turn Off")
            }
            try await browser.click("\(app(kept)) button[data-answer='allow']")
            try await eventually("kept: authorized") { await status(kept).contains(#""authorizationStatus" : "authorized""#) }
            try await browser.wait("\(app(kept)) .status[data-status='authorized']", showing: "Allowed")
            try await browser.click("\(app(turnedOff)) button[data-answer='deny']")
            try await eventually("turned off: denied") { await status(turnedOff).contains(#""authorizationStatus" : "denied""#) }
            try await browser.wait("\(app(turnedOff)) .status[data-status='denied']", showing: "Not allowed")
            #expect(await status(denied).contains(#""authorizationStatus" : "denied""#), "the denied app stayed denied")

            // Focus: on, then off again, from the same switch.
            func focusOn() async -> Bool { await session.chime(["focus", "status", "--json"]).standardOutput.contains(#""on" : true"#) }
            #expect(await !focusOn())
            try await browser.click("#focus-switch")
            try await eventually("focus on") { await focusOn() }
            try await eventually("the switch shows on") { try await browser.script("return document.querySelector('#focus-switch').checked") as? Bool == true }
            try await browser.click("#focus-switch")
            try await eventually("focus off") { await session.chime(["focus", "status", "--json"]).standardOutput.contains(#""on" : false"#) }
            try await eventually("the switch shows off") { try await browser.script("return document.querySelector('#focus-switch').checked") as? Bool == false }
        }
    }

    /// The signed-in page in Korean: asked for with `?lang=ko` (and remembered until `?lang=en`), or
    /// chosen by a browser whose languages (its Accept-Language) put Korean first.
    @Test func theSignedInPageSpeaksKoreanWhenAskedOrWhenTheBrowserDoes() async throws {
        let session = try await WebCenterSession.start(language: "en-US")
        let browser = session.browser
        func showsKorean(_ browser: WebBrowser) async throws {
            try await browser.wait("nav a[href='#center']", showing: "알림")
            try await browser.wait("nav a[href='#scheduled']", showing: "예약됨")
            try await browser.wait("nav a[href='#settings']", showing: "설정")
            try await browser.wait("section[data-app='\(Self.app)'] .count", showing: "알림 1개")
            try await browser.wait("li[data-id='tea'] button[data-action='open']", showing: "열기")
            try await browser.wait("li[data-id='tea'] button[data-action='dismiss']", showing: "닫기")
            #expect(try await browser.script("return document.documentElement.lang") as? String == "ko")
            #expect(try await browser.script("return document.title") as? String == "알림 센터 — Chime")
        }
        try await session.run {
            await session.add(["--app", Self.app, "--id", "tea", "Tea?"])
            try await browser.wait("li[data-id='tea'] button[data-action='open']", showing: "Open")
            try await browser.open(try session.origin + "/?lang=ko")
            try await showsKorean(browser)
            try await browser.open(try session.origin + "/")
            try await showsKorean(browser)
            try await browser.open(try session.origin + "/?lang=en")
            try await browser.wait("nav a[href='#center']", showing: "Notifications")
            try await browser.wait("li[data-id='tea'] button[data-action='open']", showing: "Open")

            let korean = try await WebBrowser(language: "ko-KR")
            do {
                try await korean.open(try await session.loginURL())
                #expect(try await korean.script("return navigator.languages[0]") as? String == "ko-KR")
                try await showsKorean(korean)
            } catch {
                await korean.quit()
                throw error
            }
            await korean.quit()
        }
    }

    /// At a phone's 360 px the center scrolls only down: a long unbroken title and body, a long
    /// subtitle, many buttons, a reply box, a wide image and an app known only by its long identifier
    /// all fit, the stack collapsed and expanded; and so does the app's entry in the settings.
    @Test func atThreeHundredSixtyPixelsNothingScrollsSideways() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        let app = "com.example.organisation.departmentofverylongnames.meetingplanner"
        try await session.run {
            try await session.setCategories(
                """
                [{"identifier": "busy", "categorySummaryFormat": "%u more from the planning committee",
                  "actions": [{"identifier": "accept", "title": "Accept the invitation for everyone"},
                              {"identifier": "tentative", "title": "Tentatively"},
                              {"identifier": "delegate", "title": "Delegate to someone else"},
                              {"identifier": "decline", "title": "Decline", "options": ["destructive"],
                               "textInput": {"buttonTitle": "Send the reason", "placeholder": "Tell them why you cannot come to this one"}}]}]
                """, app: app)
            let image = session.home.root.appendingPathComponent("wide.png").path
            try await WebCenterTests.picture(image, size: "1600x200")
            let title = String(repeating: "Quarterlyplanningreview", count: 8)
            let body =
                "Agenda at https://example.com/" + String(repeating: "averyveryverylongpathsegment/", count: 10) + " "
                + String(repeating: "가나다라마바사", count: 12)
            await session.add(["--app", app, "--category", "busy", "--thread", "plan", "--id", "first", "Short one"])
            await session.add([
                "--app", app, "--category", "busy", "--thread", "plan", "--id", "long", "--badge", "12", "--level", "time-sensitive",
                "--subtitle", String(repeating: "Subtitlewithoutanyspaces", count: 6), "--attach", image, title, body,
            ])
            try await browser.wait("li[data-id='long'] .summary", showing: "1 more from the planning committee")
            try await browser.resize(width: 360, height: 800)
            #expect(try await browser.script("return window.innerWidth") as? Int == 360)
            // How wide the page is, and what reaches past its right edge (in the page's coordinates: a
            // click may have scrolled it sideways).
            let overflow = """
                const page = document.scrollingElement;
                const right = (e) => e.getBoundingClientRect().right + page.scrollLeft;
                const wide = [...document.querySelectorAll('body *')]
                  .filter((e) => e.getClientRects().length && right(e) > page.clientWidth + 0.5)
                  .map((e) => `${e.tagName}.${e.className} ${Math.round(right(e))}`);
                return { scrollWidth: page.scrollWidth, clientWidth: page.clientWidth, wide: wide.slice(0, 8) };
                """
            try await eventually("the image loaded") {
                try await browser.script("const i = document.querySelector(\"li[data-id='long'] img\"); return i.complete && i.naturalWidth > 0") as? Bool == true
            }
            for state in ["collapsed", "expanded", "settings"] {
                if state == "expanded" {
                    try await browser.click("section[data-app='\(app)'] .stack-toggle")
                    try await browser.wait("li[data-id='first']", showing: "Short one")
                }
                if state == "settings" {
                    try await browser.click("nav a[href='#settings']")
                    try await browser.click("#settings details[data-app='\(app)'] summary")
                    try await browser.wait("#settings details[data-app='\(app)'] label", showing: "Show Previews")
                }
                let measured = try #require(try await browser.script(overflow) as? [String: Any])
                let scrollWidth = measured["scrollWidth"] as? Int ?? .max
                let clientWidth = measured["clientWidth"] as? Int ?? 0
                #expect(clientWidth > 300 && scrollWidth <= clientWidth, "\(state): \(measured)")
                #expect((measured["wide"] as? [Any])?.isEmpty == true, "\(state): wider than the page: \(measured)")
            }
        }
    }

    /// A WAV file of half a second's tone (16-bit mono PCM), which chimed takes as an audio attachment.
    static func sound(_ path: String) throws {
        let rate = 8000
        let samples = rate / 2
        var bytes: [UInt8] = []
        func append<Integer: FixedWidthInteger>(_ value: Integer) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
        bytes += Array("RIFF".utf8)
        append(UInt32(36 + samples * 2))
        bytes += Array("WAVEfmt ".utf8)
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(1))
        append(UInt32(rate))
        append(UInt32(rate * 2))
        append(UInt16(2))
        append(UInt16(16))
        bytes += Array("data".utf8)
        append(UInt32(samples * 2))
        for index in 0..<samples { append(Int16(sin(Double(index) * 2 * .pi * 440 / Double(rate)) * 8000)) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// An image attachment shows, loaded from its signed address; a sound is a player of its own signed
    /// address that loads it.
    @Test func attachmentsShowAsAnImageAndAPlayer() async throws {
        let session = try await WebCenterSession.start()
        let browser = session.browser
        try await session.run {
            let image = session.home.root.appendingPathComponent("beach.png").path
            try await WebCenterTests.picture(image)
            let tone = session.home.root.appendingPathComponent("tone.wav").path
            try Self.sound(tone)
            await session.add(["--app", Self.app, "--id", "beach", "--attach", image, "--attach", tone, "Beach", "Listen to the waves"])
            let item = "li[data-id='beach']"
            try await browser.wait(item, showing: "Listen to the waves")
            let signed = "/web/attachments/\(Self.app)/beach/"
            let imageSource = try #require(try await browser.attribute("\(item) .attachments img", "src"))
            #expect(imageSource.hasPrefix(try session.origin + signed) && imageSource.contains("expires=") && imageSource.contains("signature="), "\(imageSource)")
            try await eventually("the image loaded") {
                try await browser.script("const i = document.querySelector(\"\(item) .attachments img\"); return i.complete && i.naturalWidth") as? Int == 96
            }
            #expect(try await browser.script("return document.querySelector(\"\(item) .attachments img\").naturalHeight") as? Int == 64)
            #expect(try await browser.attribute("\(item) .attachments img", "alt")?.hasPrefix("Image: ") == true)

            let soundSource = try #require(try await browser.attribute("\(item) .attachments audio[controls]", "src"))
            #expect(soundSource.hasPrefix(try session.origin + signed) && soundSource.contains("signature=") && soundSource != imageSource, "\(soundSource)")
            #expect(try await browser.attribute("\(item) .attachments audio", "aria-label")?.hasPrefix("Sound: ") == true)
            _ = try await browser.script("const a = document.querySelector(\"\(item) .attachments audio\"); a.preload = 'auto'; a.load()")
            try await eventually("the sound loaded") {
                let duration = try await browser.script("const a = document.querySelector(\"\(item) .attachments audio\"); return a.readyState >= 1 ? a.duration : 0")
                return ((duration as? Double) ?? 0) > 0.4
            }
            #expect(try await browser.script("return document.querySelector(\"\(item) .attachments audio\").error === null") as? Bool == true)
        }
    }

    /// A notification due while chimed was stopped is delivered when it starts again, marked late with
    /// the time it was due; one on time is not.
    @Test func aLateDeliveryIsMarkedLate() async throws {
        let home = try DaemonHome()
        var daemon = try await home.start()
        #expect(await WebCenterSession.chime(["add", "--app", Self.app, "--id", "missed", "--in", "1h", "Standup", "In the big room"], home).exitCode == .success)
        #expect(await daemon.terminate() == 0)
        // While chimed was stopped, its due time passed five minutes ago (beyond the minute a fire may be late).
        let due = Date().addingTimeInterval(-300)
        let db = try SQLiteConnection(path: home.paths.storeFile.path, flags: [.readWrite])
        try db.execute("UPDATE pending SET next_fire = ? WHERE request_id = 'missed'", arguments: [.real(due.timeIntervalSinceReferenceDate)])
        _ = db  // closed when it goes out of scope

        daemon = try await home.start()
        let session = try await WebCenterSession.open(home: home, daemon: daemon)
        let browser = session.browser
        try await session.run {
            await session.add(["--app", Self.other, "--id", "ontime", "On time"])
            try await browser.wait("li[data-id='ontime']", showing: "On time")
            let late = try await browser.wait("li[data-id='missed'] .late", showing: "late — due ")
            let expected = try await browser.script("""
                return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
                  .format(new Date(\(Int(due.timeIntervalSince1970 * 1000))))
                """) as? String
            #expect(late == "late — due \(expected ?? "?")")
            #expect(try await browser.count("li[data-id='ontime'] .late") == 0)
        }
    }

    /// While the session is locked, a stack whose previews show only when unlocked gives away nothing:
    /// its newest says "Notification" under "2 more notifications" (not the category's summary), and
    /// expanded, every one of the stack says only "Notification".
    @Test func aLockedStackShowsOnlyHowManyThereAre() async throws {
        let bus = try await PrivateBus.start()
        var options = FakeNotificationServer.Options()
        options.logind = true
        let server = try await FakeNotificationServer.start(on: bus, options: options)
        let session = try await WebCenterSession.start(bus: bus, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_SESSION_ID": "7"])
        let browser = session.browser
        try await session.run {
            try await session.setCategories(meetingCategories, app: Self.app)
            #expect(await session.chime(["apps", "allow", Self.app]).exitCode == .success)
            #expect(await session.chime(["apps", "settings", Self.app, "--previews", "when-unlocked"]).exitCode == .success)
            let texts = [("c1", "Lunch on Friday?", "Ann invites you"), ("c2", "Coffee?", "Ann: at 3?"), ("c3", "Dinner?", "Ann: at 8?")]
            for (identifier, title, body) in texts {
                await session.add(["--app", Self.app, "--category", "invite", "--thread", "ann", "--id", identifier, title, body])
            }
            let stack = "section[data-app='\(Self.app)'] ul[data-thread='ann']"
            try await browser.wait("\(stack) li[data-id='c3'] .summary", showing: "2 more invitations")

            try await server.setLocked(true)
            try await browser.wait("#center .notice", showing: "The session is locked")
            try await browser.wait("\(stack) li[data-id='c3'].hidden-preview .body", showing: "Notification")
            try await browser.wait("\(stack) li[data-id='c3'] .summary", showing: "2 more notifications")
            try await browser.wait("section[data-app='\(Self.app)'] .count", showing: "3 notifications")
            let shown = try await browser.script("return document.getElementById('center').textContent") as? String ?? ""
            for (_, title, body) in texts {
                #expect(!shown.contains(title) && !shown.contains(body), "\(title) / \(body) shows while locked: \(shown)")
            }
            #expect(!shown.contains("invitations"), "the category's summary is preview text too")
            try await browser.click("section[data-app='\(Self.app)'] .stack-toggle")
            try await eventually("all three shown") { try await browser.count("\(stack) li.notification") == 3 }
            #expect(try await browser.count("\(stack) li.notification.hidden-preview") == 3)
            #expect(try await browser.count("\(stack) li.notification .title") == 0)

            try await server.setLocked(false)
            try await browser.wait("\(stack) li[data-id='c1']:not(.hidden-preview) .body", showing: "Ann invites you")
        }
        await server.stop()
        await bus.stop()
    }
}
