import Foundation

/// GNOME's Do Not Disturb: the `show-banners` key of `org.gnome.desktop.notifications`, which the switch
/// in GNOME Shell's calendar menu turns off. GNOME Shell has no `Inhibited` property to read instead.
///
/// The key is read with `gsettings`, so whatever backend the session uses answers, and read again when
/// dconf announces a change under it (`ca.desrt.dconf.Writer.Notify` on the session bus); no process is
/// kept running for it. Not GNOME, no `gsettings`, or no such schema reads as `nil`.
actor GnomeBannerWatch {
    static let schema = "org.gnome.desktop.notifications"
    static let key = "show-banners"
    /// The key's path in dconf, as `Notify` names it (a prefix and the changed names under it).
    static let dconfPath = "/org/gnome/desktop/notifications/show-banners"

    private let connection: BusConnection
    private let gsettings: String
    private let environment: [String: String]
    private let onChange: @Sendable (Bool?) async -> Void
    private let sink = SignalSink()
    private var generation = 0

    /// - Parameter environment: `gsettings`'s, which locates the user's settings (`XDG_CONFIG_HOME`, `HOME`).
    init(connection: BusConnection, gsettings: String, environment: [String: String], onChange: @escaping @Sendable (Bool?) async -> Void) {
        self.connection = connection
        self.gsettings = gsettings
        self.environment = environment
        self.onChange = onChange
    }

    /// `gsettings` on `PATH` when the session is GNOME's (`XDG_CURRENT_DESKTOP` names it, as GNOME and
    /// Ubuntu's sessions do); `nil` elsewhere, where the key exists but nothing honours it.
    static func gsettingsPath(environment: [String: String]) -> String? {
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        guard desktops.contains("gnome") else { return nil }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/gsettings"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Starts following the key; returns once its first value is known (and reported).
    func start() async {
        let notify = SignalRule(interface: "ca.desrt.dconf.Writer", member: "Notify")
        _ = try? await connection.addMatch(notify, to: sink)
        Task { [weak self, sink] in
            for await signal in sink.signals {
                guard let self else { return }
                await self.received(signal)
            }
        }
        await reread()
    }

    private func received(_ signal: BusSignal) async {
        guard signal.member == "Notify", signal.arguments.count >= 2, let prefix = signal.arguments[0].string,
            let names = signal.arguments[1].strings
        else { return }
        // A change names the key itself, or a folder above it (a reset of the whole folder).
        guard names.contains(where: { Self.dconfPath.hasPrefix(prefix + $0) }) else { return }
        await reread()
    }

    private func reread() async {
        generation += 1
        let mine = generation
        let finished = await ChildCommand.output(of: gsettings, ["get", Self.schema, Self.key], environment: environment)
        guard mine == generation else { return }
        let value: Bool? =
            switch finished.flatMap({ $0.status == 0 ? $0.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil }) {
            case "true": true
            case "false": false
            default: nil
            }
        await onChange(value)
    }
}
