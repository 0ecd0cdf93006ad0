import Foundation

// chime-sqlite-crash-probe: a test helper that writes rows and prints each acknowledged id, until it
// has written them all or is killed. See CrashProbe.

guard let probe = CrashProbe(arguments: Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data("\(CrashProbe.usage)\n".utf8))
    exit(64)
}
do {
    try await probe.run()
} catch {
    FileHandle.standardError.write(Data("chime-sqlite-crash-probe: \(error)\n".utf8))
    exit(1)
}
