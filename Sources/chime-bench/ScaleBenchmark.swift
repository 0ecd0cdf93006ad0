import ChimeCore
import ChimeEngine
import ChimeSQLite
import Foundation

/// W2, scale: a million pending requests due tomorrow. How fast they are added (in batches), how much
/// memory the process holds after adding them and once the engine runs, how big the store is, and how soon
/// a new process on that store fires a request due one second after it started.
///
/// 1. Adds: `requests` reminders due over the 24 hours starting a day from now, in `add(contentsOf:)`
///    batches of `batchSize`, into a fresh `SQLiteNotificationStore` with the engine not yet started.
///    Building the requests is not timed; the adds are.
/// 2. Resident memory (`VmRSS`) after adding; then the engine starts with a `SystemClock`, a probe request
///    due 0.5 s later is added and presented (so the scheduler has loaded its window), and memory is read
///    again. Store size: the database file and its write-ahead log, while open.
/// 3. The engine stops and the store closes. A child process (`chime-bench scale-child`) opens the store,
///    starts an engine, and adds a request due one second after the child was spawned; it reports when the
///    request was presented. "Process start" is the parent's clock reading just before it spawns the child,
///    handed to the child as an argument: it includes `exec`, loading the libraries and Swift's start-up.
/// 4. The raw floor: the million rows copied into a fresh file in 10,000-row transactions.
struct ScaleBenchmark {
    var requests = 1_000_000
    var batchSize = 10_000

    struct Adds: Encodable {
        let requests: Int
        let batchSize: Int
        let perSecond: Double
        let transactions: Int
        let ratioToRawFloor: Double
    }

    struct Memory: Encodable {
        let residentMegabytesAfterAdding: Double
        let residentMegabytesAfterEngineStarted: Double
        /// The most the process held up to then (`VmHWM`), adding included; the raw floor comes later.
        let peakResidentMegabytes: Double
    }

    struct StoreSize: Encodable {
        let databaseMegabytes: Double
        let writeAheadLogMegabytes: Double
        let totalMegabytes: Double
        /// The database file alone once the store was closed (the log is checkpointed into it and removed).
        let databaseMegabytesAfterClose: Double
    }

    struct Targets: Encodable {
        let residentMegabytesWithAllPending: TargetCheck
        let startupMilliseconds: TargetCheck
    }

    struct Result: Encodable {
        let workload = "scale"
        let adds: Adds
        let memory: Memory
        let store: StoreSize
        let firstFire: ScaleChild.Report
        let rawFloor: RawFloor.Result
        let targets: Targets
    }

    private let progress = Progress(workload: "scale")

    func run() async throws -> Result {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.path("scale.sqlite")

        let store = try await SQLiteNotificationStore(path: path)
        let presenter = TimestampingPresenter()
        let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: presenter, log: SilentLog())
        let center = engine.center(for: BenchRequests.appIdentifier)
        _ = try await center.requestAuthorization(options: [.alert, .sound])

        progress.note("adding \(requests) requests due tomorrow in batches of \(batchSize)", force: true)
        let day: TimeInterval = 86_400
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        let transactionsBefore = store.committedTransactionCount
        for first in stride(from: 0, to: requests, by: batchSize) {
            let batch = try (first..<min(first + batchSize, requests)).map { index in
                try BenchRequests.reminder(index, prefix: "scale", firingIn: day + Double(index) * day / Double(requests))
            }
            let start = clock.now
            try await center.add(contentsOf: batch)
            elapsed += clock.now - start
            progress.note("added \(first + batch.count) (\(Int(Double(first + batch.count) / elapsed.seconds))/s)")
        }
        let transactions = store.committedTransactionCount - transactionsBefore
        let afterAdding = ProcessMemory.residentMegabytes
        let database = fileMegabytes(path)
        let log = fileMegabytes(path + "-wal")
        progress.note("added; resident \(afterAdding) MiB, store \(database) MiB + log \(log) MiB", force: true)

        await engine.start()
        try await center.add(BenchRequests.reminder(0, prefix: "probe", firingIn: 0.5))
        guard try await presenter.wait(forCount: 1, until: Date().addingTimeInterval(30)) else {
            throw BenchmarkFailure("the probe request was not presented within 30 s")
        }
        let afterStart = ProcessMemory.residentMegabytes
        let peak = ProcessMemory.peakResidentMegabytes
        await engine.stop()
        await store.close()
        let databaseAfterClose = fileMegabytes(path)
        progress.note("engine started; resident \(afterStart) MiB; spawning the child", force: true)

        let child = try ScaleChild.spawn(storePath: path)
        progress.note("child: first fire \(child.startToFirstFireMilliseconds) ms after spawn", force: true)

        progress.note("raw floor: copying \(requests) rows in 10,000-row transactions", force: true)
        let floor = try await RawFloor().measure(copyingPendingRowsOf: path, into: folder.path("floor.sqlite"), progress: progress)

        let perSecond = Double(requests) / elapsed.seconds
        return Result(
            adds: Adds(
                requests: requests, batchSize: batchSize, perSecond: perSecond.rounded(), transactions: transactions,
                ratioToRawFloor: (perSecond / floor.rowsPerSecond).rounded(places: 3)),
            memory: Memory(
                residentMegabytesAfterAdding: afterAdding, residentMegabytesAfterEngineStarted: afterStart,
                peakResidentMegabytes: peak),
            store: StoreSize(
                databaseMegabytes: database, writeAheadLogMegabytes: log, totalMegabytes: (database + log).rounded(places: 1),
                databaseMegabytesAfterClose: databaseAfterClose),
            firstFire: child, rawFloor: floor,
            targets: Targets(
                residentMegabytesWithAllPending: .atMost(100, max(afterAdding, afterStart)),
                startupMilliseconds: .atMost(500, child.startupMilliseconds)))
    }
}

/// The child process of the scale workload: opens an existing store, starts an engine, adds one request
/// due one second after the process was spawned, and reports when it was presented.
enum ScaleChild {
    struct Report: Codable {
        /// Spawn to the first statement of `main`: `exec`, dynamic loading, Swift's start-up.
        let mainStartMilliseconds: Double
        /// Spawn to the store being open (checks on open included).
        let storeOpenMilliseconds: Double
        /// Spawn to the engine running and the request's add having returned (durable): the start-up cost.
        let startupMilliseconds: Double
        /// When the request was due, after spawn.
        let dueMilliseconds: Double
        /// Spawn to the `present` call for the request.
        let startToFirstFireMilliseconds: Double
        /// The `present` call minus the request's fire date.
        let firstFireLatenessMilliseconds: Double
        let residentMegabytes: Double
    }

    /// Runs `chime-bench scale-child <store> <spawn time>` and returns what it reports.
    static func spawn(storePath: String) throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let output = Pipe()
        process.standardOutput = output
        let spawned = Date()
        process.arguments = ["scale-child", storePath, String(spawned.timeIntervalSince1970)]
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkFailure("scale-child exited with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Report.self, from: data)
    }

    /// The child's side; `spawned` is the parent's clock just before the spawn, `mainStarted` the first
    /// reading in `main`.
    static func run(storePath: String, spawned: Date, mainStarted: Date) async throws -> Report {
        func milliseconds(_ date: Date) -> Double { (date.timeIntervalSince(spawned) * 1000).rounded(places: 1) }
        let due = spawned.addingTimeInterval(1)

        let store = try await SQLiteNotificationStore(path: storePath)
        let opened = Date()
        let presenter = TimestampingPresenter()
        let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: presenter, log: SilentLog())
        await engine.start()
        let center = engine.center(for: BenchRequests.appIdentifier)
        try await center.add(BenchRequests.reminder(0, prefix: "first", firingIn: due.timeIntervalSinceNow))
        let ready = Date()
        guard try await presenter.wait(forCount: 1, until: Date().addingTimeInterval(60)), let shown = presenter.all.first,
              let scheduled = shown.scheduledDate
        else {
            throw BenchmarkFailure("the request was not presented within 60 s")
        }
        let resident = ProcessMemory.residentMegabytes
        await engine.stop()
        await store.close()
        return Report(
            mainStartMilliseconds: milliseconds(mainStarted), storeOpenMilliseconds: milliseconds(opened),
            startupMilliseconds: milliseconds(ready), dueMilliseconds: milliseconds(due),
            startToFirstFireMilliseconds: milliseconds(shown.presentedAt),
            firstFireLatenessMilliseconds: (shown.presentedAt.timeIntervalSince(scheduled) * 1000).rounded(places: 2),
            residentMegabytes: resident)
    }
}
