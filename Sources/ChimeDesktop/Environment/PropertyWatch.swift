/// Follows one boolean property of a service on a bus: reads it, then updates it from the service's
/// `PropertiesChanged` signals (matched on the service's unique name), and starts over when the service
/// is replaced (`NameOwnerChanged`). A service, object or property that is not there reads as `nil`.
actor PropertyWatch {
    /// What to watch. `resolvePath` finds the object once the service's owner is known (a fixed path, or
    /// logind's session found by asking the manager).
    struct Target: Sendable {
        let service: String
        let interface: String
        let property: String
        let resolvePath: @Sendable (_ connection: BusConnection, _ owner: String) async -> String?
    }

    private let connection: BusConnection
    private let target: Target
    private let timeout: Duration
    private let onChange: @Sendable (Bool?) async -> Void
    private let sink = SignalSink()

    private var owner: String?
    private var path: String?
    private var match: MatchToken?
    private var value: Bool?
    private var reported = false
    /// Counts lookups, so an older one that finishes late does not overwrite a newer one.
    private var generation = 0

    init(connection: BusConnection, target: Target, timeout: Duration, onChange: @escaping @Sendable (Bool?) async -> Void) {
        self.connection = connection
        self.target = target
        self.timeout = timeout
        self.onChange = onChange
    }

    /// Starts following the property; returns once its first value is known (and reported).
    func start() async {
        let nameOwnerChanged = SignalRule(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            arg0: target.service)
        _ = try? await connection.addMatch(nameOwnerChanged, to: sink)
        Task { [weak self, sink] in
            for await signal in sink.signals {
                guard let self else { return }
                await self.received(signal)
            }
        }
        await refresh()
    }

    private func refresh() async {
        generation += 1
        let mine = generation
        if let match { connection.removeMatch(match) }
        (owner, path, match) = (nil, nil, nil)
        guard let owner = try? await connection.nameOwner(target.service, timeout: timeout), mine == generation,
            let path = await target.resolvePath(connection, owner), mine == generation
        else {
            if mine == generation { await update(nil) }
            return
        }
        let rule = SignalRule(
            sender: owner, path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", arg0: target.interface)
        let token = try? await connection.addMatch(rule, to: sink)
        guard mine == generation else {
            if let token { connection.removeMatch(token) }
            return
        }
        (self.owner, self.path, match) = (owner, path, token)
        await reread(mine)
    }

    private func reread(_ mine: Int) async {
        guard let owner, let path else { return }
        let read = try? await connection.property(destination: owner, path: path, interface: target.interface, name: target.property, timeout: timeout)
        guard mine == generation else { return }
        await update(read?.bool)
    }

    private func received(_ signal: BusSignal) async {
        if signal.member == "NameOwnerChanged" && signal.sender == "org.freedesktop.DBus" {
            // The name was taken, dropped or passed on: look again, unless it names the owner in use.
            if signal.arguments.count == 3, owner != nil, signal.arguments[2].string == owner { return }
            await refresh()
            return
        }
        guard signal.member == "PropertiesChanged", signal.sender == owner, signal.path == path, signal.arguments.count == 3,
            signal.arguments[0].string == target.interface
        else { return }
        if let changed = signal.arguments[1].dictionary?[target.property] {
            await update(changed.bool)
        } else if signal.arguments[2].strings?.contains(target.property) == true {
            await reread(generation)
        }
    }

    private func update(_ newValue: Bool?) async {
        guard !reported || newValue != value else { return }
        reported = true
        value = newValue
        await onChange(newValue)
    }
}
