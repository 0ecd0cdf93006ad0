public import ChimeCore

/// `chime apps`: the apps the notification center knows, and the user's decisions and settings for
/// each — what iOS keeps in Settings › Notifications.
public enum AppsCommand: Equatable {
    case list(json: Bool)
    case allow(String)
    case deny(String)
    /// Shows the app's settings, after applying `changes` (none: just shows them).
    case settings(String, changes: [SettingChange], json: Bool)
    /// Registers how to show and start an app: its name, icon, and the command that launches it.
    case register(String, displayName: String?, iconPath: String?, launchCommand: [String]?)
    /// The app's device token for chimed's APNs-compatible endpoint.
    case apnsToken(String, json: Bool)
    /// The provider key the APNs-compatible endpoint checks tokens with.
    case apnsKey(APNsKeyAction, json: Bool)

    /// One user setting changed from the command line.
    public enum SettingChange: Equatable {
        case showPreviews(ShowPreviewsSetting)
        case sound(Bool)
        case badge(Bool)
        case alert(Bool)
        case lockScreen(Bool)
        case notificationCenter(Bool)
        case alertStyle(AlertStyle)
        case critical(Bool)
        case timeSensitive(Bool)
        case grouping(NotificationGrouping)
    }

    public static let name = "apps"
    public static let abstract = "List apps, allow or deny them, change their settings."

    public static let helpText = """
        OVERVIEW: \(abstract)

        USAGE: chime apps list [--json]
               chime apps allow <app>
               chime apps deny <app>
               chime apps settings <app> [changes] [--json]
               chime apps register <app> [--name <name>] [--icon <file>] [--launch <command> [arguments]...]
               chime apps apns-token <app> [--json]
               chime apps apns-key [set --team <id> --key-id <id> --p8 <path> | remove] [--json]

        SETTINGS CHANGES:
          --previews always|never|when-unlocked   When notification text is shown.
          --sound on|off   --badge on|off   --alerts on|off   --lock-screen on|off   --list on|off
          --style banner|alert|none               Banners that go away, alerts that stay, or neither.
          --critical on|off   --time-sensitive on|off
          --grouping automatic|by-app|off         Stacks in the list: by thread, one per app, or none.

        REGISTER:
          --name <name>        The name notifications show.
          --icon <file>        The icon notifications show.
          --launch <command>   What chimed runs to start the app for a response while it is not running;
                               everything after --launch is the command and its arguments.

        APNS (a backend that sends to APNs reaches this desktop with POST /3/device/<token> on chimed):
          apns-token <app>     The app's device token, as an iOS app gets it when it registers for remote
                               notifications: give it to the app's backend.
          apns-key set --team <id> --key-id <id> --p8 <path>
                               The provider key the backend signs its tokens with (Apple's .p8 file; only
                               its public half is kept). apns-key shows it; apns-key remove forgets it.

        OPTIONS:
          --json       Print JSON for scripts.
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> AppsCommand {
        guard let verb = arguments.first else { throw UsageError("say list, allow, deny, settings, register, apns-token or apns-key", command: name) }
        var rest = Array(arguments.dropFirst())
        switch verb {
        case "apns-token":
            let json = rest.contains("--json")
            rest.removeAll { $0 == "--json" }
            guard rest.count == 1, !rest[0].hasPrefix("-"), !rest[0].isEmpty else { throw UsageError("apps apns-token takes one app identifier", command: name) }
            return .apnsToken(rest[0], json: json)
        case "apns-key":
            let json = rest.contains("--json")
            rest.removeAll { $0 == "--json" }
            return .apnsKey(try APNsKeyAction.parse(rest, command: name), json: json)
        case "list":
            guard rest.allSatisfy({ $0 == "--json" }) else { throw UsageError("unexpected '\(rest.joined(separator: " "))'", command: name) }
            return .list(json: !rest.isEmpty)
        case "allow", "deny":
            guard rest.count == 1, !rest[0].hasPrefix("-") else { throw UsageError("apps \(verb) takes one app identifier", command: name) }
            return verb == "allow" ? .allow(rest[0]) : .deny(rest[0])
        case "settings":
            let app = try appIdentifier(&rest, verb: verb)
            var changes: [SettingChange] = []
            var json = false
            var reader = ArgumentReader(rest, command: name)
            while let (option, inline) = try reader.nextOption() {
                if option == "--json" {
                    json = true
                    continue
                }
                changes.append(try change(option, try reader.value(for: option, inline: inline)))
            }
            return .settings(app, changes: changes, json: json)
        case "register":
            let app = try appIdentifier(&rest, verb: verb)
            var displayName: String?
            var iconPath: String?
            var launch: [String]?
            while !rest.isEmpty {
                let option = rest.removeFirst()
                switch option {
                case "--launch":
                    guard !rest.isEmpty else { throw UsageError("--launch needs the command", command: name) }
                    launch = rest
                    rest = []
                case "--name", "--icon":
                    guard let value = rest.first, !value.isEmpty else { throw UsageError("missing value for '\(option)'", command: name) }
                    rest.removeFirst()
                    if option == "--name" { displayName = value } else { iconPath = value }
                default:
                    throw UsageError("unknown option '\(option)'", command: name)
                }
            }
            return .register(app, displayName: displayName, iconPath: iconPath, launchCommand: launch)
        default:
            throw UsageError("unknown apps command '\(verb)': list, allow, deny, settings, register, apns-token or apns-key", command: name)
        }
    }

    private static func appIdentifier(_ rest: inout [String], verb: String) throws(UsageError) -> String {
        guard let app = rest.first, !app.hasPrefix("-"), !app.isEmpty else {
            throw UsageError("apps \(verb) needs an app identifier", command: name)
        }
        rest.removeFirst()
        return app
    }

    private static func change(_ option: String, _ value: String) throws(UsageError) -> SettingChange {
        func onOff() throws(UsageError) -> Bool {
            switch value {
            case "on": return true
            case "off": return false
            default: throw UsageError("\(option) takes on or off, not '\(value)'", command: name)
            }
        }
        switch option {
        case "--previews":
            switch value {
            case "always": return .showPreviews(.always)
            case "never": return .showPreviews(.never)
            case "when-unlocked": return .showPreviews(.whenAuthenticated)
            default: throw UsageError("--previews takes always, never or when-unlocked, not '\(value)'", command: name)
            }
        case "--style":
            switch value {
            case "banner": return .alertStyle(.banner)
            case "alert": return .alertStyle(.alert)
            case "none": return .alertStyle(.none)
            default: throw UsageError("--style takes banner, alert or none, not '\(value)'", command: name)
            }
        case "--grouping":
            switch value {
            case "automatic": return .grouping(.automatic)
            case "by-app": return .grouping(.byApp)
            case "off": return .grouping(.off)
            default: throw UsageError("--grouping takes automatic, by-app or off, not '\(value)'", command: name)
            }
        case "--sound": return .sound(try onOff())
        case "--badge": return .badge(try onOff())
        case "--alerts": return .alert(try onOff())
        case "--lock-screen": return .lockScreen(try onOff())
        case "--list": return .notificationCenter(try onOff())
        case "--critical": return .critical(try onOff())
        case "--time-sensitive": return .timeSensitive(try onOff())
        default: throw UsageError("unknown option '\(option)'", command: name)
        }
    }
}

extension AppsCommand.SettingChange {
    /// Applies the change to `settings`. A setting the app never asked for (`notSupported`) stays so — the
    /// user can only change what the app uses — except critical alerts, which are the user's to grant to
    /// an app that did not ask (on Linux there is no entitlement to ask with).
    ///
    /// - Throws: `ChimeError` naming the setting when it is one the app never asked for.
    public func apply(to settings: inout NotificationSettings, app: String) throws(ChimeError) {
        func set(_ setting: inout NotificationSetting, _ enabled: Bool, _ what: String) throws(ChimeError) {
            guard setting != .notSupported else {
                throw ChimeError(.valueOutOfRange, "\(app) never asked to use \(what), so there is nothing to turn \(enabled ? "on" : "off"); nothing was changed")
            }
            setting = enabled ? .enabled : .disabled
        }
        switch self {
        case .showPreviews(let value): settings.showPreviewsSetting = value
        case .alertStyle(let style): settings.alertStyle = style
        case .sound(let on): try set(&settings.soundSetting, on, "sounds")
        case .badge(let on): try set(&settings.badgeSetting, on, "badges")
        case .alert(let on): try set(&settings.alertSetting, on, "alerts")
        case .lockScreen(let on): try set(&settings.lockScreenSetting, on, "the lock screen")
        case .notificationCenter(let on): try set(&settings.notificationCenterSetting, on, "the notification list")
        case .critical(let on): settings.criticalAlertSetting = on ? .enabled : .disabled
        case .timeSensitive(let on): try set(&settings.timeSensitiveSetting, on, "time-sensitive notifications")
        case .grouping(let grouping): settings.groupingSetting = grouping
        }
    }
}
