import Foundation

/// `apns-key`, `apns-key set --team <id> --key-id <id> --p8 <path>`, `apns-key remove`: the APNs provider
/// key of a tenant (`chime server`) or of the user's APNs-compatible endpoint (`chime apps`).
public enum APNsKeyAction: Equatable, Sendable {
    case show
    case set(team: String, keyID: String, path: String)
    case remove

    /// `arguments` after `apns-key`; `command` names the command in errors.
    static func parse(_ arguments: [String], command: String) throws(UsageError) -> APNsKeyAction {
        guard let verb = arguments.first else { return .show }
        var reader = ArgumentReader(Array(arguments.dropFirst()), command: command)
        switch verb {
        case "set":
            var team: String?
            var keyID: String?
            var path: String?
            while let next = try reader.nextArgument() {
                guard let (option, inline) = next.option else { throw UsageError("unexpected argument '\(next.positional ?? "")'", command: command) }
                switch option {
                case "--team": team = try reader.nonEmptyValue(for: option, inline: inline)
                case "--key-id": keyID = try reader.nonEmptyValue(for: option, inline: inline)
                case "--p8": path = try reader.nonEmptyValue(for: option, inline: inline)
                default: throw UsageError("unknown option '\(option)'", command: command)
                }
            }
            guard let team, let keyID, let path else { throw UsageError("apns-key set needs --team, --key-id and --p8", command: command) }
            return .set(team: team, keyID: keyID, path: path)
        case "remove":
            if let extra = try reader.nextArgument() {
                throw UsageError("unexpected argument '\(extra.positional ?? extra.option?.name ?? "")'", command: command)
            }
            return .remove
        default:
            if verb.hasPrefix("-") { throw UsageError("unknown option '\(verb)'", command: command) }
            throw UsageError("unknown apns-key action '\(verb)'; use apns-key, apns-key set or apns-key remove", command: command)
        }
    }

    /// The key file's text (Apple's `.p8`).
    static func readKey(_ path: String, command: String) throws(UsageError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw UsageError("cannot read the APNs key file '\(path)'", command: command)
        }
    }
}
