import ChimeAPI
import ChimeClient
import ChimeCore
import Foundation

extension CenterRunner {
    /// Prints each delivery and response as chimed reports it, until interrupted. When chimed stops, says
    /// so on standard error, waits for it to start again (a new token, a new socket) and goes on from the
    /// last event seen; what happened in between is lost, which the new chimed says with `reset`.
    func run(_ watch: WatchCommand) async throws -> String {
        var client = self.client
        var lastEventID: String?
        while true {
            let stream = try await client.listEvents(lastEventID: lastEventID)
            for await event in stream.events {
                if let line = Self.line(for: event, watch, zone: zone) { write(line) }
            }
            lastEventID = stream.lastEventID ?? lastEventID
            note("chime: chimed stopped; waiting for it to start again (Ctrl-C to stop watching)\n")
            client = try await reconnect()
            note("chime: chimed is back; watching again\n")
        }
    }

    /// A client of the next chimed to answer at `paths`, tried every `retryInterval`; throws only what
    /// waiting will not cure (a runtime folder that is not the user's).
    private func reconnect() async throws -> DaemonClient {
        while true {
            try await Task.sleep(for: Self.retryInterval)
            do {
                return try await DaemonClient.connect(paths: paths)
            } catch let error as APIError where error.apiCode == .notConnected || error.apiCode == .unauthenticated {
                // Not there yet, or its token was read while it was being replaced.
                continue
            }
        }
    }

    static let retryInterval: Duration = .milliseconds(500)

    /// The line `watch` prints for `event`, or `nil` for events it does not show.
    static func line(for event: ListEvent, _ watch: WatchCommand, zone: TimeZone) -> String? {
        switch event {
        case .delivered(let delivered):
            guard watch.appIdentifier == nil || watch.appIdentifier == delivered.app else { return nil }
            if watch.json { return jsonLine("delivered", delivered) }
            let text = [delivered.subtitle, delivered.body].filter { !$0.isEmpty }.map { " — " + Output.shown($0) }.joined()
            let quiet = delivered.banner ? "" : " (quietly, to the list)"
            return "\(clock(delivered.date, zone))  \(Output.shown(delivered.app))  delivered  “\(Output.shown(delivered.title))”\(text)\(quiet)  [id \(Output.shown(delivered.identifier))]\n"
        case .responded(let responded):
            guard watch.appIdentifier == nil || watch.appIdentifier == responded.app else { return nil }
            if watch.json { return jsonLine("responded", responded) }
            let action =
                switch responded.action {
                case NotificationResponse.defaultActionIdentifier: "opened"
                case NotificationResponse.dismissActionIdentifier: "dismissed"
                default: "chose “\(Output.shown(responded.action))”"
                }
            let text = responded.text.map { ": “\(Output.shown($0))”" } ?? ""
            return "\(clock(Date(), zone))  \(Output.shown(responded.app))  responded  \(action)\(text)  [id \(Output.shown(responded.identifier))]\n"
        case .reset:
            return watch.json ? #"{"event":"reset"}"# + "\n" : "(chimed could not say what happened while the stream was away)\n"
        case .deliveredRemoved, .pendingChanged:
            return nil
        }
    }

    private static func clock(_ date: Date, _ zone: TimeZone) -> String {
        String(InstantFormat.iso8601(date, in: zone).dropFirst(11).prefix(8))
    }

    /// One line of JSON: the event's fields and `"event": name`, keys sorted, dates in RFC 3339 UTC.
    private static func jsonLine(_ name: String, _ payload: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InstantText.utc(date))
        }
        let line = try? encoder.encode(Named(event: name, payload: payload))
        return String(decoding: line ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    private struct Named<Payload: Encodable>: Encodable {
        var event: String
        var payload: Payload

        private enum Key: String, CodingKey { case event }

        func encode(to encoder: any Encoder) throws {
            try payload.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(event, forKey: .event)
        }
    }
}
