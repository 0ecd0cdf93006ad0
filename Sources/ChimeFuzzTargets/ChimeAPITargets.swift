import ChimeAPI
import ChimeCore
import Foundation

extension FuzzTarget {
    /// Server mode's batches: the fast reader (`RecipientBatch.decode(json:)`, piece by piece with the
    /// hand-written request reader) and Foundation's `Codable` read the same batch, or both refuse.
    static let recipientBatch = FuzzTarget("recipient-batch", "server mode's POST /v1/notifications bodies (RecipientBatch, WireJSONReader)") { bytes in
        let fast = Result { try RecipientBatch.decode(json: bytes) }
        let plain = Result { try WireFormat.decoder().decode(RecipientBatch.self, from: Data(bytes)) }
        switch (fast, plain) {
        case (.success(let a), .success(let b)): return a == b ? .held : .violated("the two readers read different batches")
        case (.failure, .failure): return .refused
        case (.success, .failure(let error)): return .violated("the fast reader took a batch Codable refuses: \(error)")
        case (.failure(let error), .success): return .violated("the fast reader refused a batch Codable takes: \(error)")
        }
    }

    /// The per-user API's add bodies: what is read writes back to the same requests.
    static let addRequests = FuzzTarget("add-requests", "POST /v1/apps/{app}/pending bodies (AddRequests)") { bytes in
        guard let body = try? WireFormat.decoder().decode(AddRequests.self, from: Data(bytes)) else { return .refused }
        guard let written = try? WireFormat.encoder().encode(body) else { return .violated("an accepted body could not be written") }
        guard let again = try? WireFormat.decoder().decode(AddRequests.self, from: written) else {
            return .violated("could not read what it wrote: \(String(decoding: written.prefix(500), as: UTF8.self))")
        }
        return again == body ? .held : .violated("read back differently")
    }

    /// The event streams' parser (the client's side of Server-Sent Events): any cut of the bytes into two
    /// reads gives the same events as one read (the first byte picks the cut), and the events it gives
    /// write and read back the same.
    static let serverSentEvents = FuzzTarget("sse-stream", "Server-Sent Events streams (ServerSentEventParser)") { bytes in
        guard let first = bytes.first else { return .refused }
        let stream = Array(bytes.dropFirst())
        var whole = ServerSentEventParser(maximumEventSize: 1 << 16)
        var split = ServerSentEventParser(maximumEventSize: 1 << 16)
        let cut = stream.isEmpty ? 0 : Int(first) % (stream.count + 1)
        let once = Result { () throws(ServerSentEventParser.Oversized) in try whole.append(stream) }
        let twice = Result { () throws(ServerSentEventParser.Oversized) in try split.append(stream[..<cut]) + split.append(stream[cut...]) }
        switch (once, twice) {
        case (.success(let events), .success(let again)):
            guard events == again, whole.lastEventID == split.lastEventID else { return .violated("a cut at \(cut) changed the events") }
            guard !events.isEmpty else { return .refused }
            var reader = ServerSentEventParser(maximumEventSize: 1 << 16)
            let rewritten = (try? reader.append(events.flatMap(\.encoded))) ?? []
            // Writing keeps the event's name and data; what is written reads back as written.
            guard rewritten.map(\.data) == events.map(\.data), rewritten.map(\.event) == events.map(\.event) else {
                return .violated("events did not write and read back")
            }
            return .held
        case (.failure, .failure): return .refused
        default: return .violated("a cut at \(cut) changed whether the stream is too large")
        }
    }

    /// The API's router: a path it matches, written again from the route and its parameters, matches the
    /// same; percent-encoding any parameter decodes back to it. The first byte picks the method.
    static let route = FuzzTarget("route", "API paths (Route.match, PercentEncoding)") { bytes in
        guard let first = bytes.first, let path = text(Array(bytes.dropFirst())) else { return .refused }
        let method = HTTPMethod.allCases[Int(first) % HTTPMethod.allCases.count].rawValue
        guard case .route(let route, let parameters) = Route.match(method: method, path: path) else { return .refused }
        let names = route.segments.filter { $0.first == "{" }.map { String($0.dropFirst().dropLast()) }
        let values = names.map { parameters[$0] ?? "" }
        for value in values where PercentEncoding.decode(PercentEncoding.encodeSegment(value)) != value {
            return .violated("\(value.debugDescription) does not percent-encode and decode back")
        }
        let written: String =
            switch values.count {
            case 0: route.path()
            case 1: route.path(values[0])
            default: route.path(values[0], values[1])
            }
        return Route.match(method: method, path: written) == .route(route, parameters)
            ? .held : .violated("\(written) matches differently from \(path.debugDescription)")
    }
}
