import Foundation

// The first reading, for the scale workload's child: how long the process took to reach `main`.
let mainStarted = Date()

// chime-bench: Chime's benchmarks. Each workload prints one JSON line with its figures and the baseline
// measured in the same run. Figures are only comparable as ratios within one run.

let usage = """
    USAGE: chime-bench <workload> [options]

    Workloads:
      triggers       CalendarTrigger.nextTriggerDate against Foundation's Calendar.nextDate, same cases
      sqlite-writes  concurrent writes with group commit against the same writes one after another
      burst          adds (single, concurrent, batch) against the raw SQLite floor; lateness, losses and
                     duplicates of 100,000 requests due within 10 s
      scale          1,000,000 pending requests: add rate against the raw SQLite floor, memory, store size,
                     and a new process's time from start to its first fire
      api-roundtrip  durable adds one at a time over chimed's HTTP API on the Unix socket, beside the
                     old newline-JSON protocol of an older chimed (--baseline-chimed PATH)
      api-wrk        GET /v1/status on loopback with wrk, beside nginx serving a small static file
      api-fanout     one event to 10,000 SSE subscribers: delivery latency, chimed's memory
      api-load       50 clients × 1,000 adds, one per request: adds/s, latency, memory and descriptors
      web-fanout     100 web-center pages (SSE with the session cookie on loopback), 1,000 notifications
                     due over 10 s: fire to page beside fire to presenter; chimed's memory with 1,000 pages
      server-burst   100,000 notifications for 1,000 recipients due over 20 s, fired by --nodes server-mode
                     nodes on --database, beside a bare claim-and-delete loop on PostgreSQL (lateness);
                     PostgreSQL's CPU per 1,000 fires beside the nodes', and sessions waiting on locks
      server-adds    100,000 notifications for 1,000 recipients POSTed to a server-mode node's
                     /v1/notifications in batches of 10,000 over loopback HTTP, beside PostgreSQL's COPY and
                     INSERT floors for the same rows, with where the time goes (needs --database)
      server-scale   --pending N (default 10,000,000) dated requests over 100,000 recipients, then a
                     chimed --server started on them: time to its first status, its memory, a pending page;
                     beside the same with nothing pending (needs --database and an empty pending table)
      records        one request's store record written and read directly, beside the same through its
                     encode(to:) and init(from:), and a delivered notification's record written both ways
                     (nanoseconds per record; --requests per round, default 200000)
      store-size     --requests N (default 100,000) typical reminders (title, body, daily calendar trigger) in a
                     fresh SQLite store: the file's bytes per reminder, split between the table and its indexes
      webhooks       --requests N (default 2,000) signed webhooks to a receiver on loopback that answers at once,
                     --clients at once (default 32), beside raw libcurl's keep-alive floor
      apns           --requests N (default 5,000) APNs requests over one HTTP/2 connection to a stand-in on
                     loopback, --clients in flight (default 100), beside h2load (nghttp2-client) driving the same
                     stand-in with as many streams
      postgres-adds  100,000 adds to the PostgreSQL store in batches of 10,000, beside PostgreSQL's floor for
                     the same rows (needs --database; script/postgres start gives a throwaway one)

    Options:
      --cases N     cases (triggers) or writes (sqlite-writes) per round (default 100000 and 2000)
      --rounds N    timed rounds; the fastest counts (default 3, api-roundtrip 5; burst: add rates and raw floor)
      --requests N  requests (burst: 100000, scale: 1000000, store-size: 100000, web-fanout: 1000)
      --single N    burst: single adds awaited one after another (default 10000)
      --tasks N     burst: tasks adding at once (default 64)
      --contend N   burst: N busy threads beside the engine for a second lateness run (and the loop's)
      --clients N   api-load: clients adding at once (default 50); api-fanout: subscribers (10000);
                    web-fanout: pages (100)
      --chimed PATH         the chimed to measure (default: beside chime-bench; server-scale too)
      --baseline-chimed PATH  api-roundtrip: an older chimed speaking the line protocol
      --database CONNINFO     postgres-adds, server-*: the PostgreSQL database (a libpq connection string)
      --pending N             server-scale: requests pending when the node starts (default 10000000)
      --nodes N --seconds S   server-burst: nodes firing (default 1), seconds the burst spans (default 20)
      -h, --help    show this help
    """

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "scale-child" {
    // Spawned by the scale workload: scale-child <store path> <spawn time, seconds since 1970>.
    guard arguments.count == 3, let spawned = Double(arguments[2]) else {
        FileHandle.standardError.write(Data("chime-bench: scale-child <store path> <spawn time>\n".utf8))
        exit(64)
    }
    let report = try await ScaleChild.run(
        storePath: arguments[1], spawned: Date(timeIntervalSince1970: spawned), mainStarted: mainStarted)
    print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    exit(0)
}
if arguments.first == "webhooks-receiver" {
    // Spawned by the webhooks workload: webhooks-receiver <milliseconds before each answer>.
    guard arguments.count == 2, let delay = Int(arguments[1]) else { exit(64) }
    try await WebhooksBenchmark.serveReceiver(delayMilliseconds: delay)
}
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(arguments.isEmpty ? 64 : 0)
}
let workload = arguments.removeFirst()
var options: [String: Int] = [:]
var paths: [String: String] = [:]
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    if ["--chimed", "--baseline-chimed", "--database"].contains(option), let value = arguments.first {
        arguments.removeFirst()
        paths[option] = value
        continue
    }
    guard ["--cases", "--rounds", "--requests", "--single", "--tasks", "--clients", "--nodes", "--seconds", "--pending", "--contend"].contains(option),
          let value = arguments.first.flatMap(Int.init), value > 0
    else {
        FileHandle.standardError.write(Data("chime-bench: unexpected argument '\(option)'\n\n\(usage)\n".utf8))
        exit(64)
    }
    arguments.removeFirst()
    options[option] = value
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
/// The chimed built beside this benchmark.
let siblingChimed = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("chimed").path
switch workload {
case "triggers":
    var benchmark = CalendarTriggerBenchmark()
    if let cases = options["--cases"] { benchmark.casesPerRound = cases }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try benchmark.run()), as: UTF8.self))
case "records":
    var benchmark = RecordCodingBenchmark()
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try benchmark.run()), as: UTF8.self))
case "store-size":
    var benchmark = StoreSizeBenchmark()
    if let requests = options["--requests"] { benchmark.requests = requests }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "sqlite-writes":
    var benchmark = SQLiteWriteBenchmark()
    if let cases = options["--cases"] { benchmark.writesPerRound = cases }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "burst":
    var benchmark = BurstBenchmark()
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let single = options["--single"] { benchmark.singleAddRequests = single }
    if let tasks = options["--tasks"] { benchmark.tasks = tasks }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    if let contend = options["--contend"] { benchmark.contend = contend }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "scale":
    var benchmark = ScaleBenchmark()
    if let requests = options["--requests"] { benchmark.requests = requests }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "api-roundtrip":
    var benchmark = APIRoundTripBenchmark(chimed: paths["--chimed"] ?? siblingChimed, baselineChimed: paths["--baseline-chimed"])
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "api-load":
    var benchmark = APILoadBenchmark(chimed: paths["--chimed"] ?? siblingChimed, baselineChimed: paths["--baseline-chimed"])
    if let clients = options["--clients"] { benchmark.clients = clients }
    if let requests = options["--requests"] { benchmark.requestsPerClient = requests }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "api-wrk":
    var benchmark = APIWrkBenchmark(chimed: paths["--chimed"] ?? siblingChimed)
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try benchmark.run()), as: UTF8.self))
case "web-fanout":
    var benchmark = WebFanoutBenchmark(chimed: paths["--chimed"] ?? siblingChimed)
    if let clients = options["--clients"] { benchmark.pages = clients }
    if let requests = options["--requests"] { benchmark.notifications = requests }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "api-fanout":
    var benchmark = APIFanoutBenchmark(chimed: paths["--chimed"] ?? siblingChimed)
    if let clients = options["--clients"] { benchmark.subscribers = clients }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "postgres-adds":
    guard let conninfo = paths["--database"] else {
        FileHandle.standardError.write(Data("chime-bench: postgres-adds needs --database CONNINFO (script/postgres start prints one)\n".utf8))
        exit(64)
    }
    var benchmark = PostgresAddsBenchmark(conninfo: conninfo)
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "server-burst":
    guard let conninfo = paths["--database"] else {
        FileHandle.standardError.write(Data("chime-bench: server-burst needs --database CONNINFO (script/postgres start prints one)\n".utf8))
        exit(64)
    }
    var benchmark = ServerBurstBenchmark(conninfo: conninfo)
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let nodes = options["--nodes"] { benchmark.nodes = nodes }
    if let seconds = options["--seconds"] { benchmark.seconds = Double(seconds) }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "server-adds":
    guard let conninfo = paths["--database"] else {
        FileHandle.standardError.write(Data("chime-bench: server-adds needs --database CONNINFO (script/postgres start prints one)\n".utf8))
        exit(64)
    }
    var benchmark = ServerAddsBenchmark(conninfo: conninfo)
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "webhooks":
    var benchmark = WebhooksBenchmark()
    if let requests = options["--requests"] { benchmark.deliveries = requests }
    if let clients = options["--clients"] { benchmark.concurrency = clients }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "apns":
    var benchmark = APNsBenchmark()
    if let requests = options["--requests"] { benchmark.requests = requests }
    if let clients = options["--clients"] { benchmark.concurrency = clients }
    if let rounds = options["--rounds"] { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
case "server-scale":
    guard let conninfo = paths["--database"] else {
        FileHandle.standardError.write(Data("chime-bench: server-scale needs --database CONNINFO (script/postgres start prints one)\n".utf8))
        exit(64)
    }
    var benchmark = ServerScaleBenchmark(conninfo: conninfo, chimed: paths["--chimed"] ?? siblingChimed)
    if let pending = options["--pending"] { benchmark.pending = pending }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
default:
    FileHandle.standardError.write(Data("chime-bench: unknown workload '\(workload)'\n\n\(usage)\n".utf8))
    exit(64)
}
