// chimed: the per-user notification daemon. Wiring only; see ChimeDaemon.DaemonMain.
import ChimeDaemon
import Foundation

let status = await DaemonMain.run(Array(CommandLine.arguments.dropFirst()))
// Everything durable is closed by now. `exit` would run the libraries' exit handlers while threads they
// own (bus loops, the task pool) may still be winding down, and a handler racing one of them can crash
// a daemon that stopped cleanly; so the buffered output is flushed and the process ends at once.
fflush(nil)
_exit(status)
