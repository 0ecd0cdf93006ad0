import ChimeCore
import Foundation
import Testing

@Suite struct DeliveredNotificationTests {
    let fireDate = Date(timeIntervalSince1970: 1_764_572_400)  // 2025-12-01T07:00:00Z
    let bootDate = Date(timeIntervalSince1970: 1_764_576_000)  // 2025-12-01T08:00:00Z

    private func request() throws -> NotificationRequest {
        var content = NotificationContent(title: "New Photo", body: "Jane Doe posted a new photo")
        content.categoryIdentifier = "CATEGORY_IMAGE_POSTING"
        return try NotificationRequest(
            identifier: "photo-1", content: content,
            trigger: .timeInterval(TimeIntervalTrigger(timeInterval: 5, repeats: false)))
    }

    private func like() throws -> NotificationAction { try NotificationAction(identifier: "like-action", title: "Like") }
    private func comment() throws -> NotificationAction { try NotificationAction.textInput(identifier: "comment-action", title: "Comment") }
    private func unlike() throws -> NotificationAction { try NotificationAction(identifier: "unlike-action", title: "Unlike") }

    @Test func anOnTimeDeliveryIsNotLateAndOffersTheCategorysActions() throws {
        let delivered = try DeliveredNotification(request: request(), date: fireDate, scheduledDate: fireDate)
        #expect(delivered.identifier == "photo-1")
        #expect(delivered.date == fireDate)
        #expect(delivered.scheduledDate == fireDate)
        #expect(!delivered.isLate)
        #expect(delivered.actionsOverride == nil)
        let category = try NotificationCategory(identifier: "CATEGORY_IMAGE_POSTING", actions: [like(), comment()])
        #expect(delivered.actions(in: category) == [try like(), try comment()])
        #expect(delivered.actions(in: nil).isEmpty)
    }

    @Test func aLateDeliveryKeepsTheFireDateItMissed() throws {
        let late = try DeliveredNotification(request: request(), date: bootDate, scheduledDate: fireDate, isLate: true)
        #expect(late.isLate)
        #expect(late.scheduledDate == fireDate)
        #expect(late.date.timeIntervalSince(fireDate) == 3600)
    }

    @Test func rejectsALateDeliveryWithoutScheduledDate() {
        #expect(throws: ChimeError(.notificationInvalidNoDate, field: "scheduledDate", "a late notification needs the date it was scheduled for")) {
            try DeliveredNotification(request: request(), date: bootDate, isLate: true)
        }
    }

    @Test func rejectsALateDeliveryScheduledAfterItWasDelivered() {
        #expect(throws: ChimeError(.valueOutOfRange, field: "scheduledDate", "a late notification cannot be scheduled after it was delivered")) {
            try DeliveredNotification(request: request(), date: fireDate, scheduledDate: bootDate, isLate: true)
        }
    }

    @Test func aContentExtensionReplacesTheActionsOfOneNotification() throws {
        // The seeds' content extension: after "like", offer "unlike" and keep "comment".
        let category = try NotificationCategory(identifier: "CATEGORY_IMAGE_POSTING", actions: [like(), comment()])
        let delivered = try DeliveredNotification(request: request(), date: fireDate)
        let liked = try delivered.replacingActions([unlike(), comment()])
        #expect(liked.actions(in: category) == [try unlike(), try comment()])
        #expect(liked.date == delivered.date)
        #expect(try liked.replacingActions([]).actions(in: category).isEmpty)
        #expect(try liked.replacingActions(nil) == delivered)
    }

    @Test func rejectsOverrideActionsThatShareAnIdentifier() throws {
        let delivered = try DeliveredNotification(request: request(), date: fireDate)
        #expect(throws: ChimeError(.duplicateActionIdentifier, field: "actionsOverride[1]", "two actions share an identifier")) {
            try delivered.replacingActions([unlike(), unlike()])
        }
    }

    @Test func roundTripsThroughJSON() throws {
        let notifications = [
            try DeliveredNotification(request: request(), date: bootDate, scheduledDate: fireDate, isLate: true, actionsOverride: [unlike()]),
            try DeliveredNotification(request: request(), date: fireDate, actionsOverride: []),
        ]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let data = try encoder.encode(notifications)
        #expect(try decoder.decode([DeliveredNotification].self, from: data) == notifications)
        let object = try JSONDecoder().decode([JSONValue].self, from: data)[0]
        #expect(object["date"] == "2025-12-01T08:00:00Z")
        #expect(object["scheduledDate"] == "2025-12-01T07:00:00Z")
        #expect(object["isLate"] == true)
    }

    @Test func decodingRevalidates() throws {
        let onTime = try DeliveredNotification(request: request(), date: fireDate)
        var object = try JSONDecoder().decode([String: JSONValue].self, from: JSONEncoder().encode(onTime))
        object["isLate"] = true
        let error = #expect(throws: ChimeError.self) {
            try JSONDecoder().decode(DeliveredNotification.self, from: JSONEncoder().encode(object))
        }
        #expect(error?.code == .notificationInvalidNoDate)
    }
}
