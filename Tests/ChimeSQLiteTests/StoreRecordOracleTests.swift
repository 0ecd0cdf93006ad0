import ChimeCore
import ChimeEngine
import ChimeStoreCoding
import ChimeTestSupport
import ChimeTesting
import Foundation
import Testing

/// Records in both forms, read by a reader written apart from the Swift one (`store_record_oracle.py`,
/// from the layout `StoreRecordFormat` documents), must hold what `JSONEncoder` writes for the same
/// values: the format's own rules, not only the Swift reader's agreement with the Swift writer.
@Suite("Store records against an independent reader")
struct StoreRecordOracleTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("store_record_oracle.py").path

    @Test func anIndependentReaderReadsBothFormsAsJSONEncoderWritesTheValues() async throws {
        var random = SeededGenerator(seed: 0x0_A7C1E)
        var lines: [String] = []
        func add<Value: Encodable>(_ kind: String, _ value: Value) throws {
            let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            for form in [StoreRecord.Form.compact, .wide] {
                let hex = try StoreRecord.encode(value, form: form).map { String(format: "%02x", $0) }.joined()
                lines.append("\(kind)\t\(hex)\t\(json)")
            }
        }
        var requests: [NotificationRequest] = []
        for index in 0..<1_500 {
            var request = try StoreRecordRequestCodingTests.randomRequest(index, &random)
            // User info whose keys are also the names of known keys, and one past the one-byte numbers.
            if index.isMultiple(of: 5) {
                var content = request.content
                content.userInfo = ["title": "a user key named like a field", "count": 3, "isLeapMonth": ["day": 1], "ß": nil]
                request = try NotificationRequest(identifier: request.identifier, content: content, trigger: request.trigger, misfirePolicy: request.misfirePolicy)
            }
            requests.append(request)
            try add("request", request)
            // As a pending row holds it: without the identifier its key holds.
            let key = request.identifier.utf8.map { String(format: "%02x", $0) }.joined()
            let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            for form in [StoreRecord.Form.compact, .wide] {
                let hex = try StoreRecord.encodeForKeyedRow(request, form: form).map { String(format: "%02x", $0) }.joined()
                lines.append("pending:\(key)\t\(hex)\t\(json)")
            }
        }
        // What the store writes through encode(to:): a sound, a zone and a leap month, a location trigger.
        var ringing = NotificationContent(title: "Ring", body: "Twice")
        ringing.sound = try .criticalNamed("bell.aiff", volume: 0.5)
        var zoned = DateComponents(month: 2, day: 29, hour: 7)
        zoned.timeZone = TimeZone(identifier: "Asia/Seoul")
        zoned.isLeapMonth = false
        try add("request", try NotificationRequest(identifier: "ring", content: ringing, trigger: .calendar(CalendarTrigger(dateMatching: zoned, repeats: true))))
        try add(
            "request",
            try NotificationRequest(
                identifier: "office", content: NotificationContent(title: "Arrived"),
                trigger: .location(LocationTrigger(region: CircularRegion(latitude: 37.5, longitude: 127, radius: 150, identifier: "office"), repeats: false))))
        for (index, request) in requests.prefix(200).enumerated() {
            try add(
                "delivered",
                try DeliveredNotification(
                    request: request, date: Date(timeIntervalSinceReferenceDate: 800_000_000.25 + Double(index)), scheduledDate: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index)),
                    isLate: index.isMultiple(of: 2),
                    actionsOverride: index.isMultiple(of: 3) ? [try NotificationAction(identifier: "ok", title: "OK")] : nil))
        }
        try add("other", MissedFire(requestIdentifier: "tea", firstMissedDate: Date(timeIntervalSinceReferenceDate: 1), lastMissedDate: Date(timeIntervalSinceReferenceDate: 2), count: 2, outcome: .skipped, detectedDate: Date(timeIntervalSinceReferenceDate: 3)))
        try add("other", AppRecord(appIdentifier: "com.example.app", settings: .notDetermined, badgeCount: 4))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-record-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("records.tsv")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let judged = try await Subprocess.run("/usr/bin/python3", [Self.oracle, input.path])
        #expect(judged.status == 0, "\(judged.standardOutput)\(judged.standardError)")
        #expect(judged.standardOutput == "ok \(lines.count)\n")
    }

    /// What the compact form is for: a typical reminder's record is less than half as long.
    @Test func aTypicalRemindersCompactRecordIsLessThanHalfTheWideOne() throws {
        var content = NotificationContent(title: "Water the plants", body: "The fern and the basil on the balcony")
        content.categoryIdentifier = "reminder"
        let reminder = try NotificationRequest(
            identifier: "reminder-42", content: content, trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 8, minute: 30), repeats: true)))
        let compact = try StoreRecord.encode(reminder, form: .compact)
        let wide = try StoreRecord.encode(reminder, form: .wide)
        #expect(compact.count * 2 < wide.count, "compact \(compact.count) bytes, wide \(wide.count)")
        #expect(try StoreRecord.decode(NotificationRequest.self, from: compact) == reminder)
    }
}
