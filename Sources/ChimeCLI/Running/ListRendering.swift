import ChimeAPI
import ChimeCore
import Foundation

/// How `pending` and `delivered` print, wherever their pages come from: the local notification center, or
/// a recipient's lists on a server-mode node. Pages are written as they arrive, so a list of 100,000 costs
/// one page of memory.
struct ListRendering {
    let zone: TimeZone
    let style: TerminalStyle
    let write: @Sendable (String) -> Void

    /// Prints every page `page` gives, from the first (`nil` cursor) until one has no `next`.
    func printPending(json: Bool, _ page: (String?) async throws -> Page<PendingItem>) async throws {
        let never = localized("list.never")
        let printer = ListPrinter(
            json: json, header: [localized("column.app"), localized("column.id"), localized("column.nextFire"), localized("column.title")],
            empty: localized("list.noPending") + "\n", style: style, tint: { column, text in column == 2 && text == never ? "2" : nil }, write: write)
        try await printer.printEveryPage(
            page,
            output: {
                PendingOutput(
                    app: $0.app, identifier: $0.request.identifier, title: Output.title($0.request.content), nextFireDate: $0.nextFireDate.map(utc),
                    nextFireDateLocal: $0.nextFireDate.map(iso), repeats: $0.request.trigger?.repeats ?? false,
                    region: Self.region($0.request.trigger))
            },
            row: { [$0.app, $0.request.identifier, $0.nextFireDate.map(iso) ?? Self.undated($0.request.trigger, never: never), Output.title($0.request.content)] })
    }

    /// The next-fire column of a request without a date: where a location trigger fires, else "never".
    static func undated(_ trigger: NotificationTrigger?, never: String) -> String {
        region(trigger).map(RegionSpec.describe) ?? never
    }

    /// The region a location trigger waits for.
    static func region(_ trigger: NotificationTrigger?) -> CircularRegion? {
        guard case .location(let location) = trigger else { return nil }
        return location.region
    }

    func printDelivered(json: Bool, _ page: (String?) async throws -> Page<DeliveredItem>) async throws {
        let printer = ListPrinter(
            json: json, header: [localized("column.app"), localized("column.id"), localized("column.delivered"), localized("column.title")],
            empty: localized("list.noDelivered") + "\n", style: style, write: write)
        try await printer.printEveryPage(
            page,
            output: {
                DeliveredOutput(
                    app: $0.app, identifier: $0.notification.identifier, title: Output.title($0.notification.request.content),
                    date: utc($0.notification.date), dateLocal: iso($0.notification.date))
            },
            row: { [$0.app, $0.notification.identifier, iso($0.notification.date), Output.title($0.notification.request.content)] })
    }

    func iso(_ date: Date) -> String {
        InstantFormat.iso8601(date, in: zone)
    }

    func utc(_ date: Date) -> String {
        InstantText.utc(date)
    }
}
