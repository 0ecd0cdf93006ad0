// chimed: the per-user notification daemon. Wiring only; see ChimeDaemon.DaemonMain.
import ChimeDaemon
import Foundation

exit(await DaemonMain.run(Array(CommandLine.arguments.dropFirst())))
