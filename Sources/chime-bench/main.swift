import Foundation

// chime-bench: Chime's benchmarks. Each workload prints one JSON line with its figures and the baseline
// measured in the same run. Figures are only comparable as ratios within one run.

let usage = """
    USAGE: chime-bench <workload> [--cases N] [--rounds N]

    Workloads:
      triggers       CalendarTrigger.nextTriggerDate against Foundation's Calendar.nextDate, same cases
      sqlite-writes  concurrent writes with group commit against the same writes one after another

    Options:
      --cases N   cases (triggers) or writes (sqlite-writes) per round (default 100000 and 2000)
      --rounds N  timed rounds; the fastest counts (default 3)
      -h, --help  show this help
    """

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(arguments.isEmpty ? 64 : 0)
}
let workload = arguments.removeFirst()
var cases: Int?
var rounds: Int?
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard ["--cases", "--rounds"].contains(option), let value = arguments.first.flatMap(Int.init), value > 0 else {
        FileHandle.standardError.write(Data("chime-bench: unexpected argument '\(option)'\n\n\(usage)\n".utf8))
        exit(64)
    }
    arguments.removeFirst()
    if option == "--cases" { cases = value } else { rounds = value }
}

let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
switch workload {
case "triggers":
    var benchmark = CalendarTriggerBenchmark()
    if let cases { benchmark.casesPerRound = cases }
    if let rounds { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try benchmark.run()), as: UTF8.self))
case "sqlite-writes":
    var benchmark = SQLiteWriteBenchmark()
    if let cases { benchmark.writesPerRound = cases }
    if let rounds { benchmark.rounds = rounds }
    print(String(decoding: try encoder.encode(try await benchmark.run()), as: UTF8.self))
default:
    FileHandle.standardError.write(Data("chime-bench: unknown workload '\(workload)'\n\n\(usage)\n".utf8))
    exit(64)
}
