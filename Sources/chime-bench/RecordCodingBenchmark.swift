import ChimeAPI
import ChimeCore
import ChimeStoreCoding
import Foundation

/// What writing and reading one request's store record costs, written and read directly (what every add
/// and fire does) beside the same record through the request's `encode(to:)` and `init(from:)` (what
/// they did before), in the same run; in the compact form the SQLite store writes, and the direct path
/// again in the wide form the PostgreSQL store writes. Two requests: a typical reminder (title, body, a calendar trigger)
/// and one of the burst's (a title, a time-interval trigger). Beside them, a server-mode fire's event
/// (`RecipientDeliveredEvent`) written by hand and by `WireFormat`'s `JSONEncoder`.
struct RecordCodingBenchmark {
    var requests = 200_000
    var rounds = 3

    /// The `Codable` path: the wrappers are types the direct writer and reader do not know.
    struct ThroughCodable: Codable {
        let request: NotificationRequest
        init(_ request: NotificationRequest) { self.request = request }
        init(from decoder: any Decoder) throws { request = try NotificationRequest(from: decoder) }
        func encode(to encoder: any Encoder) throws { try request.encode(to: encoder) }
    }

    struct Figures: Encodable {
        var request: String
        var recordBytes: Int
        var encodeDirectNanoseconds: Double
        var encodeCodableNanoseconds: Double
        var decodeDirectNanoseconds: Double
        var decodeCodableNanoseconds: Double
        var wideRecordBytes: Int
        var encodeWideDirectNanoseconds: Double
        var decodeWideDirectNanoseconds: Double
    }

    /// The wrapper hides the delivered notification's type, so only its `encode(to:)` writes its keys.
    struct DeliveredThroughCodable: Encodable {
        let delivered: DeliveredNotification
        func encode(to encoder: any Encoder) throws { try delivered.encode(to: encoder) }
    }

    /// The delivered record each fire writes (the burst request, delivered at its instant).
    struct DeliveredFigures: Encodable {
        var recordBytes: Int
        var encodeDirectNanoseconds: Double
        var encodeCodableNanoseconds: Double
    }

    struct EventFigures: Encodable {
        var eventBytes: Int
        var byHandNanoseconds: Double
        var jsonEncoderNanoseconds: Double
    }

    struct Report: Encodable {
        var workload = "records"
        var requests: Int
        var results: [Figures]
        var deliveredRecord: DeliveredFigures
        var deliveredEvent: EventFigures
    }

    func run() throws -> Report {
        var reminder = NotificationContent(title: "Water the plants", body: "The fern and the basil on the balcony")
        reminder.categoryIdentifier = "reminder"
        let typical = try NotificationRequest(
            identifier: "reminder-42", content: reminder,
            trigger: .calendar(CalendarTrigger(dateMatching: DateComponents(hour: 8, minute: 30, weekday: 2), repeats: true)))
        let burst = try NotificationRequest(
            identifier: "n12345", content: NotificationContent(title: "Order 12345"), trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 7.25, repeats: false)))
        let event = RecipientDeliveredEvent(
            recipient: "r42", app: "com.example.shop", alerting: "normally",
            notification: try DeliveredNotification(request: burst, date: Date(timeIntervalSince1970: 1_765_000_123.456)),
            text: DeliveredText(title: "Order 12345", subtitle: "", body: "", language: "en"))
        let eventBytes = try event.wireJSON()
        guard eventBytes == Array(try WireFormat.encoder().encode(event)) else { throw BenchmarkFailure("the event's two writers disagree") }
        let encoder = WireFormat.encoder()
        let delivered = try DeliveredNotification(request: burst, date: Date(timeIntervalSince1970: 1_765_000_123.456), scheduledDate: Date(timeIntervalSince1970: 1_765_000_123.456))
        let deliveredRecord = try StoreRecord.encode(delivered, form: .compact)
        guard try StoreRecord.decode(DeliveredNotification.self, from: deliveredRecord) == delivered,
            try StoreRecord.encode(delivered, form: .wide) == StoreRecord.encode(DeliveredThroughCodable(delivered: delivered), form: .wide)
        else { throw BenchmarkFailure("the two paths disagree on the delivered record") }
        return Report(
            requests: requests, results: try [measure("typical reminder", typical), measure("burst request", burst)],
            deliveredRecord: DeliveredFigures(
                recordBytes: deliveredRecord.count, encodeDirectNanoseconds: try fastest { _ = try StoreRecord.encode(delivered, form: .compact) },
                encodeCodableNanoseconds: try fastest { _ = try StoreRecord.encode(DeliveredThroughCodable(delivered: delivered), form: .compact) }),
            deliveredEvent: EventFigures(
                eventBytes: eventBytes.count, byHandNanoseconds: try fastest { _ = try event.wireJSON() },
                jsonEncoderNanoseconds: try fastest { _ = try encoder.encode(event) }))
    }

    func measure(_ name: String, _ request: NotificationRequest) throws -> Figures {
        let record = try StoreRecord.encode(request, form: .compact)
        let wide = try StoreRecord.encode(request, form: .wide)
        guard try StoreRecord.encode(ThroughCodable(request), form: .wide) == wide,
            try StoreRecord.decode(ThroughCodable.self, from: record).request == request, try StoreRecord.decode(NotificationRequest.self, from: record) == request,
            try StoreRecord.decode(NotificationRequest.self, from: wide) == request
        else { throw BenchmarkFailure("the two paths disagree on \(name)") }
        return Figures(
            request: name, recordBytes: record.count,
            encodeDirectNanoseconds: try fastest { _ = try StoreRecord.encode(request, form: .compact) },
            encodeCodableNanoseconds: try fastest { _ = try StoreRecord.encode(ThroughCodable(request), form: .compact) },
            decodeDirectNanoseconds: try fastest { _ = try StoreRecord.decode(NotificationRequest.self, from: record) },
            decodeCodableNanoseconds: try fastest { _ = try StoreRecord.decode(ThroughCodable.self, from: record) },
            wideRecordBytes: wide.count,
            encodeWideDirectNanoseconds: try fastest { _ = try StoreRecord.encode(request, form: .wide) },
            decodeWideDirectNanoseconds: try fastest { _ = try StoreRecord.decode(NotificationRequest.self, from: wide) })
    }

    /// Nanoseconds per call in the fastest of `rounds` rounds of `requests` calls.
    func fastest(_ body: () throws -> Void) throws -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            for _ in 0..<requests { try body() }
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
        }
        return (best / Double(requests) * 10).rounded() / 10
    }
}
