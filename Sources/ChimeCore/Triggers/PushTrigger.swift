/// Marks a notification that arrived from a remote push (Apple's `UNPushNotificationTrigger`).
///
/// It never fires by itself: the notification was delivered when the push arrived.
public struct PushTrigger: Sendable, Hashable, Codable {
    public let repeats: Bool

    public init() {
        repeats = false
    }
}
