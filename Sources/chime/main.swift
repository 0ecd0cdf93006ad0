import ChimeCLI
import ChimeCore
import Foundation

let result = await ChimeMain.run(
    Array(CommandLine.arguments.dropFirst()), now: Date(), currentTimeZone: TimeZone.current, write: ChimeMain.writeToStandardOutput,
    style: TerminalStyle.standardOutput, languages: UserLanguages.preferred(environment: ProcessInfo.processInfo.environment))
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitCode.rawValue)
