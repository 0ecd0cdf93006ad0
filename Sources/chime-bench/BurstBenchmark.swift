import ChimeCore
import ChimeEngine
import ChimeSQLite
import Foundation

/// W1, a burst: how fast requests are added, three ways, against the raw SQLite floor; then how late a
/// hundred thousand requests due within ten seconds are presented, and whether any is lost or shown twice.
///
/// Every phase runs the real thing: a `NotificationEngine` over a fresh `SQLiteNotificationStore` file,
/// a `SystemClock`, and a presenter that timestamps each `present` call in memory.
///
/// 1. Add rates, each on a fresh store with the engine running and the requests due an hour later (so no
///    fire competes with the adds): (a) single adds awaited one after another, (b) single adds from many
///    tasks at once (group commit shares transactions), (c) one `add(contentsOf:)` batch. Each runs
///    `rounds` times on fresh files and the fastest round counts: the machine is shared and noisy.
/// 2. The raw floor: the rows (c) wrote, copied into a fresh file in 10,000-row transactions, fastest of
///    `rounds`. And the floor at (b)'s commit size: the same rows copied in transactions of as many rows
///    as (b)'s commits carried on average (rounded), in key order, fastest of `rounds`. Durable single
///    adds from a fixed number of tasks cannot carry more per commit than the tasks have in flight, so
///    this is the closer baseline for (b); it leaves out what (b) pays besides the rows (a savepoint and
///    an app read per add group), and its key order dirties other pages than (b)'s arrival order.
/// 3. The lateness floor: how late `SystemClock` wakes a sleeper, and how long one durable single-row
///    commit takes; a fire waits for both before it is presented. And the lateness baseline: the same
///    burst fired by the simplest durable loop on SQLite (`DurableFireLoop`).
/// 4. Lateness, in a separate run on a fresh store: the requests are added as in (b) while the engine runs,
///    with fire dates spread evenly over `[t0, t0 + window]`; `t0` is three seconds after the adds are
///    expected to end (1.5 times as long as (b) took). Lateness is the time `present` was called minus the
///    fire date the trigger asked for.
/// 5. With `contend` > 0, phases 3's loop and 4 again beside that many busy threads (`CPUContention`)
///    for their whole length: a busy neighbour, compared with the quiet figures of the same run.
struct BurstBenchmark {
    var requests = 100_000
    /// Fewer single adds: each waits for its own commit.
    var singleAddRequests = 10_000
    var tasks = 64
    /// Each add mode and the raw floor run this many times on fresh files; the fastest round counts.
    var rounds = 3
    var window: TimeInterval = 10
    /// How long after the last fire date the run waits at least for the presentations still missing.
    var grace: TimeInterval = 30
    /// Busy threads beside the engine for a second lateness run; 0 for none.
    var contend = 0

    struct AddRate: Encodable {
        let requests: Int
        let perSecond: Double
        let transactions: Int
        let ratioToRawFloor: Double
    }

    struct Lateness: Encodable {
        let requests: Int
        let addMode: String
        let windowSeconds: Double
        /// How long before the first fire date the adds had finished.
        let secondsFromAddsToFirstFire: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let maxMilliseconds: Double
        /// Added (the add returned) but never presented: nothing more was presented for 10 s after the
        /// grace period following the last fire date.
        let lost: Int
        /// Presentations beyond the first of a notification.
        let duplicated: Int
    }

    struct Targets: Encodable {
        let concurrentAddsRatioToRawFloor: TargetCheck
        let p99LatenessMilliseconds: TargetCheck
        /// With `contend`: the contended run's p99 over the quiet run's.
        let contendedP99ToQuietP99: TargetCheck?
        let lost: TargetCheck
        let duplicated: TargetCheck
    }

    struct Result: Encodable {
        let workload = "burst"
        /// Rounds of each add mode and of each raw floor; the fastest counts.
        let rounds: Int
        let rawFloor: RawFloor.Result
        /// The raw floor in transactions of (b)'s average commit size.
        let rawFloorAtConcurrentCommitSize: RawFloor.Result
        /// (b)'s rate over `rawFloorAtConcurrentCommitSize`.
        let concurrentAddsRatioToRawFloorAtConcurrentCommitSize: Double
        let singleAdds: AddRate
        let concurrentAdds: AddRate
        let concurrentTasks: Int
        let batchAdd: AddRate
        let lateness: Lateness
        /// The clock's wake-up lateness and one durable commit, beside the fires' lateness.
        let latenessFloor: LatenessFloor.Result
        /// The same burst's lateness in the simplest durable fire loop (at least once, no engine).
        let latenessBaselineLoop: DurableFireLoop.Result
        /// With `contend`: busy threads, and the lateness and the loop's lateness beside them.
        let contendingThreads: Int
        let contendedLateness: Lateness?
        let contendedBaselineLoop: DurableFireLoop.Result?
        let targets: Targets
    }

    private let progress = Progress(workload: "burst")

    func run() async throws -> Result {
        let folder = try ScratchFolder()
        defer { folder.remove() }

        let inAnHour: TimeInterval = 3600
        progress.note("(c) one batch of \(requests) requests, \(rounds) rounds", force: true)
        let batch = try await fastestAdds(name: "batch", in: folder, keepingLast: true) { center in
            let all = try (0..<requests).map { index in
                try BenchRequests.reminder(index, prefix: "batch", firingIn: inAnHour + Double(index) * window / Double(requests))
            }
            return try await ContinuousClock().measure { try await center.add(contentsOf: all) }
        }

        progress.note("(a) \(singleAddRequests) single adds, one after another, \(rounds) rounds", force: true)
        let single = try await fastestAdds(name: "single", in: folder) { center in
            let all = try (0..<singleAddRequests).map { index in
                try BenchRequests.reminder(index, prefix: "single", firingIn: inAnHour + Double(index) * window / Double(singleAddRequests))
            }
            return try await ContinuousClock().measure {
                for (index, request) in all.enumerated() {
                    try await center.add(request)
                    if index % 1000 == 0 { progress.note("(a) \(index) added") }
                }
            }
        }

        progress.note("(b) \(requests) single adds from \(tasks) tasks, \(rounds) rounds", force: true)
        let concurrent = try await fastestAdds(name: "concurrent", in: folder) { [requests, tasks, window] center in
            let all = try (0..<requests).map { index in
                try BenchRequests.reminder(index, prefix: "concurrent", firingIn: inAnHour + Double(index) * window / Double(requests))
            }
            return try await ContinuousClock().measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for task in 0..<tasks {
                        group.addTask {
                            for index in stride(from: task, to: requests, by: tasks) { try await center.add(all[index]) }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }

        progress.note("raw floor: copying the rows of (c) in 10,000-row transactions, \(rounds) rounds", force: true)
        let floor = try await fastestRawFloor(RawFloor(), copying: folder.path("batch.sqlite"), in: folder)
        let concurrentCommitSize = max(1, Int((Double(requests) / Double(max(concurrent.transactions, 1))).rounded()))
        progress.note("raw floor: the same rows in \(concurrentCommitSize)-row transactions, (b)'s commit size, \(rounds) rounds", force: true)
        let smallCommitFloor = try await fastestRawFloor(RawFloor(rowsPerTransaction: concurrentCommitSize), copying: folder.path("batch.sqlite"), in: folder)
        folder.removeDatabase("batch.sqlite")

        progress.note("lateness floor: clock wake-ups and single durable commits", force: true)
        let latenessFloor = try await LatenessFloor().measure(path: folder.path("commits.sqlite"))
        folder.removeDatabase("commits.sqlite")

        progress.note("lateness baseline: \(requests) due over \(Int(window)) s fired by the simplest durable loop", force: true)
        let baselineLoop = try await DurableFireLoop(requests: requests, window: window).measure(path: folder.path("loop.sqlite"))
        folder.removeDatabase("loop.sqlite")

        let lateness = try await measureLateness(path: folder.path("lateness.sqlite"), expectedAddTime: concurrent.time)
        folder.removeDatabase("lateness.sqlite")

        var contendedLateness: Lateness?
        var contendedLoop: DurableFireLoop.Result?
        if contend > 0 {
            progress.note("contended: \(contend) busy threads beside the loop and the engine", force: true)
            let contention = CPUContention(threads: contend)
            defer { contention.stop() }
            contendedLoop = try await DurableFireLoop(requests: requests, window: window).measure(path: folder.path("loop-contended.sqlite"))
            folder.removeDatabase("loop-contended.sqlite")
            contendedLateness = try await measureLateness(path: folder.path("lateness-contended.sqlite"), expectedAddTime: concurrent.time)
            folder.removeDatabase("lateness-contended.sqlite")
        }

        func rate(_ measured: (time: Duration, transactions: Int), _ count: Int) -> AddRate {
            let perSecond = Double(count) / measured.time.seconds
            return AddRate(
                requests: count, perSecond: perSecond.rounded(), transactions: measured.transactions,
                ratioToRawFloor: (perSecond / floor.rowsPerSecond).rounded(places: 3))
        }
        let concurrentRate = rate(concurrent, requests)
        return Result(
            rounds: rounds, rawFloor: floor, rawFloorAtConcurrentCommitSize: smallCommitFloor,
            concurrentAddsRatioToRawFloorAtConcurrentCommitSize: (Double(requests) / concurrent.time.seconds / smallCommitFloor.rowsPerSecond).rounded(places: 3),
            singleAdds: rate(single, singleAddRequests), concurrentAdds: concurrentRate, concurrentTasks: tasks,
            batchAdd: rate(batch, requests), lateness: lateness, latenessFloor: latenessFloor, latenessBaselineLoop: baselineLoop,
            contendingThreads: contend, contendedLateness: contendedLateness, contendedBaselineLoop: contendedLoop,
            targets: Targets(
                concurrentAddsRatioToRawFloor: .atLeast(0.5, concurrentRate.ratioToRawFloor),
                p99LatenessMilliseconds: .atMost(2, lateness.p99Milliseconds),
                contendedP99ToQuietP99: contendedLateness.map { .atMost(3, ($0.p99Milliseconds / lateness.p99Milliseconds).rounded(places: 2)) },
                lost: .atMost(0, Double(lateness.lost)), duplicated: .atMost(0, Double(lateness.duplicated))))
    }

    /// Runs `floor` `rounds` times, each into a fresh file, and returns the fastest round.
    private func fastestRawFloor(_ floor: RawFloor, copying source: String, in folder: ScratchFolder) async throws -> RawFloor.Result {
        var fastest: RawFloor.Result?
        for round in 0..<rounds {
            let result = try await floor.measure(copyingPendingRowsOf: source, into: folder.path("floor-\(round).sqlite"), progress: progress)
            folder.removeDatabase("floor-\(round).sqlite")
            if result.rowsPerSecond > fastest?.rowsPerSecond ?? 0 { fastest = result }
        }
        guard let fastest else { throw BenchmarkFailure("no raw floor round ran") }
        return fastest
    }

    /// Runs `measureAdds` `rounds` times, each on a fresh store file, and returns the fastest round. With
    /// `keepingLast`, the last round's file stays as `<name>.sqlite`; the others are removed.
    private func fastestAdds(
        name: String, in folder: ScratchFolder, keepingLast: Bool = false, _ work: (AppNotificationCenter) async throws -> Duration
    ) async throws -> (time: Duration, transactions: Int) {
        var fastest: (time: Duration, transactions: Int)?
        for round in 0..<rounds {
            let file = keepingLast && round == rounds - 1 ? "\(name).sqlite" : "\(name)-\(round).sqlite"
            let measured = try await measureAdds(path: folder.path(file), work)
            if !(keepingLast && round == rounds - 1) { folder.removeDatabase(file) }
            if measured.time < fastest?.time ?? .seconds(1_000_000) { fastest = measured }
        }
        guard let fastest else { throw BenchmarkFailure("no round ran") }
        return fastest
    }

    /// Opens a fresh store at `path`, starts an engine on it, lets `work` add (and time) its requests, and
    /// returns that time with the number of transactions committed meanwhile.
    private func measureAdds(
        path: String, _ work: (AppNotificationCenter) async throws -> Duration
    ) async throws -> (time: Duration, transactions: Int) {
        let store = try await SQLiteNotificationStore(path: path)
        let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: TimestampingPresenter(), log: SilentLog())
        let center = engine.center(for: BenchRequests.appIdentifier)
        _ = try await center.requestAuthorization(options: [.alert, .sound])
        await engine.start()
        let before = store.committedTransactionCount
        let time = try await work(center)
        let transactions = store.committedTransactionCount - before
        await engine.stop()
        await store.close()
        return (time, transactions)
    }

    private func measureLateness(path: String, expectedAddTime: Duration) async throws -> Lateness {
        let store = try await SQLiteNotificationStore(path: path)
        let presenter = TimestampingPresenter(expecting: requests)
        // As the daemon runs it: fires recorded ahead, journaled beside the store.
        var configuration = EngineConfiguration()
        configuration.presentationJournal = URL(fileURLWithPath: path + "-presented")
        let engine = NotificationEngine(store: store, clock: SystemClock(), presenter: presenter, log: SilentLog(), configuration: configuration)
        let center = engine.center(for: BenchRequests.appIdentifier)
        _ = try await center.requestAuthorization(options: [.alert, .sound])
        await engine.start()

        let t0 = Date().addingTimeInterval(expectedAddTime.seconds * 1.5 + 3)
        progress.note("lateness: \(requests) requests from \(tasks) tasks, due over \(Int(window)) s from \(t0)", force: true)
        try await withThrowingTaskGroup(of: Void.self) { [requests, tasks, window] group in
            for task in 0..<tasks {
                group.addTask {
                    for index in stride(from: task, to: requests, by: tasks) {
                        let fireDate = t0.addingTimeInterval(Double(index) * window / Double(requests))
                        try await center.add(BenchRequests.reminder(index, prefix: "burst", firingIn: fireDate.timeIntervalSinceNow))
                    }
                }
            }
            try await group.waitForAll()
        }
        let addsEnded = Date()
        progress.note("lateness: adds done \((t0.timeIntervalSince(addsEnded)).rounded(places: 1)) s before the first fire date", force: true)

        // Waits for every presentation. A late one still counts; a request counts as lost only when the
        // grace period after the last fire date is over and nothing has been presented for 10 s.
        let lastFireDate = t0.addingTimeInterval(window)
        var presented = 0
        var lastProgress = Date()
        while presented < requests {
            try await Task.sleep(for: .milliseconds(50))
            let count = presenter.count
            if count > presented {
                presented = count
                lastProgress = Date()
            }
            progress.note("lateness: \(presented) presented")
            let now = Date()
            if now > lastFireDate.addingTimeInterval(grace) && now.timeIntervalSince(lastProgress) > 10 { break }
        }
        // Anything presented twice would come with or just after the rest.
        try await Task.sleep(for: .milliseconds(500))
        await engine.stop()
        await store.close()

        let shown = presenter.all
        let lateness = shown.compactMap { entry in entry.scheduledDate.map { entry.presentedAt.timeIntervalSince($0) * 1000 } }.sorted()
        guard !lateness.isEmpty else { throw BenchmarkFailure("lateness: nothing was presented") }
        let unique = Set(shown.map(\.identifier))
        return Lateness(
            requests: requests, addMode: "single adds from \(tasks) tasks, engine running",
            windowSeconds: window, secondsFromAddsToFirstFire: t0.timeIntervalSince(addsEnded).rounded(places: 2),
            p50Milliseconds: Statistics.percentile(0.5, of: lateness).rounded(places: 2),
            p99Milliseconds: Statistics.percentile(0.99, of: lateness).rounded(places: 2),
            maxMilliseconds: lateness[lateness.count - 1].rounded(places: 2),
            lost: requests - unique.count, duplicated: shown.count - unique.count)
    }
}
