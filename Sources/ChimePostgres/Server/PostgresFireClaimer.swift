public import ChimeCore
public import ChimeEngine
import ChimeStoreCoding
public import Foundation

/// A fire a node recorded: the notification delivered to a recipient, how far it may interrupt them now
/// (their quiet hours against its interruption level), and its texts in their language.
public struct RecordedFire: Sendable, Hashable {
    public var tenant: String
    public var recipient: String
    public var appIdentifier: String
    public var notification: DeliveredNotification
    public var alerting: PresentationPolicy.Alerting
    public var text: ResolvedText
}

/// A notification's title, subtitle and body as its recipient reads them: deferred localization resolved
/// in their language against the app's strings tables (`PostgresAppStrings`) when it fired.
public struct ResolvedText: Sendable, Hashable {
    public var title: String
    public var subtitle: String
    public var body: String
    /// The table that answered (`ko`, `en`, `Base`); `nil` when the app has none for the language.
    public var language: String?

    init(_ content: NotificationContent, localizer: NotificationLocalizer, locale: String) {
        let languages = [locale]
        title = localizer.resolve(content.title, preferredLanguages: languages)
        subtitle = localizer.resolve(content.subtitle, preferredLanguages: languages)
        body = localizer.resolve(content.body, preferredLanguages: languages)
        language = localizer.language(for: languages)
    }
}

/// Claims due fires of every tenant and recipient and records them, for one of several nodes sharing a
/// database.
///
/// One transaction claims up to `batchSize` due requests with `FOR UPDATE SKIP LOCKED` — rows another node
/// is recording are passed over, never waited for — works out each fire by the engine's `FireRules` in
/// the recipient's zone, and writes the fire records (`PostgresFireWriter`) and one event per delivery
/// (its texts resolved in the recipient's language) before it commits. The row locks are the claim's
/// lease: they last as long as the transaction, which PostgreSQL ends when the node's connection drops
/// (`kill -9`, a crash) or when it sits idle longer than `lease` (a node that hangs mid-claim); the rows
/// are then claimable again, and since nothing was committed nothing is recorded twice.
///
/// A claim takes what is due up to `lead` ahead, recorded as of each fire's due instant: its event is
/// readable from that instant (`PostgresEventLog`), so a stream sees it on time even though the claim's
/// transaction (tens of milliseconds for a full batch) ran before. Nothing depends on the node after the
/// commit: a node that dies then has already made the fire, and every node's readers show it when due.
/// The price is the lead itself: a request removed less than `lead` before it is due may still fire, and
/// the delivered list holds a fire's row before its instant (its pages skip such rows).
public final class PostgresFireClaimer: Sendable {
    public struct Configuration: Sendable {
        /// Requests claimed in one transaction.
        public var batchSize = 500
        /// A fire this many seconds late was missed, as in `EngineConfiguration`.
        public var misfireTolerance: TimeInterval = 60
        /// How long a claim may sit without progress before PostgreSQL ends it and frees its rows.
        public var lease: Duration = .seconds(3)
        /// How far ahead of their due instant fires are claimed and recorded: 200 ms, because a claim and
        /// the feeds' reads that follow it cost tens of milliseconds on a busy two-core machine, and with
        /// 100 ms a burst's streams saw one fire in a hundred 35–100 ms late (BENCHMARKS.md).
        public var lead: TimeInterval = 0.2
        public init() {}
    }

    /// The advisory lock a claim holds for its transaction (`pg_try_advisory_xact_lock`): whose turn it is.
    static let turn: Int64 = 0x6368_696d_6563_6c6d  // "chimeclm"

    let database: PostgresDatabase
    let configuration: Configuration
    let encodeEvent: @Sendable (RecordedFire) throws -> [UInt8]
    let localizers = PostgresLocalizerCache()

    public init(database: PostgresDatabase, configuration: Configuration = Configuration(), encodeEvent: @escaping @Sendable (RecordedFire) throws -> [UInt8]) {
        self.database = database
        self.configuration = configuration
        self.encodeEvent = encodeEvent
    }

    /// Claims and records what is due by `now` plus the lead, each as of its due instant (or `now`, when
    /// late); returns how many requests it claimed (a full batch means more may be due) and the fires it
    /// recorded.
    public func fireDue(now: Date) async throws -> (claimed: Int, recorded: [RecordedFire]) {
        let configuration = configuration
        let encodeEvent = encodeEvent
        let localizers = localizers
        return try await database.transaction { db in
            let leaseMilliseconds = Int(configuration.lease.components.seconds) * 1_000 + Int(configuration.lease.components.attoseconds / 1_000_000_000_000_000)
            try db.execute("SET LOCAL idle_in_transaction_session_timeout = \(leaseMilliseconds); SET LOCAL statement_timeout = \(leaseMilliseconds)")
            // One claim at a time across the nodes, so claims commit in the order of the instants they
            // cover and a stream is never held behind a later window another node committed first.
            guard try db.query("SELECT pg_try_advisory_xact_lock($1)", [.integer(Self.turn)]).first?[0] == .boolean(true) else { return (0, []) }
            let rows = try db.query(
                """
                SELECT p.tenant, p.recipient, p.app_id, p.added, p.next_fire, p.request, r.time_zone, r.quiet_hours, r.locale
                FROM pending p LEFT JOIN recipient r ON r.tenant = p.tenant AND r.recipient_id = p.recipient
                WHERE p.next_fire IS NOT NULL AND p.next_fire <= $1
                ORDER BY p.next_fire LIMIT $2
                FOR UPDATE OF p SKIP LOCKED
                """,
                [.date(now.addingTimeInterval(configuration.lead)), .integer(Int64(configuration.batchSize))])
            guard !rows.isEmpty else { return (0, []) }

            var fires: [PostgresFireWriter.Fire] = []
            var dates: [Date] = []
            var current: [PostgresFireWriter.Key: Date] = [:]
            var recipients: [String: (zone: TimeZone, quiet: QuietHours, locale: String)] = [:]
            for row in rows {
                guard let tenant = row[0].text, let recipient = row[1].text, let app = row[2].text, let added = row[3].date,
                    let fired = row[4].date, let blob = row[5].bytes
                else { throw PostgresError.unexpectedResult("a claimed pending row") }
                let pending = PendingRequest(
                    appIdentifier: app, request: try StoreRecord.decode(NotificationRequest.self, from: blob), addedDate: added, nextFireDate: fired)
                let profile = recipients[tenant + "\u{0}" + recipient] ?? Self.profile(zone: row[6].text, quietHours: row[7].text, locale: row[8].text)
                recipients[tenant + "\u{0}" + recipient] = profile
                let rules = FireRules(misfireTolerance: configuration.misfireTolerance, timeZone: profile.zone)
                let date = max(fired, now)
                let record = try rules.fireRecord(for: pending, firedDate: fired, now: date)
                let fire = try PostgresFireWriter.Fire(tenant: tenant, recipient: recipient, record: record)
                current[fire.key] = fired
                fires.append(fire)
                dates.append(date)
            }
            let applied = try PostgresFireWriter.apply(fires, current: current, in: db)

            let delivered = applied.filter { fires[$0].record.delivered != nil }
            let apps = Set(delivered.map { PostgresLocalizerCache.App(tenant: fires[$0].key.tenant, app: fires[$0].key.request.appIdentifier) })
            let tables = try localizers.localizers(for: apps, in: db)
            let none = NotificationLocalizer(tables: [:])
            var recorded: [RecordedFire] = []
            for index in delivered {
                let fire = fires[index]
                guard let notification = fire.record.delivered else { continue }
                let profile = recipients[fire.key.tenant + "\u{0}" + fire.key.recipient]!
                let localizer = tables[PostgresLocalizerCache.App(tenant: fire.key.tenant, app: fire.key.request.appIdentifier)] ?? none
                recorded.append(
                    RecordedFire(
                        tenant: fire.key.tenant, recipient: fire.key.recipient, appIdentifier: fire.key.request.appIdentifier,
                        notification: notification, alerting: Self.alerting(notification, quiet: profile.quiet, zone: profile.zone, now: dates[index]),
                        text: ResolvedText(notification.request.content, localizer: localizer, locale: profile.locale)))
            }
            // In due order (claimed so), which is the order a reader's clock makes them readable in.
            let events = try recorded.map { fire in
                StoredEvent(kind: "delivered", tenant: fire.tenant, recipient: fire.recipient, readable: fire.notification.date, body: try encodeEvent(fire))
            }
            try PostgresDeliveries.queueDeliveries(
                zip(recorded, events).map { fire, event in
                    PostgresDeliveries.Fired(
                        tenant: fire.tenant, recipient: fire.recipient, app: fire.appIdentifier, notification: fire.notification.identifier,
                        due: fire.notification.date, event: event.body,
                        apns: {
                            APNsPush(
                                content: fire.notification.request.content, identifier: fire.notification.identifier, title: fire.text.title,
                                subtitle: fire.text.subtitle, body: fire.text.body, due: fire.notification.date, quietly: fire.alerting == .quietly)
                        })
                }, now: now, in: db)
            try PostgresEventLog.append(events, in: db)
            return (rows.count, recorded)
        }
    }

    /// The earliest date a request is due, claimed or not; `nil` when nothing is dated.
    public func nextDue() async throws -> Date? {
        try await database.read { db in
            try db.query("SELECT min(next_fire) FROM pending WHERE next_fire IS NOT NULL").first?[0].date
        }
    }

    /// A recipient's zone, quiet hours and language as stored; a recipient the tenant never described is
    /// in UTC without quiet hours, in English.
    static func profile(zone: String?, quietHours: String?, locale: String?) -> (zone: TimeZone, quiet: QuietHours, locale: String) {
        let timeZone = zone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: PostgresTenantData.defaultZone)!
        let quiet = quietHours.flatMap { $0.isEmpty ? nil : try? JSONDecoder().decode(QuietHours.self, from: Data($0.utf8)) } ?? .none
        return (timeZone, quiet, locale ?? PostgresTenantData.defaultLocale)
    }

    /// How far a delivery may interrupt: a tenant's apps are authorized with every level, so the level
    /// against the recipient's quiet hours decides (Apple's Focus rule).
    static func alerting(_ notification: DeliveredNotification, quiet: QuietHours, zone: TimeZone, now: Date) -> PresentationPolicy.Alerting {
        var settings = NotificationSettings.notDetermined
        settings.authorizationStatus = .authorized
        settings.timeSensitiveSetting = .enabled
        settings.criticalAlertSetting = .enabled
        let level = PresentationPolicy.interruptionLevel(of: notification.request.content, settings: settings)
        return PresentationPolicy.alerting(level: level, status: .authorized, focus: quiet.focus(at: now, in: zone))
    }
}
