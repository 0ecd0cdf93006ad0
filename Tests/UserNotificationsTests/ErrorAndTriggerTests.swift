import ChimeCore
import ChimeEngine
import ChimeTesting
import CoreLocation
import Foundation
import Testing
import UserNotifications

@Suite("UNError and triggers")
struct ErrorAndTriggerTests {
    func content() -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Stand-up"
        return content
    }

    /// Adds with the completion handler and returns what it received, checking nothing was scheduled.
    func failure(adding trigger: UNNotificationTrigger?, content: UNNotificationContent? = nil, identifier: String = "r", in h: Harness) async throws -> (any Error)? {
        let result = Completion<(any Error)?>()
        h.center.add(UNNotificationRequest(identifier: identifier, content: content ?? self.content(), trigger: trigger)) { result.receive($0) }
        let error = await result.next()
        #expect(await h.center.pendingNotificationRequests().isEmpty)
        return error
    }

    @Test func applesCodesKeepTheirRawValues() {
        let codes: [(UNError.Code, Int)] = [
            (.notificationsNotAllowed, 1), (.attachmentInvalidURL, 100), (.attachmentUnrecognizedType, 101), (.attachmentInvalidFileSize, 102),
            (.attachmentNotInDataStore, 103), (.attachmentMoveIntoDataStoreFailed, 104), (.attachmentCorrupt, 105),
            (.notificationInvalidNoDate, 1400), (.notificationInvalidNoContent, 1401), (.contentProvidingObjectNotAllowed, 1500),
            (.contentProvidingInvalid, 1501), (.badgeInputInvalid, 1600),
        ]
        for (code, raw) in codes {
            #expect(code.rawValue == raw)
        }
        #expect(UNErrorDomain == "UNErrorDomain")
        let error = UNError(.notificationsNotAllowed)
        #expect((error as NSError).domain == UNErrorDomain)
        #expect((error as NSError).code == 1)
        #expect(error.localizedDescription == "Notifications are not allowed for this application")
        #expect(UNError(.attachmentCorrupt, userInfo: [NSLocalizedDescriptionKey: "broken"]).localizedDescription == "broken")
    }

    @Test func aDeniedAppsAddFailsWithNotificationsNotAllowed() async throws {
        let h = Harness(answersAuthorization: false)
        _ = try await h.center.requestAuthorization(options: [.alert])
        let error = try #require(try await failure(adding: nil, in: h) as? UNError)
        #expect(error.code == .notificationsNotAllowed)
        #expect(error.chimeError?.code == .notificationsNotAllowed)
        do {
            try await h.center.add(UNNotificationRequest(identifier: "r", content: content(), trigger: nil))
            Issue.record("add succeeded")
        } catch UNError.notificationsNotAllowed {
            // Apple's pattern matches.
        }
    }

    @Test(arguments: [(0.0, false), (-5.0, false), (30.0, true), (Double.nan, false)])
    func anInvalidIntervalFailsAddWithNoDateInsteadOfCrashing(interval: Double, repeats: Bool) async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: interval, repeats: repeats)
        #expect(trigger.nextTriggerDate() == nil)
        let error = try #require(try await failure(adding: trigger, in: h) as? UNError)
        #expect(error.code == .notificationInvalidNoDate)
        #expect(error.chimeError?.code == .invalidTimeInterval)
    }

    @Test func dateComponentsThatNeverMatchFailAddWithNoDate() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        for components in [DateComponents(month: 13), DateComponents(month: 2, day: 30), DateComponents()] {
            let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
            #expect(trigger.nextTriggerDate() == nil)
            let error = try #require(try await failure(adding: trigger, in: h) as? UNError)
            #expect(error.code == .notificationInvalidNoDate)
            #expect(error.chimeError?.code == .invalidDateComponents)
        }
    }

    @Test func whatAppleHasNoCodeForIsAChimeError() async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        #expect((try await failure(adding: nil, identifier: "", in: h) as? ChimeError)?.code == .invalidIdentifier)

        let bad = content()
        bad.relevanceScore = 2
        #expect((try await failure(adding: nil, content: bad, in: h) as? ChimeError)?.code == .valueOutOfRange)

        bad.relevanceScore = 0
        bad.sound = UNNotificationSound(named: UNNotificationSoundName(""))
        #expect((try await failure(adding: nil, content: bad, in: h) as? ChimeError)?.code == .invalidIdentifier)

        bad.sound = .criticalSoundNamed(UNNotificationSoundName("siren.aiff"), withAudioVolume: 1.5)
        #expect((try await failure(adding: nil, content: bad, in: h) as? ChimeError)?.code == .valueOutOfRange)

        bad.sound = nil
        bad.badge = -1
        #expect((try await failure(adding: nil, content: bad, in: h) as? UNError)?.code == .badgeInputInvalid)
    }

    @Test func attachmentsAreCheckedWhenMade() throws {
        #expect {
            try UNNotificationAttachment(identifier: "x", url: URL(fileURLWithPath: "/nonexistent/hello.png"), options: nil)
        } throws: { ($0 as? UNError)?.code == .attachmentInvalidURL }

        let text = try Fixtures.temporaryDirectory().appendingPathComponent("notes.txt")
        try Data("not an image".utf8).write(to: text)
        #expect {
            try UNNotificationAttachment(identifier: "x", url: text, options: nil)
        } throws: { ($0 as? UNError)?.code == .attachmentUnrecognizedType }

        let png = try Fixtures.png()
        let attachment = try UNNotificationAttachment(
            identifier: "", url: png,
            options: [
                UNNotificationAttachmentOptionsThumbnailHiddenKey: true,
                UNNotificationAttachmentOptionsThumbnailClippingRectKey: ["X": 0.25, "Y": 0.25, "Width": 0.5, "Height": 0.5],
                UNNotificationAttachmentOptionsTypeHintKey: "public.png",
            ])
        #expect(!attachment.identifier.isEmpty)  // made up, as Apple does
        #expect(attachment.type == "public.png")
        #expect(attachment.url == png)
        #expect {
            try UNNotificationAttachment(identifier: "x", url: png, options: [UNNotificationAttachmentOptionsThumbnailTimeKey: "soon"])
        } throws: { ($0 as? ChimeError)?.code == .valueOutOfRange }
    }

    // MARK: Triggers

    @Test func aTimeIntervalTriggerAnswersNowPlusItsIntervalOnTheCentersClock() async throws {
        let h = Harness()
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 90, repeats: false)
        UNUserNotificationCenter.withCurrent(h.center) {
            #expect(trigger.nextTriggerDate() == Harness.start.addingTimeInterval(90))
        }
        _ = try await h.center.requestAuthorization(options: [.alert])
        try await h.center.add(UNNotificationRequest(identifier: "r", content: content(), trigger: trigger))
        await h.run(for: 30)
        let pending = try #require(await h.center.pendingNotificationRequests().first?.trigger as? UNTimeIntervalNotificationTrigger)
        #expect(pending.timeInterval == 90)
        #expect(pending.repeats == false)
        #expect(pending.nextTriggerDate() == h.clock.now.addingTimeInterval(90))  // as Apple answers
        #expect(pending == trigger)
    }

    @Test func aCalendarTriggerAnswersTheNextMatchingDate() async throws {
        let seoul = TimeZone(identifier: "Asia/Seoul")!
        let h = Harness(timeZone: seoul)
        let trigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(timeZone: seoul, hour: 8, minute: 30), repeats: true)
        UNUserNotificationCenter.withCurrent(h.center) {
            // 2025-12-01T00:00Z is 09:00 in Seoul: next 08:30 is the next morning, 2025-12-01T23:30Z.
            #expect(trigger.nextTriggerDate() == Date(timeIntervalSince1970: 1_764_631_800))
        }
        _ = try await h.center.requestAuthorization(options: [.alert])
        try await h.center.add(UNNotificationRequest(identifier: "r", content: content(), trigger: trigger))
        let pending = try #require(await h.center.pendingNotificationRequests().first?.trigger as? UNCalendarNotificationTrigger)
        #expect(pending.dateComponents.hour == 8)
        #expect(pending.repeats)
        #expect(pending == trigger)
        #expect(pending.nextTriggerDate() == Date(timeIntervalSince1970: 1_764_631_800))
    }

    /// A geofenced reminder as iOS code writes it: added, listed back as the same trigger with the region
    /// as given, its flags kept; the trigger holds a copy, so changing the region later changes nothing.
    @Test func aLocationTriggerIsKeptAsGiven() async throws {
        let h = Harness()
        let office = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.978), radius: 150, identifier: "office")
        office.notifyOnEntry = true
        office.notifyOnExit = false
        let trigger = UNLocationNotificationTrigger(region: office, repeats: false)
        office.notifyOnEntry = false
        #expect(trigger.region.notifyOnEntry, "the trigger keeps the region as it was")
        _ = try await h.center.requestAuthorization(options: [.alert])
        try await h.center.add(UNNotificationRequest(identifier: "arrive", content: content(), trigger: trigger))
        let pending = try #require(await h.center.pendingNotificationRequests().first?.trigger as? UNLocationNotificationTrigger)
        let region = try #require(pending.region as? CLCircularRegion)
        #expect(region.identifier == "office" && region.radius == 150)
        #expect(region.center == CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.978))
        #expect(region.notifyOnEntry && !region.notifyOnExit)
        #expect(!pending.repeats)
        #expect(pending == trigger)
        #expect(pending != UNLocationNotificationTrigger(region: office, repeats: false), "a region that notifies on nothing differs")
    }

    /// Regions Apple's initializers would raise on fail `add` with `invalidRegion`, naming the field.
    @Test(arguments: [
        (91.0, 0.0, 150.0, true, "latitude"), (0, 181, 150, true, "longitude"), (0, 0, 0, true, "radius"), (0, 0, -5, true, "radius"),
        (0, 0, .infinity, true, "radius"), (0, 0, 150, false, "notifyOnEntry"),
    ])
    func anInvalidRegionFailsAdd(latitude: Double, longitude: Double, radius: Double, notifies: Bool, field: String) async throws {
        let h = Harness()
        _ = try await h.center.requestAuthorization(options: [.alert])
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), radius: radius, identifier: "r")
        region.notifyOnEntry = notifies
        region.notifyOnExit = notifies
        let error = try await failure(adding: UNLocationNotificationTrigger(region: region, repeats: true), in: h)
        let chime = try #require(error as? ChimeError)
        #expect(chime.code == .invalidRegion && chime.field == field, "\(chime)")
    }
}
