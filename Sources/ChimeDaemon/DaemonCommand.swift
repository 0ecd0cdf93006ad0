public import ChimeIPC
public import Foundation

/// Which presenter the daemon uses.
public enum PresenterChoice: String, Sendable, CaseIterable {
    /// The desktop when a notification server answers on the session bus, else the log.
    case auto
    case desktop
    case log
}

public struct DaemonConfiguration: Sendable {
    public var paths: DaemonPaths
    public var presenter: PresenterChoice = .auto
    public var authorization: HeadlessAuthorization = .allow
    public var verbose = false
    /// How long a foreground app may take to say how to present a notification.
    public var presentationTimeout: Duration = .seconds(5)
    /// How long an app that decides its responses (`Hello.decidesResponses`) may take to acknowledge one
    /// before the engine applies the standard behaviour.
    public var responseDecisionTimeout: Duration = .seconds(5)

    public init(paths: DaemonPaths) {
        self.paths = paths
    }
}

/// What `chimed`'s command line asks for: a pure function of the arguments.
public enum DaemonCommand: Sendable {
    case run(DaemonConfiguration)
    case help
    case paths(DaemonPaths)

    public struct UsageError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static let helpText = """
        USAGE: chimed [--presenter auto|desktop|log] [--authorization ask|allow|deny]
                      [--presentation-timeout <seconds>] [--verbose]
               chimed --paths
               chimed --help

        The per-user Chime daemon: keeps your notifications in $XDG_DATA_HOME/chime/chime.sqlite, fires them
        on time, shows them, and serves apps and the chime command on $XDG_RUNTIME_DIR/chime/chimed.sock.

        OPTIONS:
          --presenter <kind>       desktop: freedesktop notifications on the session bus; log: one log line
                                   per notification; auto (default): desktop when a notification server
                                   answers, else log.
          --authorization <what>   Without a desktop to ask on, what an app's first authorization request
                                   gets: allow (default, for headless use), deny, or ask (the app stays
                                   undecided until you run `chime apps allow|deny`). On the desktop the user
                                   is asked with a notification.
          --presentation-timeout <seconds>
                                   How long a foreground app may take to say how to present a
                                   notification before the system presents it (default 5).
          --verbose                Log debug lines too.
          --paths                  Print the data, store, registry, socket and token paths, and exit.
          -h, --help               Show this help.

        SIGNALS: SIGTERM and SIGINT stop cleanly; SIGHUP re-reads the registry (registry.json).
        EXIT CODES: 0 stopped cleanly, 1 failed (another chimed runs, a file cannot be opened), 64 usage.
        """

    public static func parse(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) -> DaemonCommand {
        let paths = DaemonPaths(environment: environment)
        var configuration = DaemonConfiguration(paths: paths)
        var remaining = arguments[...]
        func value(_ option: String) throws(UsageError) -> String {
            guard let next = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": return .help
            case "--paths": return .paths(paths)
            case "--verbose", "-v": configuration.verbose = true
            case "--presenter":
                let given = try value(argument)
                guard let choice = PresenterChoice(rawValue: given) else { throw UsageError(description: "--presenter must be auto, desktop or log, not '\(given)'") }
                configuration.presenter = choice
            case "--authorization":
                let given = try value(argument)
                guard let choice = HeadlessAuthorization(rawValue: given) else { throw UsageError(description: "--authorization must be ask, allow or deny, not '\(given)'") }
                configuration.authorization = choice
            case "--presentation-timeout":
                let given = try value(argument)
                guard let seconds = Double(given), seconds > 0, seconds <= 60 else {
                    throw UsageError(description: "--presentation-timeout must be a number of seconds between 0 and 60, not '\(given)'")
                }
                configuration.presentationTimeout = .milliseconds(Int(seconds * 1000))
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
        return .run(configuration)
    }

    public static func describe(_ paths: DaemonPaths) -> String {
        """
        data:         \(paths.dataDirectory.path)
        store:        \(paths.storeFile.path)
        attachments:  \(paths.attachmentsDirectory.path)
        registry:     \(paths.registryFile.path)
        responses:    \(paths.responseQueueFile.path)
        runtime:      \(paths.runtimeDirectory.path)
        socket:       \(paths.socketFile.path)
        token:        \(paths.tokenFile.path)
        """
    }
}
