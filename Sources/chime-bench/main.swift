import Foundation

// chime-bench: Chime's benchmarks. Each workload prints one JSON line with its figures and the baseline
// measured in the same run. Figures are only comparable as ratios within one run.

let usage = """
    USAGE: chime-bench <workload> [--cases N] [--rounds N]

    Workloads:
      triggers    CalendarTrigger.nextTriggerDate against Foundation's Calendar.nextDate, same cases

    Options:
      --cases N   cases per round (default 100000)
      --rounds N  timed rounds; the fastest counts (default 3)
      -h, --help  show this help
    """

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("-h") || arguments.contains("--help") {
    print(usage)
    exit(arguments.isEmpty ? 64 : 0)
}
let workload = arguments.removeFirst()
var benchmark = CalendarTriggerBenchmark()
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard ["--cases", "--rounds"].contains(option), let value = arguments.first.flatMap(Int.init), value > 0 else {
        FileHandle.standardError.write(Data("chime-bench: unexpected argument '\(option)'\n\n\(usage)\n".utf8))
        exit(64)
    }
    arguments.removeFirst()
    if option == "--cases" { benchmark.casesPerRound = value } else { benchmark.rounds = value }
}
guard workload == "triggers" else {
    FileHandle.standardError.write(Data("chime-bench: unknown workload '\(workload)'\n\n\(usage)\n".utf8))
    exit(64)
}
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
let result = try benchmark.run()
print(String(decoding: try encoder.encode(result), as: UTF8.self))
