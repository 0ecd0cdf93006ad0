public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The examples' command-line conventions: `--help` prints the usage and exits 0; a usage error is one
/// line on standard error and exit code 64; a failure exit code 1.
public struct CommandLineUsage: Sendable {
    public let name: String
    public let text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Prints the usage to standard output and exits 0 when `arguments` ask for help.
    public func handleHelp(_ arguments: [String]) {
        guard arguments.contains("--help") || arguments.contains("-h") else { return }
        FileHandle.standardOutput.write(Data(text.utf8))
        exit(0)
    }

    /// Reports a usage error and exits 64.
    public func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(name): error: \(message)\nRun '\(name) --help' for usage.\n".utf8))
        exit(64)
    }

    /// Reports a failure and exits 1.
    public func failure(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
        exit(1)
    }

    /// The value after `option` (`--in 5`), removed from `arguments`; `nil` when the option is absent.
    public func value(of option: String, in arguments: inout [String]) -> String? {
        guard let index = arguments.firstIndex(of: option) else { return nil }
        guard index + 1 < arguments.count else { fail("\(option) needs a value") }
        let value = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
        return value
    }

    /// A delay in seconds: `5`, `2.5`, `90s`, `10m`, `1h`.
    public func seconds(_ text: String, option: String) -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600]
        var number = Substring(text)
        var unit: TimeInterval = 1
        if let last = text.last, let factor = units[last] {
            number = number.dropLast()
            unit = factor
        }
        guard let value = TimeInterval(number), value.isFinite, value >= 0 else {
            fail("\(option) takes a delay such as 5, 90s or 10m, not '\(text)'")
        }
        return value * unit
    }
}
