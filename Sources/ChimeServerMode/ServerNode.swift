import ChimeAPI
public import ChimeEngine
public import ChimePostgres
import ChimeServer
import Foundation
import Synchronization

/// One chimed node of server mode: fires what is due for every tenant's recipients, serves the tenants'
/// API and event streams, and takes its turn at singleton work — beside any number of other nodes on the
/// same database, which is all they share.
///
/// - Firing: `PostgresFireClaimer` claims and records fires in batches a little ahead of their due
///   instants, then the node sleeps until the next one comes within reach, at most `pollInterval`, or
///   until a `NOTIFY` says requests were added (an earlier one may now be due first).
/// - Streams: `TenantFeed` follows the event log, so a stream resumes on any node.
/// - Deliveries: `DeliveryWorker` sends what the fires queued for the recipients' webhook and APNs devices.
/// - Retention: every `sweepInterval`, whichever node gets the advisory lock sweeps.
public final class ServerNode: Sendable {
    public struct Configuration: Sendable {
        /// This node's name in logs and `GET /v1/status`.
        public var name: String
        /// The longest the scheduler sleeps without being woken: the bound on a fire's lateness when a
        /// `NOTIFY` is lost.
        public var pollInterval: Duration = .seconds(1)
        public var sweepInterval: Duration = .seconds(60)
        public var claimer = PostgresFireClaimer.Configuration()
        public var deliveries = DeliveryWorker.Configuration()

        public init(name: String) {
            self.name = name
        }
    }

    public let database: PostgresDatabase
    public let configuration: Configuration
    public let feed: TenantFeed
    public let handler: TenantAPIHandler
    let claimer: PostgresFireClaimer
    let log: any EngineLog
    let wake = AsyncWake()
    let tasks = Mutex<[Task<Void, Never>]>([])
    let listener = Mutex<PostgresListener?>(nil)

    public init(database: PostgresDatabase, configuration: Configuration, log: any EngineLog) {
        self.database = database
        self.configuration = configuration
        self.log = log
        feed = TenantFeed(log: PostgresEventLog(database: database))
        handler = TenantAPIHandler(service: TenantService(database: database), feed: feed, node: configuration.name, log: log)
        claimer = PostgresFireClaimer(database: database, configuration: configuration.claimer) { fire in
            try RecipientDeliveredEvent(
                recipient: fire.recipient, app: fire.appIdentifier, alerting: Self.name(fire.alerting), notification: fire.notification,
                text: DeliveredText(title: fire.text.title, subtitle: fire.text.subtitle, body: fire.text.body, language: fire.text.language)
            ).wireJSON()
        }
    }

    /// Starts firing, following the event log, sweeping, and listening for the other nodes.
    public func start() {
        let feed = feed
        let wake = wake
        listener.withLock {
            $0 = PostgresListener(database: database, channels: [PostgresEventLog.channel, PostgresTenantData.pendingChannel]) { channel in
                if channel == PostgresEventLog.channel { feed.nudge() } else { wake.signal() }
            }
        }
        tasks.withLock { tasks in
            tasks.append(Task { await self.fireForever() })
            tasks.append(Task { await feed.run() })
            tasks.append(Task { await self.sweepForever() })
            let deliveries = DeliveryWorker(database: database, configuration: configuration.deliveries, log: log)
            tasks.append(Task { await deliveries.run() })
            tasks.append(
                Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(15))
                        feed.heartbeat()
                    }
                })
        }
    }

    public func stop() async {
        listener.withLock { $0?.stop() }
        let running = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
        wake.signal()
        feed.nudge()
        for task in running { await task.value }
    }

    func fireForever() async {
        while !Task.isCancelled {
            do {
                let (claimed, recorded) = try await claimer.fireDue(now: Date())
                if !recorded.isEmpty {
                    feed.nudge()
                    log.debug("fired \(recorded.count) notifications")
                }
                if claimed == configuration.claimer.batchSize { continue }
                let next = try await claimer.nextDue()
                let bound = Date().addingTimeInterval(Double(configuration.pollInterval.components.seconds))
                // Claims reach `lead` ahead. Waking when the next fire is 80% of it away leaves that fire most
                // of the lead for its claim to commit and for the streams' feeds to read it, and the claim a
                // window of a fifth of it. A fire costs about a quarter of a millisecond of the node's and
                // PostgreSQL's CPU, so waking at half the lead (a 50 ms window of a 5,000-a-second burst, 250
                // fires, with a 100 ms lead) used up its margin, and streams saw a window's first fires up
                // to 100 ms late.
                let until = min(next.map { $0.addingTimeInterval(-configuration.claimer.lead * 0.8) } ?? bound, bound)
                let wait = until.timeIntervalSinceNow
                // A due request another node holds: back off a little instead of spinning on it.
                await wake.wait(upTo: wait > 0 ? .microseconds(Int64(wait * 1_000_000)) : .milliseconds(20))
            } catch {
                log.warning("scheduler: \(error); retrying in 1 s")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    func sweepForever() async {
        let retention = PostgresRetention(database: database)
        while !Task.isCancelled {
            do {
                if let removed = try await retention.sweep(now: Date()), removed > 0 {
                    log.info("retention: removed \(removed) delivered notifications, events and idempotency keys past their tenants' retention")
                }
            } catch {
                log.warning("retention sweep: \(error)")
            }
            try? await Task.sleep(for: configuration.sweepInterval)
        }
    }

    static func name(_ alerting: PresentationPolicy.Alerting) -> String {
        switch alerting {
        case .nothing: "nothing"
        case .quietly: "quietly"
        case .normally: "normally"
        case .breakingThroughFocus: "breakingThroughFocus"
        }
    }
}
