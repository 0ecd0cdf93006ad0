public import ChimeAPI
import ChimeDelivery
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
    /// How long an app that decides its responses (its stream opened with `decides=true`) may take to
    /// acknowledge one before the engine applies the standard behaviour.
    public var responseDecisionTimeout: Duration = .seconds(5)
    /// Where the API is also served over TCP: `nil` not at all; port 0 is any free port.
    public var http: HTTPAddress? = HTTPAddress(host: "127.0.0.1", port: 0)
    /// Whether `http` may be an address other machines reach (`--http-allow-remote`): plain HTTP that
    /// anyone on the way can read, so only when the user says so, and with a warning in the log.
    public var allowsRemoteHTTP = false
    /// Connections served at once, on each listener (at most the file descriptors the process may open,
    /// less a reserve for the store and the bus).
    public var maximumConnections = 4096
    /// Seconds a connection may stay idle before it is closed.
    public var idleTimeout = 60
    /// Event streams open at once.
    public var maximumEventStreams = 16_384
    /// Where processes are looked up to tell sandboxed apps (`<procRoot>/<pid>/root/.flatpak-info`):
    /// `/proc`, or a folder of fakes in tests.
    public var procRoot = "/proc"
    /// Server mode (`--server`): the PostgreSQL database (a libpq connection string or URL) shared by
    /// every node, and this node's name.
    public var database: String?
    public var serverMode = false
    public var nodeName: String?
    /// Server mode: the pauses before each retry of a webhook (`--webhook-retries`); `nil` for the default.
    public var webhookRetries: [TimeInterval]?
    /// Server mode: networks every tenant's webhooks may reach although they are not public (`--webhook-allow`).
    public var webhookAllowed: [String] = []
    /// Server mode: how long a webhook's receiver has to answer (`--webhook-timeout`), in seconds.
    public var webhookTimeout = 15
    /// Server mode: how long APNs has to answer (`--apns-timeout`), in seconds.
    public var apnsTimeout = 15
    /// Server mode: where APNs is instead of Apple's hosts (`--apns-url`), for both environments.
    public var apnsURL: String?
    /// Server mode: the certificate authorities to trust for APNs instead of the system's (`--apns-ca-file`).
    public var apnsCertificateAuthorities: String?
    /// Server mode: the certificate authorities to trust for webhooks and push services instead of the
    /// system's (`--outbound-ca-file`).
    public var outboundCertificateAuthorities: String?

    public init(paths: DaemonPaths) {
        self.paths = paths
    }
}

/// An address to serve the API on over TCP.
public struct HTTPAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:7717`, `localhost:0`, `192.168.1.5:7717`: one IPv4 address (not a wildcard such as
    /// 0.0.0.0, whose `Host` no page could name) and a port.
    init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = UInt16(parts[1]) else { return nil }
        let host = parts[0] == "localhost" ? "127.0.0.1" : String(parts[0])
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil && ($0 == "0" || !$0.hasPrefix("0")) }), host != "0.0.0.0" else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether only this machine reaches it (127.0.0.0/8).
    public var isLoopback: Bool { host.hasPrefix("127.") }

    public var description: String { "\(host):\(port)" }
}

/// What `chimed`'s command line asks for: a pure function of the arguments.
public enum DaemonCommand: Sendable {
    case run(DaemonConfiguration)
    case help
    case version
    case paths(DaemonPaths)
    /// `--create-tenant`: a new tenant in the database, with its first admin key.
    case createTenant(database: String, tenant: String, name: String)

    public struct UsageError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static let helpText = """
        USAGE: chimed [--presenter auto|desktop|log] [--authorization ask|allow|deny]
                      [--presentation-timeout <seconds>] [--http <address>|none] [--http-allow-remote]
                      [--max-connections <n>] [--idle-timeout <seconds>] [--verbose]
                      [--webhook-allow <network>]... [--outbound-ca-file <path>]
               chimed --server --database <conninfo> [--http <address>] [--http-allow-remote] [--node <name>]
                      [--webhook-allow <network>]... [--webhook-timeout <seconds>] [--webhook-retries <seconds,…>]
                      [--apns-url <url>] [--apns-ca-file <path>] [--apns-timeout <seconds>] [--outbound-ca-file <path>]
               chimed --database <conninfo> --create-tenant <id> [--name <name>]
               chimed --paths
               chimed --help

        The per-user Chime daemon: keeps your notifications in $XDG_DATA_HOME/chime/chime.sqlite, fires them
        on time, shows them, and serves its HTTP API (GET /v1/openapi.json describes it) to apps and the
        chime command on $XDG_RUNTIME_DIR/chime/chimed.sock, and to pages on a loopback address.

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
          --http <address>         Also serve the API on this loopback address (127.0.0.1:PORT; port 0
                                   picks a free one, the default), recorded in the runtime folder's
                                   `http` file; `none` serves only the Unix socket.
          --http-allow-remote      Let --http be an address other machines reach (192.168.1.5:7717).
                                   Warning: that is plain HTTP, so anyone on the network path can read
                                   your notifications and take over a session; use it only on a network
                                   you trust or behind a TLS proxy. Logged as a warning at every start.
          --max-connections <n>    Connections served at once on each listener (default 4096).
          --idle-timeout <seconds> Close connections idle this long (default 60).
          --proc-root <dir>        Look up client processes here instead of /proc (for tests).
          --verbose                Log debug lines too.
          --server                 Server mode: serve many tenants' recipients from PostgreSQL (--database)
                                   beside any number of other nodes on the same database; the API takes a
                                   tenant's key (chime_…) and listens on --http only. See README.md.
          --database <conninfo>    The PostgreSQL database of server mode: a libpq connection string
                                   ("host=/run/postgresql dbname=chime") or URL (postgresql://…).
          --node <name>            This node's name in logs and /v1/status (default: host name and pid).
          --webhook-allow <network>
                                   Let every tenant's webhooks reach this network although it is not public
                                   (repeatable): loopback or link-local for receivers beside the node. A
                                   tenant can open only private networks itself (PUT /v1/settings). In the
                                   per-user daemon: let pushes to browsers (the web center's "notify this
                                   browser") reach a push service on this network.
          --webhook-timeout <seconds>
                                   How long a webhook's receiver has to answer (default 15; 1 to 60). A node
                                   that dies mid-attempt leaves the delivery to another after twice that
                                   and 5 s more, with the same webhook-id.
          --webhook-retries <seconds,…>
                                   The pauses before each retry of a webhook that was not accepted
                                   (default: 5,300,1800,7200,18000,36000,50400,72000,86400, the Standard
                                   Webhooks schedule: 10 attempts over about three days), each ±10%.
                                   APNs deliveries that APNs asks to retry (429, 5xx) follow it too.
          --apns-url <url>         Send APNs requests here instead of Apple's hosts (api.push.apple.com,
                                   api.sandbox.push.apple.com), for both environments: an https URL.
          --apns-timeout <seconds> How long APNs has to answer a request (default 15; 1 to 60). A node that
                                   dies mid-request leaves the delivery to another after twice that and 5 s.
          --apns-ca-file <path>    Trust the certificate authorities in this PEM file for APNs instead of
                                   the system's (for a stand-in with its own certificate).
          --outbound-ca-file <path>
                                   Trust the certificate authorities in this PEM file for https webhooks
                                   and browsers' push services (Web Push) instead of the system's.
          --create-tenant <id>     Make a tenant in --database and print its first admin key, once.
          --name <name>            The new tenant's display name (default: its id).
          --paths                  Print the data, store, registry, socket and token paths, and exit.
          --version                Show the version.
          -h, --help               Show this help.

        SIGNALS: SIGTERM and SIGINT stop cleanly; SIGHUP re-reads the registry (registry.json).
        Every request needs the token in $XDG_RUNTIME_DIR/chime/token as `Authorization: Bearer <token>`:
          curl --unix-socket "$XDG_RUNTIME_DIR/chime/chimed.sock" \\
               -H "Authorization: Bearer $(cat "$XDG_RUNTIME_DIR/chime/token")" http://localhost/v1/status

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
        /// The option's value as a whole number in `range`; `unit` names what it counts in the error.
        func number(_ option: String, in range: ClosedRange<Int>, unit: String = "number") throws(UsageError) -> Int {
            let given = try value(option)
            guard let number = Int(given), range.contains(number) else {
                throw UsageError(description: "\(option) must be a \(unit) between \(range.lowerBound) and \(range.upperBound), not '\(given)'")
            }
            return number
        }
        /// The option's value as the path of a file this process can read.
        func readableFile(_ option: String) throws(UsageError) -> String {
            let given = try value(option)
            guard FileManager.default.isReadableFile(atPath: given) else { throw UsageError(description: "\(option): cannot read '\(given)'") }
            return given
        }
        var createTenant: String?
        var tenantName: String?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--server": configuration.serverMode = true
            case "--database": configuration.database = try value(argument)
            case "--node": configuration.nodeName = try value(argument)
            case "--webhook-retries":
                let given = try value(argument)
                let pauses = given.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard !given.isEmpty, pauses.count <= 20, pauses.allSatisfy({ $0.map { $0 > 0 && $0 <= 7 * 86_400 } ?? false }) else {
                    throw UsageError(description: "--webhook-retries must be up to 20 pauses in seconds, such as 5,300,1800, not '\(given)'")
                }
                configuration.webhookRetries = pauses.compactMap(\.self)
            case "--webhook-timeout": configuration.webhookTimeout = try number(argument, in: 1...60, unit: "number of seconds")
            case "--apns-timeout": configuration.apnsTimeout = try number(argument, in: 1...60, unit: "number of seconds")
            case "--webhook-allow":
                let given = try value(argument)
                guard IPNetwork(given) != nil else {
                    throw UsageError(description: "--webhook-allow must be an address or a network such as 127.0.0.1 or 10.0.0.0/8, not '\(given)'")
                }
                configuration.webhookAllowed.append(given)
            case "--apns-url":
                let given = try value(argument)
                guard let url = URLComponents(string: given), url.scheme == "https", url.host?.isEmpty == false, url.path.isEmpty || url.path == "/" else {
                    throw UsageError(description: "--apns-url must be an https URL without a path, such as https://api.push.apple.com, not '\(given)'")
                }
                configuration.apnsURL = given.hasSuffix("/") ? String(given.dropLast()) : given
            case "--apns-ca-file": configuration.apnsCertificateAuthorities = try readableFile(argument)
            case "--outbound-ca-file": configuration.outboundCertificateAuthorities = try readableFile(argument)
            case "--create-tenant": createTenant = try value(argument)
            case "--name": tenantName = try value(argument)
            case "-h", "--help": return .help
            case "--version": return .version
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
            case "--proc-root":
                let given = try value(argument)
                guard given.hasPrefix("/") else { throw UsageError(description: "--proc-root must be an absolute path, not '\(given)'") }
                configuration.procRoot = given
            case "--presentation-timeout":
                let given = try value(argument)
                guard let seconds = Double(given), seconds > 0, seconds <= 60 else {
                    throw UsageError(description: "--presentation-timeout must be a number of seconds between 0 and 60, not '\(given)'")
                }
                configuration.presentationTimeout = .milliseconds(Int(seconds * 1000))
            case "--http":
                let given = try value(argument)
                if given == "none" {
                    configuration.http = nil
                } else {
                    guard let address = HTTPAddress(parsing: given) else {
                        throw UsageError(description: "--http must be an address such as 127.0.0.1:7717, or none, not '\(given)'")
                    }
                    configuration.http = address
                }
            case "--max-connections": configuration.maximumConnections = try number(argument, in: 1...1_000_000)
            case "--idle-timeout": configuration.idleTimeout = try number(argument, in: 1...3600, unit: "number of seconds")
            case "--http-allow-remote": configuration.allowsRemoteHTTP = true
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
        if let tenant = createTenant {
            guard let database = configuration.database else { throw UsageError(description: "--create-tenant needs --database") }
            return .createTenant(database: database, tenant: tenant, name: tenantName ?? tenant)
        }
        if configuration.serverMode {
            guard configuration.database != nil else { throw UsageError(description: "--server needs --database <conninfo>") }
            guard configuration.http != nil else { throw UsageError(description: "--server serves its API over --http; it cannot be none") }
        } else if configuration.database != nil {
            throw UsageError(description: "--database is for server mode: add --server (or --create-tenant)")
        }
        if let http = configuration.http, !http.isLoopback, !configuration.allowsRemoteHTTP {
            throw UsageError(
                description: "--http \(http) is not a loopback address: other machines could reach it over plain HTTP. "
                    + "Add --http-allow-remote if that is what you want (see --help)")
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
        lock:         \(paths.lockFile.path)
        http:         \(paths.httpAddressFile.path)
        """
    }
}
