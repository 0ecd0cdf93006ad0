/// The SQLite schema of `SQLiteNotificationStore`, as migrations (the schema version is SQLite's
/// `user_version`).
///
/// Values are stored as records (`StoreRecord`), beside the columns queries need: the keys, the next fire date
/// (indexed, so the scheduler pages by it), the thread (with a count per thread beside), an ordering
/// sequence.
/// Dates are `Date.timeIntervalSinceReferenceDate` as `REAL`, which round-trips a `Date` exactly, so a
/// fire date compares equal to itself.
enum NotificationSchema {
    static let migrations = [
        SQLiteMigration(
            version: 1, name: "apps, pending requests, delivered notifications, missed fires",
            sql: """
                CREATE TABLE app (
                    app_id TEXT PRIMARY KEY NOT NULL,
                    record BLOB NOT NULL
                ) WITHOUT ROWID;

                CREATE TABLE pending (
                    app_id TEXT NOT NULL,
                    request_id TEXT NOT NULL,
                    added REAL NOT NULL,
                    next_fire REAL,
                    floating_calendar INTEGER NOT NULL,
                    request BLOB NOT NULL,
                    PRIMARY KEY (app_id, request_id)
                ) WITHOUT ROWID;
                CREATE INDEX pending_by_next_fire ON pending (next_fire, app_id, request_id) WHERE next_fire IS NOT NULL;
                CREATE INDEX pending_floating_calendar ON pending (app_id, request_id) WHERE floating_calendar = 1;

                CREATE TABLE delivered (
                    app_id TEXT NOT NULL,
                    notification_id TEXT NOT NULL,
                    thread_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    notification BLOB NOT NULL,
                    PRIMARY KEY (app_id, notification_id)
                ) WITHOUT ROWID;
                CREATE INDEX delivered_by_thread ON delivered (app_id, thread_id);
                CREATE INDEX delivered_by_sequence ON delivered (app_id, sequence);

                CREATE TABLE missed (
                    sequence INTEGER PRIMARY KEY,
                    app_id TEXT NOT NULL,
                    record BLOB NOT NULL
                );
                CREATE INDEX missed_by_app ON missed (app_id, sequence);
                """),
        // Counting a thread's delivered notifications walked the thread's index entries, once per batch
        // of fires and thread: thousands of entries for a busy thread. The store keeps a count per thread
        // instead, changed by the same statements that deliver and remove. (Triggers would keep it too,
        // but a statement with triggers inside the write's savepoint journals every page it touches,
        // which tripled the cost of recording a fire.)
        SQLiteMigration(
            version: 2, name: "delivered counts per thread",
            sql: """
                CREATE TABLE delivered_thread (
                    app_id TEXT NOT NULL,
                    thread_id TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (app_id, thread_id)
                ) WITHOUT ROWID;
                INSERT INTO delivered_thread (app_id, thread_id, count)
                    SELECT app_id, thread_id, count(*) FROM delivered GROUP BY app_id, thread_id;
                """),
        // Listing pending requests page by page, in the order by next fire date with undated requests
        // last, must read each page from an index. One app's dated requests come in order from
        // (app_id, next_fire, request_id); every app's undated requests, which no index on next_fire
        // can give in (app_id, request_id) order, from a partial index that holds only them (so it costs
        // nothing for the dated requests the scheduler writes all the time).
        SQLiteMigration(
            version: 3, name: "pending list pages",
            sql: """
                CREATE INDEX pending_by_app_next_fire ON pending (app_id, next_fire, request_id);
                CREATE INDEX pending_undated ON pending (app_id, request_id) WHERE next_fire IS NULL;
                """),
        // A record that no longer decodes (damaged on disk, or written by a broken version) is moved here,
        // bytes untouched, so that it stops breaking the lists and the fires of everything else.
        SQLiteMigration(
            version: 4, name: "quarantine",
            sql: """
                CREATE TABLE quarantine (
                    id INTEGER PRIMARY KEY,
                    source TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    record_id TEXT NOT NULL,
                    record BLOB,
                    reason TEXT NOT NULL,
                    quarantined REAL NOT NULL
                );
                """),
        // Records are written in the compact form from here on (StoreRecordFormat), which programs before
        // this version cannot read: the version keeps them from opening the store and setting every new
        // record aside as damaged. Records already written stay in the wide form, which is still read,
        // until they are written again.
        SQLiteMigration(version: 5, name: "compact records") { _ throws(SQLiteError) in },
        // Two things a pending row held twice go, for a smaller store (BENCHMARKS.md, "store size per
        // reminder"):
        // - The request's identifier, which is the row's `request_id`: records are written without it
        //   from here on (`StoreCoding.encodePending`), which programs before this version would set
        //   aside as damaged, so the version keeps them from opening the store. Records already written
        //   keep their identifier, which is still read.
        // - The index of requests whose calendar floats with the user's zone, 45 bytes a reminder. It
        //   served one read when the zone changes, which reads every such request anyway: where they are
        //   most of the store (reminders), reading the table in order costs no more than the index and the
        //   lookups; where they are few, the table is read whole once, on an event that comes when the
        //   user travels.
        SQLiteMigration(
            version: 6, name: "pending records without their identifier; no floating calendar index",
            sql: "DROP INDEX pending_floating_calendar;"),
    ]
}
