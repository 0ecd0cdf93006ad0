import ChimeCLI
import ChimeCore
import ChimeStoreCoding
import Foundation

extension FuzzTarget {
    /// The stores' records (`StoreRecord`: the compact and wide binary forms, and JSON blobs of older
    /// stores): damaged bytes are a typed error, and a record that reads writes back, in either form, to
    /// one that reads the same. The first byte picks the kind: a request, a delivered notification, a
    /// response, or a pending row's request, whose identifier the row's key keeps (and whose record a
    /// batch packs with others).
    static let storeRecord = FuzzTarget("store-record", "the stores' records (StoreRecord: requests, delivered notifications, responses)") { bytes in
        guard let kind = bytes.first else { return .refused }
        let record = Array(bytes.dropFirst())
        switch kind % 4 {
        case 0: return roundTrip(NotificationRequest.self, record)
        case 1: return roundTrip(DeliveredNotification.self, record)
        case 2: return roundTrip(NotificationResponse.self, record)
        default: return roundTripKeptApart(record, identifier: "n")
        }
    }

    private static func roundTripKeptApart(_ bytes: [UInt8], identifier: String) -> Outcome {
        guard let request = try? StoreRecord.decode(NotificationRequest.self, from: bytes, identifier: identifier) else { return .refused }
        guard request.identifier == identifier else { return .violated("a request kept under \"\(identifier)\" read as \"\(request.identifier)\"") }
        for form in [StoreRecord.Form.compact, .wide] {
            guard let written = try? StoreRecord.encodeForKeyedRow(request, form: form) else {
                return .violated("a request that was read could not be written without its identifier (\(form))")
            }
            guard let again = try? StoreRecord.decode(NotificationRequest.self, from: written, identifier: identifier) else {
                return .violated("could not read the request it wrote without its identifier (\(form))")
            }
            guard again == request else { return .violated("a request kept apart from its identifier read back differently (\(form))") }
            // Packed twice by one writer (a batch add's records): each the record written alone.
            var packer = StoreRecordPacker(form: form, records: 2)
            guard (try? packer.append(request)) != nil, (try? packer.append(request)) != nil else {
                return .violated("a request that was written alone could not be packed (\(form))")
            }
            guard packer.records.record(at: 0) == written, packer.records.record(at: 1) == written else {
                return .violated("a packed record differs from the record written alone (\(form))")
            }
        }
        return .held
    }

    private static func roundTrip<Value: Codable & Equatable>(_ type: Value.Type, _ bytes: [UInt8]) -> Outcome {
        guard let value = try? StoreRecord.decode(type, from: bytes) else { return .refused }
        for form in [StoreRecord.Form.compact, .wide] {
            guard let written = try? StoreRecord.encode(value, form: form) else { return .violated("a \(type) that was read could not be written (\(form))") }
            guard let again = try? StoreRecord.decode(type, from: written) else { return .violated("could not read the \(type) it wrote (\(form))") }
            guard again == value else { return .violated("a \(type) read back differently (\(form))") }
        }
        return .held
    }

    /// Categories files (`chime categories set`, `PUT /v1/apps/{app}/categories`): what is read writes
    /// back to the same categories.
    static let categories = FuzzTarget("categories", "categories files (NotificationCategory JSON)") { bytes in
        guard let categories = try? JSONDecoder().decode([NotificationCategory].self, from: Data(bytes)) else { return .refused }
        guard let written = try? JSONEncoder().encode(categories) else { return .violated("accepted categories could not be written") }
        guard let again = try? JSONDecoder().decode([NotificationCategory].self, from: written) else {
            return .violated("could not read what it wrote: \(String(decoding: written.prefix(500), as: UTF8.self))")
        }
        return again == categories ? .held : .violated("read back differently")
    }

    /// `chime`'s command line, its calendar, duration, date, time and quiet-hours specs among it: the input
    /// is the arguments, separated by NUL bytes. A command, or a typed usage error — nothing else.
    static let commandLine = FuzzTarget("command-line", "chime's command lines (ChimeCommand and its specs)") { bytes in
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).compactMap { text(Array($0)) }
        return (try? ChimeCommand.parse(arguments)) == nil ? .refused : .held
    }
}
