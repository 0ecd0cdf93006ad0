import ChimeAPI
import ChimeCore
import ChimeDelivery
import ChimeEngine
import ChimeServer
import Foundation

extension FuzzTarget {
    /// The header fields and query values the API and the senders read, one field per input (the first byte
    /// picks which): `Retry-After`, a `Cookie` header, `Last-Event-ID`, a query value, and a list cursor.
    static let headerFields = FuzzTarget("header-fields", "header fields and query values (Retry-After, HTTPDate, Cookie, Last-Event-ID, query, cursor)") { bytes in
        guard let first = bytes.first, let field = text(Array(bytes.dropFirst())) else { return .refused }
        switch first % 5 {
        case 0: return retryAfter(field)
        case 1: return cookie(field)
        case 2: return lastEventID(field)
        case 3: return queryValue(field)
        default: return listCursor(field)
        }
    }

    /// A fixed `now`, so an input means the same on every run.
    private static let now = Date(timeIntervalSince1970: 1_796_637_600)

    /// A pause is never negative nor past the maximum; a date that reads writes back as IMF-fixdate to the
    /// same instant, and that text is a fixed point.
    private static func retryAfter(_ field: String) -> Outcome {
        guard let pause = RetryAfter.seconds(field, now: now) else { return .refused }
        guard (0...RetryAfter.maximumSeconds).contains(pause) else { return .violated("a pause of \(pause) s") }
        let trimmed = field.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\n"))
        guard let date = HTTPDate.parse(trimmed, now: now) else { return .held }
        let written = HTTPDate.format(date)
        guard HTTPDate.parse(written, now: now) == date else { return .violated("\(trimmed.debugDescription) wrote as \(written), which reads differently") }
        return HTTPDate.format(HTTPDate.parse(written, now: now)!) == written ? .held : .violated("\(written) is not a fixed point")
    }

    /// The session cookie's value has no `;` and no spaces at its ends, and found again in a header of its
    /// own making.
    private static func cookie(_ header: String) -> Outcome {
        let name = WebSessions.sessionCookie
        guard let value = WebSessions.cookie(name, in: header) else { return .refused }
        let spaces: Set<Character> = [" ", "\t"]
        guard !value.contains(";"), !(value.first.map(spaces.contains) ?? false), !(value.last.map(spaces.contains) ?? false) else {
            return .violated("the value \(value.debugDescription)")
        }
        let again = WebSessions.cookie(name, in: "theme=dark; \(name)=\(value); lang=ko")
        return again == value ? .held : .violated("\(value.debugDescription) read back as \(String(describing: again))")
    }

    /// A `Last-Event-ID` names a sequence only under the hub's epoch, and that sequence's own id names it.
    private static func lastEventID(_ id: String) -> Outcome {
        let epoch = "k3x9a"
        guard let sequence = EventHub.sequence(in: id, epoch: epoch) else { return .refused }
        guard id.hasPrefix(epoch + ".") else { return .violated("\(id.debugDescription) is not of epoch \(epoch)") }
        return EventHub.sequence(in: "\(epoch).\(sequence)", epoch: epoch) == sequence ? .held : .violated("\(sequence) does not name itself")
    }

    /// A query value, decoded, encodes back (every byte but the unreserved as `%XX`) to text that decodes
    /// to it.
    private static func queryValue(_ raw: String) -> Outcome {
        guard let value = QueryDecoding.decode(raw) else { return .refused }
        var encoded = ""
        for byte in value.utf8 {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte) {
                encoded.append(Character(Unicode.Scalar(byte)))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return QueryDecoding.decode(encoded) == value ? .held : .violated("\(value.debugDescription) encoded as \(encoded) decodes differently")
    }

    /// A page cursor is a position the list gave, or `invalidParameters` on `cursor`; a position encodes
    /// to a cursor that reads the same.
    private static func listCursor(_ cursor: String) -> Outcome {
        do {
            let pending = try ListCursor.decode(cursor, as: PendingListPosition.self)
            guard try ListCursor.decode(ListCursor.encode(pending), as: PendingListPosition.self) == pending else { return .violated("a pending position read back differently") }
            return .held
        } catch {
            guard isCursorError(error) else { return .violated("\(error)") }
        }
        do {
            let delivered = try ListCursor.decode(cursor, as: DeliveredListPosition.self)
            guard try ListCursor.decode(ListCursor.encode(delivered), as: DeliveredListPosition.self) == delivered else {
                return .violated("a delivered position read back differently")
            }
            return .held
        } catch {
            return isCursorError(error) ? .refused : .violated("\(error)")
        }
    }

    private static func isCursorError(_ error: APIError) -> Bool {
        error.domain == .api && error.code == APIError.Code.invalidParameters.rawValue && error.field == "cursor"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
