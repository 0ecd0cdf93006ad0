/// The PostgreSQL schema of `PostgresNotificationStore`, as migrations.
///
/// The tables of the SQLite store, with a `tenant` and a `recipient` first in every key: every row belongs
/// to one recipient of one tenant (`""` for the tenant's own), and every statement of the store names both,
/// so no call through one tenant's store reaches another's rows. Records are the stores' shared codec (`StoreRecord`, its wide form) in `bytea`; dates are
/// `Date.timeIntervalSinceReferenceDate` as `double precision`, which round-trips a `Date` exactly; texts
/// are `COLLATE "C"`, so they order by their UTF-8 bytes as identifiers do everywhere in Chime, whatever
/// the database's own collation.
enum PostgresNotificationSchema {
    static let migrations = [
        PostgresMigration(
            version: 1, name: "apps, pending requests, delivered notifications, missed fires",
            sql: """
                CREATE TABLE app (
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    app_id text COLLATE "C" NOT NULL,
                    record bytea NOT NULL,
                    PRIMARY KEY (tenant, recipient, app_id)
                );

                CREATE TABLE pending (
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    app_id text COLLATE "C" NOT NULL,
                    request_id text COLLATE "C" NOT NULL,
                    added double precision NOT NULL,
                    next_fire double precision,
                    floating_calendar boolean NOT NULL,
                    request bytea NOT NULL,
                    PRIMARY KEY (tenant, recipient, app_id, request_id)
                );
                -- The scheduler's pages, and the list of every app's dated requests.
                CREATE INDEX pending_by_next_fire ON pending (tenant, recipient, next_fire, app_id, request_id) WHERE next_fire IS NOT NULL;
                -- Server mode's nodes claim what is due across every tenant and recipient.
                CREATE INDEX pending_due ON pending (next_fire) WHERE next_fire IS NOT NULL;
                -- One app's list, dated then undated (an ascending index puts NULLs last, as the list does).
                CREATE INDEX pending_by_app_next_fire ON pending (tenant, recipient, app_id, next_fire, request_id);
                -- Every app's undated requests in (app, request) order.
                CREATE INDEX pending_undated ON pending (tenant, recipient, app_id, request_id) WHERE next_fire IS NULL;
                CREATE INDEX pending_floating_calendar ON pending (tenant, recipient, app_id, request_id) WHERE floating_calendar;

                -- Newest first by a sequence shared by every tenant and node: a delivery made later has a
                -- higher number whichever node made it.
                CREATE SEQUENCE delivered_sequence;
                CREATE TABLE delivered (
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    app_id text COLLATE "C" NOT NULL,
                    notification_id text COLLATE "C" NOT NULL,
                    thread_id text COLLATE "C" NOT NULL,
                    sequence bigint NOT NULL,
                    -- When it was delivered, for retention.
                    date double precision NOT NULL,
                    notification bytea NOT NULL,
                    PRIMARY KEY (tenant, recipient, app_id, notification_id)
                );
                CREATE INDEX delivered_by_sequence ON delivered (tenant, recipient, app_id, sequence);
                CREATE INDEX delivered_by_thread ON delivered (tenant, recipient, app_id, thread_id);
                CREATE INDEX delivered_by_date ON delivered (tenant, date);

                CREATE TABLE missed (
                    sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    app_id text COLLATE "C" NOT NULL,
                    record bytea NOT NULL
                );
                CREATE INDEX missed_by_app ON missed (tenant, recipient, app_id, sequence);
                """),
        // Server mode's directory: tenants, their API keys (only a hash of each secret is kept), and their
        // recipients with the time zone and language their notifications follow.
        PostgresMigration(
            version: 2, name: "tenants, API keys, recipients",
            sql: """
                CREATE TABLE tenant (
                    tenant text COLLATE "C" PRIMARY KEY,
                    name text NOT NULL,
                    created timestamptz NOT NULL DEFAULT now()
                );

                CREATE TABLE api_key (
                    key_id text COLLATE "C" PRIMARY KEY,
                    tenant text COLLATE "C" NOT NULL REFERENCES tenant ON DELETE CASCADE,
                    secret_hash bytea NOT NULL UNIQUE,
                    name text NOT NULL,
                    scopes text[] NOT NULL,
                    created timestamptz NOT NULL DEFAULT now(),
                    revoked timestamptz
                );
                CREATE INDEX api_key_by_tenant ON api_key (tenant, created);

                CREATE TABLE recipient (
                    tenant text COLLATE "C" NOT NULL REFERENCES tenant ON DELETE CASCADE,
                    recipient_id text COLLATE "C" NOT NULL,
                    time_zone text NOT NULL,
                    locale text NOT NULL,
                    PRIMARY KEY (tenant, recipient_id)
                );
                """),
        // Server mode: what nodes share besides the store. Every delivery and change is an event with a
        // number, so an event stream resumes on any node; a repeated `Idempotency-Key` finds the first
        // answer; quiet hours and retention are the recipient's and the tenant's.
        PostgresMigration(
            version: 3, name: "events, idempotency keys, quiet hours, retention",
            sql: """
                -- Numbered in commit order: writers append under one advisory lock (PostgresEventLog).
                CREATE TABLE event (
                    sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    -- When it happened, and so when a reader may see it (a fire recorded ahead of its due
                    -- instant carries that instant).
                    created double precision NOT NULL,
                    body bytea NOT NULL
                );
                CREATE INDEX event_by_created ON event (created);

                CREATE TABLE idempotency (
                    tenant text COLLATE "C" NOT NULL REFERENCES tenant ON DELETE CASCADE,
                    key text COLLATE "C" NOT NULL,
                    fingerprint bytea NOT NULL,
                    status integer NOT NULL,
                    body bytea NOT NULL,
                    created double precision NOT NULL,
                    PRIMARY KEY (tenant, key)
                );
                CREATE INDEX idempotency_by_created ON idempotency (created);

                ALTER TABLE recipient ADD COLUMN quiet_hours text NOT NULL DEFAULT '';
                ALTER TABLE tenant ADD COLUMN retention_seconds double precision NOT NULL DEFAULT 2592000;
                """),
        // Server mode: what recipients did with their notifications, and each app's strings tables, by
        // which a fire's deferred localization resolves in the recipient's language. An event says what it
        // is (`delivered`, `responded`), as a stream names it.
        PostgresMigration(
            version: 4, name: "responses, apps' strings tables, event kinds",
            sql: """
                CREATE TABLE response (
                    sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tenant text COLLATE "C" NOT NULL REFERENCES tenant ON DELETE CASCADE,
                    recipient text COLLATE "C" NOT NULL,
                    app_id text COLLATE "C" NOT NULL,
                    notification_id text COLLATE "C" NOT NULL,
                    date double precision NOT NULL,
                    record bytea NOT NULL
                );
                CREATE INDEX response_by_recipient ON response (tenant, recipient, sequence);
                CREATE INDEX response_by_date ON response (tenant, date);

                -- A version from one sequence on every write: a node's parsed tables are current while the
                -- app's (count, highest version) is unchanged.
                CREATE SEQUENCE strings_version;
                CREATE TABLE app_strings (
                    tenant text COLLATE "C" NOT NULL REFERENCES tenant ON DELETE CASCADE,
                    app_id text COLLATE "C" NOT NULL,
                    language text COLLATE "C" NOT NULL,
                    version bigint NOT NULL DEFAULT nextval('strings_version'),
                    body bytea NOT NULL,
                    PRIMARY KEY (tenant, app_id, language)
                );

                ALTER TABLE event ADD COLUMN kind text NOT NULL DEFAULT 'delivered';
                """),
        // Server mode: recipients' devices and subscriptions (APNs, Web Push, webhooks). An APNs token or a
        // push subscription reaches one person, so one recipient of a tenant holds it at a time; many
        // recipients may share a webhook.
        PostgresMigration(
            version: 5, name: "recipients' devices",
            sql: """
                CREATE TABLE device (
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    device_id text COLLATE "C" NOT NULL,
                    channel text COLLATE "C" NOT NULL,
                    -- The webhook's URL, the APNs token or the push service's endpoint.
                    address text COLLATE "C" NOT NULL,
                    topic text,
                    environment text,
                    p256dh text,
                    auth text,
                    enabled boolean NOT NULL,
                    disabled_reason text,
                    disabled double precision,
                    created double precision NOT NULL,
                    updated double precision NOT NULL,
                    PRIMARY KEY (tenant, recipient, device_id),
                    FOREIGN KEY (tenant, recipient) REFERENCES recipient (tenant, recipient_id) ON DELETE CASCADE
                );
                CREATE UNIQUE INDEX device_by_address ON device (tenant, channel, address) WHERE channel <> 'webhook';
                """),
        // Server mode: deliveries beyond the machine. Each delivered notification becomes one delivery per
        // enabled device of its recipient, in the fire's own transaction; a node sends it, and the row is
        // its ledger (state, attempts, the last answer). Webhook devices sign with their secret (and, for a
        // day after a rotation, the previous one); a tenant's allow list opens networks that are not public.
        PostgresMigration(
            version: 6, name: "deliveries",
            sql: """
                ALTER TABLE device ADD COLUMN secret text;
                ALTER TABLE device ADD COLUMN previous_secret text;
                ALTER TABLE device ADD COLUMN previous_secret_until double precision;
                ALTER TABLE tenant ADD COLUMN outbound_allow text NOT NULL DEFAULT '';

                CREATE TABLE delivery (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    tenant text COLLATE "C" NOT NULL,
                    recipient text COLLATE "C" NOT NULL,
                    device_id text COLLATE "C" NOT NULL,
                    channel text COLLATE "C" NOT NULL,
                    app_id text COLLATE "C" NOT NULL,
                    notification_id text COLLATE "C" NOT NULL,
                    body bytea NOT NULL,
                    -- queued, sending, retrying (waiting for next_attempt), accepted, dead
                    state text COLLATE "C" NOT NULL,
                    attempts bigint NOT NULL DEFAULT 0,
                    next_attempt double precision,
                    lease_until double precision,
                    last_status bigint,
                    last_error text,
                    created double precision NOT NULL,
                    updated double precision NOT NULL
                );
                CREATE INDEX delivery_due ON delivery (next_attempt) WHERE state IN ('queued', 'retrying');
                CREATE INDEX delivery_leased ON delivery (lease_until) WHERE state = 'sending';
                CREATE INDEX delivery_by_recipient ON delivery (tenant, recipient, id);
                """),
        // Server mode: APNs and Web Push. A tenant's APNs provider key (team, key identifier, the .p8 key),
        // with which nodes sign provider tokens for its devices; its VAPID key pair (made by Chime the first
        // time it is asked for) and contact, with which nodes sign for its browsers' push services; a
        // delivery's channel headers (APNs' push type, priority, expiration and collapse identifier), fixed
        // when it is queued; and the webhook (URL, signing secret) the tenant's ledger is POSTed to.
        PostgresMigration(
            version: 7, name: "APNs, Web Push and the ledger's webhook",
            sql: """
                ALTER TABLE tenant ADD COLUMN apns_team text;
                ALTER TABLE tenant ADD COLUMN apns_key_id text;
                ALTER TABLE tenant ADD COLUMN apns_key text;
                ALTER TABLE tenant ADD COLUMN vapid_key text;
                ALTER TABLE tenant ADD COLUMN vapid_subject text;
                ALTER TABLE tenant ADD COLUMN ledger_url text;
                ALTER TABLE tenant ADD COLUMN ledger_secret text;
                CREATE INDEX tenant_by_apns_key ON tenant (apns_team, apns_key_id) WHERE apns_key IS NOT NULL;
                ALTER TABLE delivery ADD COLUMN headers text NOT NULL DEFAULT '';
                """),
        // Server mode: what became of a delivery at the recipient, where the channel reports it (the
        // tenant's backend for its app or service worker; a response for the notification): delivered,
        // seen, then acted or dismissed. Beside the sending state, which it never changes.
        PostgresMigration(
            version: 8, name: "What recipients did with deliveries",
            sql: """
                ALTER TABLE delivery ADD COLUMN outcome text COLLATE "C";
                ALTER TABLE delivery ADD COLUMN outcome_at double precision;
                CREATE INDEX delivery_by_notification ON delivery (tenant, recipient, app_id, notification_id) WHERE channel <> 'ledger';
                """),
    ]
}
