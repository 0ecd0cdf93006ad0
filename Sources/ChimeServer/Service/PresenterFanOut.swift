import ChimeAPI
import ChimeCore
public import ChimeEngine

/// Several presenters behind the engine's one: the desktop (or the log) and the event stream for pages at
/// once. Each gets every call, in order; answers come back through the engine, from whichever the user used.
public struct PresenterFanOut: NotificationPresenter {
    public let presenters: [any NotificationPresenter]

    public init(_ presenters: [any NotificationPresenter]) {
        self.presenters = presenters
    }

    public func present(_ presentation: Presentation) async {
        for presenter in presenters { await presenter.present(presentation) }
    }

    public func withdraw(appIdentifier: String, identifiers: [String]) async {
        for presenter in presenters { await presenter.withdraw(appIdentifier: appIdentifier, identifiers: identifiers) }
    }

    public func updateBadge(appIdentifier: String, count: Int) async {
        for presenter in presenters { await presenter.updateBadge(appIdentifier: appIdentifier, count: count) }
    }

    public func connect(to engine: NotificationEngine) {
        for presenter in presenters { presenter.connect(to: engine) }
    }
}

/// The presenter that pages see: each delivery and withdrawal as an event on `GET /v1/events`. It also
/// tells the service that its lists changed (the status counts are read again).
public struct ListEventsPresenter: NotificationPresenter {
    let events: EventHub
    let changed: @Sendable () -> Void

    public init(events: EventHub, changed: @escaping @Sendable () -> Void) {
        self.events = events
        self.changed = changed
    }

    public func present(_ presentation: Presentation) async {
        changed()
        let event = DeliveredEvent(
            app: presentation.appIdentifier, identifier: presentation.notificationIdentifier, date: presentation.date, title: presentation.title,
            subtitle: presentation.subtitle, body: presentation.body, previewsHidden: presentation.previewsHidden,
            categoryIdentifier: presentation.categoryIdentifier, interruptionLevel: presentation.interruptionLevel.wireName, banner: presentation.destinations.contains(.banner),
            listed: presentation.destinations.contains(.list), isLate: presentation.isLate)
        events.publish(.delivered, event, to: .lists)
        // The fire set the app's badge (recorded before it was shown): pages read the app again.
        if presentation.badge != nil {
            events.publish(.appChanged, AppChangedEvent(app: presentation.appIdentifier), to: .lists)
        }
    }

    public func withdraw(appIdentifier: String, identifiers: [String]) async {
        changed()
        events.publish(.deliveredRemoved, DeliveredRemovedEvent(app: appIdentifier, identifiers: identifiers), to: .lists)
    }

    public func updateBadge(appIdentifier: String, count: Int) async {
        events.publish(.appChanged, AppChangedEvent(app: appIdentifier), to: .lists)
    }
}
