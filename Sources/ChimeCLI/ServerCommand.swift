/// `chime server`: a server-mode node (`chimed --server`), spoken to with one of a tenant's API keys, as
/// a backend's operator or a script would: recipients, their notifications and responses, and the keys.
///
/// ```
/// export CHIME_SERVER_URL=http://127.0.0.1:7717 CHIME_API_KEY=chime_…
/// chime server recipient user-42 --time-zone Asia/Seoul --locale ko-KR --quiet "daily 22:00-07:00"
/// chime server add --recipient user-42 --app com.example.todo --calendar "hour=8" --repeats --title Stand-up
/// chime server pending --recipient user-42
/// ```
public struct ServerCommand: Equatable {
    public static let name = "server"
    public static let abstract = "Manage a server-mode node: recipients, their notifications, API keys."
    /// Where the node is when `--url` is not given.
    public static let urlVariable = "CHIME_SERVER_URL"
    /// The API key, read from the environment (or `--key-file`), never from the command line, where other
    /// users of the machine read it in the process list.
    public static let keyVariable = "CHIME_API_KEY"

    public enum Action: Equatable {
        case status
        /// `add --recipient <id> [--idempotency-key <key>]` and `chime add`'s content and trigger.
        case add(recipient: String, AddCommand, idempotencyKey: String?)
        case list(ListCommand.Kind, recipient: String, app: String?)
        /// `identifiers` `nil`: `--all`.
        case remove(recipient: String, app: String, identifiers: [String]?)
        case responses(recipient: String, app: String?)
        /// `recipient <id>` with no change shows the profile; with one, saves it.
        case recipient(String, RecipientChange)
        case keys
        case issueKey(name: String, scopes: [String])
        case revokeKey(String)
        /// The ledger of a recipient's deliveries to their devices.
        case deliveries(recipient: String)
        case replay(String)
        /// `settings` shows; with `allowList`, replaces the webhooks' allow list (`[]` for `--no-allow`).
        case settings(allowList: [String]?)
        /// `apns-key` shows the tenant's APNs provider key's identifiers; `set` gives it, `remove` forgets it.
        case apnsKey(APNsKeyAction)
        /// `webpush` shows the VAPID public key; `--subject` sets the contact, `--no-subject` (`""`) clears it.
        case webPush(subject: String?)
    }

    /// What `recipient <id>` changes; all `nil` (and `quietHours` `nil`) only shows.
    public struct RecipientChange: Equatable {
        public var timeZone: String?
        public var locale: String?
        /// `--quiet` periods (replacing the recipient's), `[]` for `--no-quiet`, `nil` to keep them.
        public var quietHours: [QuietHoursSpec]?

        public var isEmpty: Bool { timeZone == nil && locale == nil && quietHours == nil }
    }

    public var action: Action
    /// `--url`; `nil` reads `$CHIME_SERVER_URL`.
    public var url: String?
    /// `--key-file`; `nil` reads `$CHIME_API_KEY`.
    public var keyFile: String?
    public var json = false

    public static let helpText = """
        OVERVIEW: \(abstract)

        Speaks to chimed --server over HTTP with one of a tenant's API keys (chimed --create-tenant prints the
        first). The node is --url or $\(urlVariable); the key is $\(keyVariable) or the first line of
        --key-file, never an argument, where other users could read it in the process list.

        USAGE: chime server <action> [options]

        ACTIONS:
          status                              The node that answers, the key's tenant, the schema version.
          add --recipient <id> [add options]  Schedule a notification for a recipient: chime add's content and
                                              trigger options (see chime add --help; no --attach, --move,
                                              --wait or --region). A local --at is the recipient's local time.
          pending --recipient <id> [--app <id>]
                                              The recipient's pending notifications, soonest first.
          delivered --recipient <id> [--app <id>]
                                              The recipient's delivered notifications, newest first.
          remove --recipient <id> --app <id> (<identifier>... | --all)
                                              Cancel pending notifications of the recipient's app.
          responses --recipient <id> [--app <id>]
                                              The recipient's responses, newest first.
          recipient <id>                      Show a recipient: time zone, language, quiet hours.
          recipient <id> [--time-zone <zone>] [--locale <tag>] [--quiet <period>]... [--no-quiet]
                                              Create the recipient or change what is given.
          deliveries --recipient <id>         The ledger of deliveries to the recipient's devices (webhooks, APNs,
                                              Web Push), newest first: state, attempts, the last answer, and what
                                              became of it at the recipient (delivered, seen, acted, dismissed).
          replay <delivery id>                Send a finished delivery again (same webhook-id or apns-id).
          settings [--allow <network>]... [--no-allow]
                                              Show the tenant's settings, or replace the networks its webhooks
                                              may reach although they are private (10.0.0.0/8, fd00::/8).
          apns-key                            The tenant's APNs provider key: its team and key identifiers.
          apns-key set --team <id> --key-id <id> --p8 <path>
                                              Give the APNs provider key (the .p8 file from Apple's developer
                                              site) with which nodes sign for the tenant's APNs devices.
          apns-key remove                     Forget it: APNs deliveries end dead until a key is given again.
          webpush [--subject <url> | --no-subject]
                                              The tenant's VAPID public key, for its pages' pushManager.subscribe
                                              (Chime makes the key pair), and the contact push services see;
                                              --subject sets it (mailto: or https:).
          keys                                List the tenant's API keys.
          keys add <name> --scope <scope>...  Issue a key (publish, read, admin); its secret is printed once.
          keys revoke <key id>                Revoke a key at once.

        OPTIONS:
          --url <url>               The node (default: $\(urlVariable)), such as http://127.0.0.1:7717.
          --key-file <path>         Read the API key from this file (default: $\(keyVariable)).
          -r, --recipient <id>      The recipient (the tenant's own identifier for the user).
          -a, --app <id>            The app.
          --idempotency-key <key>   add: sending the same add again with this key (after a lost answer)
                                    adds nothing and answers as the first time; the key is then also the
                                    request's identifier unless --id gives one.
          --time-zone <zone>        recipient: an IANA zone (Asia/Seoul); floating triggers follow it.
          --locale <tag>            recipient: a language tag (ko-KR) for deferred localization.
          --quiet <period>          recipient: a quiet-hours period in the recipient's zone, such as
                                    "mon-fri 22:00-07:00", "weekends 23:00-09:00" or "daily 22:00-07:00"
                                    (repeatable; replaces the recipient's periods).
          --no-quiet                recipient: no quiet hours.
          --scope <scope>           keys add: publish, read or admin (repeatable, or comma-separated).
          --allow <network>         settings: a network webhooks may reach (repeatable; replaces the list).
          --no-allow                settings: webhooks reach public addresses only.
          --all                     remove: every pending notification of the recipient's app.
          --json                    Print JSON for scripts.
          -h, --help                Show this help.

        """

    /// The short forms of the recipient and app options.
    static let shortOptions = ["-r": "--recipient", "-a": "--app"]

    /// The actions, as a usage error lists them.
    static let actions = "status, add, pending, delivered, remove, responses, recipient, deliveries, replay, settings, apns-key, webpush, keys"

    static func parse(_ arguments: [String]) throws(UsageError) -> ServerCommand {
        // The common options may stand anywhere; the rest is the action's.
        let (values, flags, rest) = try extract(["--url", "--key-file"], flags: ["--json"], from: arguments)
        guard let first = rest.first else { throw UsageError("name an action: \(actions)", command: name) }
        let action = try parse(action: first, Array(rest.dropFirst()))
        return ServerCommand(action: action, url: values["--url"], keyFile: values["--key-file"], json: flags.contains("--json"))
    }

    /// Takes the options named in `valued` (with a value: `--url x` or `--url=x`; a short form as `-r x`) and
    /// in `flags` (without one) out of `arguments`, up to a `--`; the rest stays as it was, in order.
    static func extract(_ valued: Set<String>, flags: Set<String> = [], from arguments: [String]) throws(UsageError)
        -> (values: [String: String], flags: Set<String>, rest: [String])
    {
        var values: [String: String] = [:]
        var found: Set<String> = []
        var rest: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            let (option, inline) = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init).splitOption
            if flags.contains(argument) {
                found.insert(argument)
                continue
            }
            guard valued.contains(option), inline == nil || option.hasPrefix("--") else {
                rest.append(argument)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else { throw UsageError("missing value for '\(option)'", command: name) }
                value = arguments[index]
                index += 1
            }
            guard !value.isEmpty else { throw UsageError("\(option) must not be empty", command: name) }
            values[option] = value
        }
        return (values, found, rest)
    }

    private static func parse(action: String, _ arguments: [String]) throws(UsageError) -> Action {
        switch action {
        case "status":
            var reader = ArgumentReader(arguments, command: name)
            if let (option, _) = try reader.nextOption() { throw UsageError("unknown option '\(option)'", command: name) }
            return .status
        case "add": return try parseAdd(arguments)
        case "replay":
            var reader = ArgumentReader(arguments, command: name)
            guard let next = try reader.nextArgument(), let identifier = next.positional, !identifier.isEmpty else {
                throw UsageError("replay needs the delivery's id (chime server deliveries lists them)", command: name)
            }
            if let extra = try reader.nextArgument() {
                throw UsageError("unexpected argument '\(extra.positional ?? extra.option?.name ?? "")'", command: name)
            }
            return .replay(identifier)
        case "settings":
            var reader = ArgumentReader(arguments, command: name)
            var networks: [String] = []
            var none = false
            while let (option, inline) = try reader.nextOption() {
                switch option {
                case "--allow": networks.append(try reader.nonEmptyValue(for: option, inline: inline))
                case "--no-allow": none = true
                default: throw UsageError("unknown option '\(option)'", command: name)
                }
            }
            if none && !networks.isEmpty { throw UsageError("give --allow networks or --no-allow, not both", command: name) }
            return .settings(allowList: none ? [] : networks.isEmpty ? nil : networks)
        case "pending", "delivered", "responses", "deliveries":
            var reader = ArgumentReader(arguments, command: name, shortOptions: shortOptions)
            var recipient: String?
            var app: String?
            while let (option, inline) = try reader.nextOption() {
                switch option {
                case "--recipient": recipient = try reader.nonEmptyValue(for: option, inline: inline)
                case "--app": app = try reader.nonEmptyValue(for: option, inline: inline)
                default: throw UsageError("unknown option '\(option)'", command: name)
                }
            }
            guard let recipient else { throw UsageError("\(action) needs --recipient", command: name) }
            if action == "responses" { return .responses(recipient: recipient, app: app) }
            if action == "deliveries" {
                if app != nil { throw UsageError("deliveries takes no --app", command: name) }
                return .deliveries(recipient: recipient)
            }
            return .list(action == "pending" ? .pending : .delivered, recipient: recipient, app: app)
        case "remove": return try parseRemove(arguments)
        case "recipient": return try parseRecipient(arguments)
        case "keys": return try parseKeys(arguments)
        case "apns-key": return .apnsKey(try APNsKeyAction.parse(arguments, command: name))
        case "webpush":
            var reader = ArgumentReader(arguments, command: name)
            var subject: String?
            while let (option, inline) = try reader.nextOption() {
                switch option {
                case "--subject": subject = try reader.nonEmptyValue(for: option, inline: inline)
                case "--no-subject": subject = ""
                default: throw UsageError("unknown option '\(option)'", command: name)
                }
            }
            return .webPush(subject: subject)
        default:
            throw UsageError("unknown action '\(action)'; the actions are \(actions)", command: name)
        }
    }

    /// `add`: the server's own options are taken out, and the rest is `chime add`'s command line.
    private static func parseAdd(_ arguments: [String]) throws(UsageError) -> Action {
        let (values, _, forAdd) = try extract(["--recipient", "-r", "--idempotency-key"], from: arguments)
        let recipient = values["--recipient"] ?? values["-r"]
        let idempotencyKey = values["--idempotency-key"]
        guard let recipient else { throw UsageError("add needs --recipient", command: name) }
        let add: AddCommand
        do {
            add = try AddCommand.parse(forAdd)
        } catch {
            throw UsageError(error.message, command: name)
        }
        if !add.attachmentPaths.isEmpty { throw UsageError("server mode takes no attachments (--attach)", command: name) }
        if add.waits { throw UsageError("--wait is for the local notification center; follow responses with chime server responses", command: name) }
        if case .region = add.when { throw UsageError("--region is for the local notification center: server mode has no device locations", command: name) }
        if !forAdd.contains(where: { $0 == "--app" || $0 == "-a" || $0.hasPrefix("--app=") }) {
            throw UsageError("add needs --app: the tenant's app the notification belongs to", command: name)
        }
        return .add(recipient: recipient, add, idempotencyKey: idempotencyKey)
    }

    private static func parseRemove(_ arguments: [String]) throws(UsageError) -> Action {
        var reader = ArgumentReader(arguments, command: name, shortOptions: shortOptions)
        var recipient: String?
        var app: String?
        var all = false
        var identifiers: [String] = []
        while let next = try reader.nextArgument() {
            guard let (option, inline) = next.option else {
                identifiers.append(next.positional ?? "")
                continue
            }
            switch option {
            case "--recipient": recipient = try reader.nonEmptyValue(for: option, inline: inline)
            case "--app": app = try reader.nonEmptyValue(for: option, inline: inline)
            case "--all": all = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        guard let recipient else { throw UsageError("remove needs --recipient", command: name) }
        guard let app else { throw UsageError("remove needs --app", command: name) }
        switch (all, identifiers.isEmpty) {
        case (true, true): return .remove(recipient: recipient, app: app, identifiers: nil)
        case (false, false): return .remove(recipient: recipient, app: app, identifiers: identifiers)
        case (true, false): throw UsageError("give identifiers or --all, not both", command: name)
        case (false, true): throw UsageError("give the identifiers to remove, or --all", command: name)
        }
    }

    private static func parseRecipient(_ arguments: [String]) throws(UsageError) -> Action {
        var reader = ArgumentReader(arguments, command: name)
        var identifier: String?
        var change = RecipientChange()
        var periods: [QuietHoursSpec] = []
        var noQuiet = false
        while let next = try reader.nextArgument() {
            guard let (option, inline) = next.option else {
                guard identifier == nil else { throw UsageError("unexpected argument '\(next.positional ?? "")'", command: name) }
                identifier = next.positional
                continue
            }
            switch option {
            case "--time-zone": change.timeZone = try reader.nonEmptyValue(for: option, inline: inline)
            case "--locale": change.locale = try reader.nonEmptyValue(for: option, inline: inline)
            case "--quiet": periods.append(try QuietHoursSpec.parse(try reader.value(for: option, inline: inline), command: name))
            case "--no-quiet": noQuiet = true
            default: throw UsageError("unknown option '\(option)'", command: name)
            }
        }
        guard let identifier, !identifier.isEmpty else { throw UsageError("recipient needs the recipient's identifier", command: name) }
        if noQuiet && !periods.isEmpty { throw UsageError("give --quiet periods or --no-quiet, not both", command: name) }
        if noQuiet { change.quietHours = [] } else if !periods.isEmpty { change.quietHours = periods }
        return .recipient(identifier, change)
    }

    private static func parseKeys(_ arguments: [String]) throws(UsageError) -> Action {
        guard let verb = arguments.first else { return .keys }
        var reader = ArgumentReader(Array(arguments.dropFirst()), command: name)
        switch verb {
        case "add":
            var keyName: String?
            var scopes: [String] = []
            while let next = try reader.nextArgument() {
                guard let (option, inline) = next.option else {
                    guard keyName == nil else { throw UsageError("unexpected argument '\(next.positional ?? "")'", command: name) }
                    keyName = next.positional
                    continue
                }
                guard option == "--scope" else { throw UsageError("unknown option '\(option)'", command: name) }
                for scope in try reader.nonEmptyValue(for: option, inline: inline).split(separator: ",") {
                    guard ["publish", "read", "admin"].contains(scope) else {
                        throw UsageError("--scope '\(scope)': the scopes are publish, read and admin", command: name)
                    }
                    if !scopes.contains(String(scope)) { scopes.append(String(scope)) }
                }
            }
            guard let keyName, !keyName.isEmpty else { throw UsageError("keys add needs a name for the key", command: name) }
            guard !scopes.isEmpty else { throw UsageError("keys add needs at least one --scope (publish, read, admin)", command: name) }
            return .issueKey(name: keyName, scopes: scopes)
        case "revoke":
            guard let next = try reader.nextArgument(), let identifier = next.positional, !identifier.isEmpty else {
                throw UsageError("keys revoke needs the key's id (chime server keys lists them)", command: name)
            }
            if let extra = try reader.nextArgument() {
                throw UsageError("unexpected argument '\(extra.positional ?? extra.option?.name ?? "")'", command: name)
            }
            return .revokeKey(identifier)
        default:
            if verb.hasPrefix("-") { throw UsageError("unknown option '\(verb)'", command: name) }
            throw UsageError("unknown keys action '\(verb)'; use keys, keys add or keys revoke", command: name)
        }
    }
}

extension Array where Element == String {
    /// `["--url", "x"]` from splitting `--url=x` at its first `=`: the option and its inline value; an
    /// argument without `=` has none.
    fileprivate var splitOption: (String, String?) {
        (first ?? "", count > 1 ? self[1] : nil)
    }
}
