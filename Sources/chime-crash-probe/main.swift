// chime-crash-probe: a test helper, not a user tool. See CrashProbe.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("USAGE: chime-crash-probe <database path> <request count>\n".utf8))
    exit(64)
}
try await CrashProbe.run(path: arguments[1], count: count)
