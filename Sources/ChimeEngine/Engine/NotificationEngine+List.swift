public import ChimeCore
import Foundation

/// A delivered notification as the notification list shows it now (the web center, Apple's Notification
/// Center): its presentation under the user's settings and environment of this moment, and the line under
/// its stack when it is the newest of several.
public struct ListedNotification: Sendable, Hashable {
    public var presentation: Presentation
    /// The stack's summary counting the others ("2 more messages from Ann", the category's
    /// `categorySummaryFormat` with `%u` = the others): what a collapsed stack says under its newest;
    /// `nil` when the notification is alone in its stack or stands alone.
    public var othersSummary: String?

    public init(presentation: Presentation, othersSummary: String?) {
        self.presentation = presentation
        self.othersSummary = othersSummary
    }
}

extension NotificationEngine {
    /// How the notification list shows `entries` now.
    ///
    /// The list is a presenter like the desktop, so the same `PresentationPolicy` decides what it shows,
    /// with what holds now rather than at delivery: the user's settings as they are (turning previews off
    /// hides the text of what came before, as on iOS), the session's lock (previews shown "when
    /// unlocked" hide while it is locked), the app's categories (buttons registered later appear), and
    /// the stack sizes of the list as it is. No app is asked anything: the system presents.
    public func listed(_ entries: [(appIdentifier: String, notification: DeliveredNotification)]) async throws -> [ListedNotification] {
        var states: [String: (app: AppRecord, counts: [String: Int])] = [:]
        // Each app's record once, and each stack's size once.
        for (appIdentifier, notification) in entries {
            if states[appIdentifier] == nil { states[appIdentifier] = (try await appRecord(appIdentifier), [:]) }
            guard let state = states[appIdentifier] else { continue }
            let thread = notification.request.content.threadIdentifier
            guard let key = state.app.settings.groupingSetting.groupKey(threadIdentifier: thread), state.counts[key] == nil else { continue }
            states[appIdentifier]?.counts[key] = try await stackCounts(state.app, threads: [thread])[key] ?? 0
        }
        let policy = PresentationPolicy()
        return entries.compactMap { appIdentifier, notification in
            guard let state = states[appIdentifier] else { return nil }
            let grouping = state.app.settings.groupingSetting
            let count = max(1, Self.stackCount(notification, in: state.counts, grouping: grouping))
            let localizer = localizers[appIdentifier] ?? NotificationLocalizer(tables: [:])
            func context(_ count: Int) -> PresentationContext {
                PresentationContext(notification: notification, app: state.app, environment: environment, threadCount: count, localizer: localizer)
            }
            let presentation = policy.presentation(for: context(count))
            let others = count > 1 ? policy.presentation(for: context(count - 1)).group.summary : nil
            return ListedNotification(presentation: presentation, othersSummary: others)
        }
    }
}
