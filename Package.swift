// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Chime",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ChimeCore", targets: ["ChimeCore"]),
        .library(name: "ChimeEngine", targets: ["ChimeEngine"]),
        .library(name: "ChimeTesting", targets: ["ChimeTesting"]),
        .library(name: "ChimeSQLite", targets: ["ChimeSQLite"]),
        .library(name: "ChimePostgres", targets: ["ChimePostgres"]),
        .library(name: "ChimeTerminal", targets: ["ChimeTerminal"]),
        .library(name: "ChimeDesktop", targets: ["ChimeDesktop"]),
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
        .library(name: "CoreLocation", targets: ["CoreLocation"]),
        .library(name: "ChimeAPI", targets: ["ChimeAPI"]),
        .library(name: "ChimeClient", targets: ["ChimeClient"]),
        .library(name: "ChimeServer", targets: ["ChimeServer"]),
        .library(name: "ChimeServerMode", targets: ["ChimeServerMode"]),
        .library(name: "ChimeDaemon", targets: ["ChimeDaemon"]),
        .executable(name: "chime", targets: ["chime"]),
        .executable(name: "chimed", targets: ["chimed"]),
        .executable(name: "chime-bench", targets: ["chime-bench"]),
    ],
    targets: [
        // Values and rules of the notification system; no I/O beyond reading attachment files.
        .target(name: "ChimeCore"),

        // The notification center: state, scheduler on an injected clock, presentation, responses.
        .target(name: "ChimeEngine", dependencies: ["ChimeCore"]),

        // What users' own tests import: a manual clock, a simulated user, a recording presenter.
        .target(name: "ChimeTesting", dependencies: ["ChimeEngine", "ChimeCore"]),
        // The bytes every store keeps its records in (one codec, whatever the database): a binary form of
        // what `Codable` produces.
        .target(name: "ChimeStoreCoding", dependencies: ["ChimeCore"]),

        // The system SQLite (libsqlite3-dev): a module map and a header, nothing else.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // The embedded store: SQLite connections, migrations, group commit, and the engine's store on them.
        .target(name: "ChimeSQLite", dependencies: ["CSQLite", "ChimeStoreCoding", "ChimeEngine", "ChimeCore"]),

        // The system libpq (libpq-dev): a module map and a header, nothing else.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // The server store: PostgreSQL connections (libpq), migrations, and the engine's store on them, every
        // row scoped by tenant.
        .target(name: "ChimePostgres", dependencies: ["CLibPQ", "ChimeCrypto", "ChimeStoreCoding", "ChimeEngine", "ChimeCore"]),

        // The terminal presenter: notifications and the authorization prompt on a terminal, answered by
        // typing a choice.
        .target(name: "ChimeTerminal", dependencies: ["ChimeEngine", "ChimeCore"]),

        // The system libsystemd (libsystemd-dev) for sd-bus: a module map and a header, nothing else.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // The desktop presenter: freedesktop Desktop Notifications over D-Bus (sd-bus), the authorization
        // prompt as a notification, launcher badges, and the session's Do Not Disturb and lock state.
        // Its own target so that only users of the desktop pay for libsystemd.
        .target(
            name: "ChimeDesktop", dependencies: ["CSystemd", "ChimeEngine", "ChimeCore"],
            resources: [.embedInCode("Strings/desktop-en.strings"), .embedInCode("Strings/desktop-ko.strings")]),

        // Apple's UserNotifications API over the engine, so iOS code compiles with `import UserNotifications`
        // (Linux only: on Apple platforms the system framework is the real one).
        // In client mode it talks to chimed through ChimeClient.
        .target(name: "UserNotifications", dependencies: ["CoreLocation", "ChimeClient", "ChimeAPI", "ChimeDesktop", "ChimeEngine", "ChimeSQLite", "ChimeCore"]),
        // Apple's CoreLocation as far as notification code uses it: coordinates, locations, regions, and
        // location permission (GeoClue's, through ChimeDesktop).
        .target(name: "CoreLocation", dependencies: ["ChimeDesktop", "ChimeCore"]),

        // chimed's API as a contract, apart from any transport: routes, request and answer bodies, events,
        // errors, the OpenAPI documents (the daemon's, server mode's), and where the daemon's files are (XDG).
        // Shared by server and clients.
        .target(name: "ChimeAPI", dependencies: ["ChimeCore"], resources: [.embedInCode("openapi.json"), .embedInCode("openapi-server.json")]),

        // The system libmicrohttpd (libmicrohttpd-dev) and libcurl (libcurl4-openssl-dev): module maps and
        // headers with wrappers for what Swift cannot call, nothing else.
        .systemLibrary(name: "CMHD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Many libcurl transfers at once on one thread of their own (a multi handle on epoll): the client's
        // requests to chimed, and server mode's HTTP/2 requests to APNs.
        .target(name: "ChimeCurl", dependencies: ["CCurl"]),
        // The system OpenSSL's libcrypto (libssl-dev), and what Chime uses of it: digests, MACs, P-256 keys
        // (ES256, ECDH), HKDF and AES-GCM.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "ChimeCrypto", dependencies: ["COpenSSL"]),
        // Delivery beyond the machine: signed webhooks, sent on libcurl to the addresses a tenant may call,
        // APNs over HTTP/2 with provider tokens, and Web Push (RFC 8291 encryption, VAPID).
        .target(name: "ChimeDelivery", dependencies: ["CCurl", "ChimeCurl", "ChimeCrypto", "ChimeCore"]),

        // The API served: the rules of the daemon in a transport-neutral NotificationService, and the HTTP
        // server (libmicrohttpd) that maps routes to it, with Server-Sent Events. No store or presenter of
        // its own: the daemon wires those in.
        .target(
            name: "ChimeServer", dependencies: ["CMHD", "ChimeCrypto", "ChimeAPI", "ChimeEngine", "ChimeCore"],
            resources: [
                "index.html", "center.css", "icon.svg", "main.js", "api.js", "texts.js", "dom.js", "center.js", "scheduled.js", "triggers.js",
                "settings.js", "badges.js", "browser-notifications.js", "browser-push.js", "push-worker.js",
            ].map { .embedInCode("Web/Resources/\($0)") }),
        // A client of chimed for the CLI and for apps in client mode, on libcurl: HTTP over the Unix socket,
        // events from SSE. No engine, no SQLite, no D-Bus.
        .target(name: "ChimeClient", dependencies: ["CCurl", "ChimeCurl", "ChimeAPI", "ChimeCore"]),
        // The per-user daemon as a library: wiring of store, engine, presenters, response queue and server.
        // Server mode: many tenants and recipients on PostgreSQL, served by several chimed nodes.
        .target(
            name: "ChimeServerMode", dependencies: ["ChimeServer", "ChimePostgres", "ChimeDelivery", "ChimeCrypto", "ChimeAPI", "ChimeEngine", "ChimeCore"]),
        .target(name: "ChimeDaemon", dependencies: ["ChimeServerMode", "ChimeDelivery", "ChimePostgres", "ChimeServer", "ChimeAPI", "ChimeDesktop", "ChimeSQLite", "ChimeEngine", "ChimeCore"]),
        .executableTarget(name: "chimed", dependencies: ["ChimeDaemon"]),
        // What each parser of outside bytes must hold (round trips, agreeing readers, limits), shared by the
        // libFuzzer harness and the tests that run the seed corpora in Fuzz/.
        .target(
            name: "ChimeFuzzTargets",
            dependencies: ["ChimeCore", "ChimeAPI", "ChimeStoreCoding", "ChimeCLI", "ChimeDelivery", "ChimeServer", "ChimeEngine", "ChimeCrypto"]),
        // The libFuzzer harness: script/fuzz builds it with --sanitize=fuzzer (a plain build links a main
        // that does nothing).
        .executableTarget(name: "chime-fuzz", dependencies: ["ChimeFuzzTargets"]),

        // The `chime` command line: parsing and commands as a library so tests reach them.
        .target(
            name: "ChimeCLI", dependencies: ["ChimeClient", "ChimeAPI", "ChimeDesktop", "ChimeEngine", "ChimeCore"],
            resources: [.embedInCode("Strings/chime-en.strings"), .embedInCode("Strings/chime-ko.strings")]),
        .executableTarget(name: "chime", dependencies: ["ChimeCLI"]),

        // A test helper: adds and delivers under load until the durability test kills it with SIGKILL.
        .executableTarget(name: "chime-crash-probe", dependencies: ["ChimeSQLite", "ChimeEngine", "ChimeCore"]),

        // Benchmarks: separate executables that print figures beside a baseline from the same run.
        .executableTarget(
            name: "chime-bench",
            dependencies: [
                "CCurl", "ChimeClient", "ChimeCrypto", "ChimeDelivery", "ChimeAPI", "ChimeCore", "ChimeEngine", "ChimeSQLite", "ChimePostgres", "ChimeServer",
                "ChimeServerMode", "ChimeStoreCoding",
            ]),

        // Test helper: writes rows and prints each acknowledged id until it is killed, so a test can
        // `kill -9` it mid-burst and check that every acknowledged write survived.
        .executableTarget(name: "chime-sqlite-crash-probe", dependencies: ["ChimeSQLite"]),

        // The seeds' apps as small command-line programs in a terminal (see README: "Examples").
        .target(
            name: "ExampleSupport", dependencies: ["UserNotifications", "ChimeTerminal", "ChimeClient", "ChimeAPI", "ChimeEngine", "ChimeCore"],
            path: "Examples/Support"),
        .executableTarget(name: "alarm", dependencies: ["ExampleSupport", "UserNotifications"], path: "Examples/Alarm"),
        .executableTarget(
            name: "photo-reactions", dependencies: ["ExampleSupport", "UserNotifications"], path: "Examples/PhotoReactions",
            resources: [.copy("Resources/hello.png")]),
        .executableTarget(name: "meeting-invite", dependencies: ["ExampleSupport", "UserNotifications"], path: "Examples/MeetingInvite"),
        .executableTarget(name: "rating", dependencies: ["ExampleSupport", "UserNotifications"], path: "Examples/Rating"),
        .executableTarget(name: "critical-alert", dependencies: ["ExampleSupport", "UserNotifications"], path: "Examples/CriticalAlert"),
        .executableTarget(name: "geofence", dependencies: ["ExampleSupport", "UserNotifications", "CoreLocation"], path: "Examples/Geofence"),

        .testTarget(name: "ChimeCoreTests", dependencies: ["ChimeCore", "ChimeTesting", "ChimeTestSupport"], exclude: ["geodesic_oracle.py"]),
        .testTarget(name: "ChimeFuzzTargetsTests", dependencies: ["ChimeFuzzTargets"]),
        .testTarget(name: "CoreLocationTests", dependencies: ["CoreLocation"]),
        .testTarget(name: "ChimeCryptoTests", dependencies: ["ChimeCrypto", "ChimeTestSupport"], exclude: ["p256_oracle.py"]),
        .testTarget(
            name: "ChimeDeliveryTests", dependencies: ["ChimeDelivery", "ChimeCrypto", "ChimeCore", "ChimeTestSupport"],
            exclude: ["address_oracle.py", "http_date_oracle.py", "webhook_verifier.py", "webpush_oracle.py"]),
        .testTarget(name: "ChimeCLITests", dependencies: ["ChimeCLI", "ChimeCore", "ChimeTestSupport"]),
        // On the SQLite store, or on PostgreSQL with CHIME_TEST_STORE=postgres (script/test runs both).
        .testTarget(
            name: "ChimeEngineTests", dependencies: ["ChimeEngine", "ChimeTesting", "ChimeCore", "ChimeSQLite", "ChimePostgres", "ChimeTestSupport"]),
        .testTarget(name: "ChimeTerminalTests", dependencies: ["ChimeTerminal", "ChimeEngine", "ChimeTesting", "ChimeTestSupport", "ChimeCore"]),
        // Against real components: a private dbus-daemon per test, a scripted notification server in Python
        // (dbus-next), and dunst under Xvfb.
        .testTarget(
            name: "ChimeDesktopTests", dependencies: ["ChimeDesktop", "ChimeEngine", "ChimeTesting", "ChimeTestSupport", "ChimeCore"]),
        // Drives the real chimed executable (it must be built) through ChimeClient and raw socket lines; reads
        // the store a killed daemon left with ChimeSQLite; sees dunst take its name on a private bus with
        // ChimeDesktop's bus connection.
        .testTarget(
            name: "ChimeDaemonTests",
            dependencies: [
                "ChimeCLI", "ChimeClient", "ChimeAPI", "ChimeServer", "ChimeServerMode", "ChimeDaemon", "ChimeCore", "ChimeDesktop", "ChimeEngine",
                "ChimeSQLite", "ChimePostgres", "ChimeCrypto", "ChimeDelivery", "ChimeTesting", "ChimeTestSupport",
            ]),
        // Client mode: UNUserNotificationCenter on a real chimed (it must be built), compared with the
        // embedded engine. Swift 6 mode; the seeds' Swift 5 code stays in UserNotificationsTests.
        .testTarget(
            name: "UserNotificationsClientTests",
            dependencies: ["UserNotifications", "ChimeClient", "ChimeAPI", "ChimeDesktop", "ChimeEngine", "ChimeCore", "ChimeTestSupport"]),
        // The server's pure parts without a server: routes, the SSE parser, the event hub, presence, statuses.
        .testTarget(name: "ChimeServerTests", dependencies: ["ChimeServer", "ChimeAPI", "ChimeCore", "ChimeTesting"]),
        .testTarget(
            name: "ChimeSQLiteTests", dependencies: ["ChimeSQLite", "ChimeStoreCoding", "ChimeEngine", "ChimeTesting", "ChimeTestSupport", "ChimeCore"],
            exclude: ["store_record_oracle.py"]),
        // Against a real PostgreSQL: a throwaway cluster the tests start under a temporary folder.
        .testTarget(
            name: "ChimePostgresTests", dependencies: ["ChimePostgres", "ChimeEngine", "ChimeTesting", "ChimeTestSupport", "ChimeCore"]),
        // What the tests of real components share: child processes, a private D-Bus, the scripted
        // notification server, dunst on a virtual screen, a throwaway PostgreSQL cluster (not a product;
        // only test targets use it).
        .target(
            name: "ChimeTestSupport", dependencies: ["ChimeClient", "ChimeAPI", "ChimeDesktop", "ChimePostgres", "ChimeCrypto", "ChimeEngine", "ChimeCore"],
            path: "Tests/ChimeTestSupport",
            exclude: ["fake_notification_server.py", "geoclue_peer.py", "web_browser.py", "webhook_receiver.py", "apns_standin.py", "push_service.py"]),
        // Runs the examples as processes on a pseudo-terminal; they must be built (swift build builds them).
        .testTarget(name: "ExamplesTests", dependencies: ["ChimeTesting", "ChimeTestSupport", "ChimeCore"]),
        // Swift 5 mode: the seeds' iOS code is Swift 5 code, as most iOS apps are, and must compile as written
        // (Swift 6 mode rejects its completion-handler captures on iOS too).
        .testTarget(
            name: "UserNotificationsTests", dependencies: ["UserNotifications", "ChimeAPI", "ChimeEngine", "ChimeTesting", "ChimeCore"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
