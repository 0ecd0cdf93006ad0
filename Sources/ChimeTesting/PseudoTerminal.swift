public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal pair, for tests that run a terminal program as a user at a terminal would: the
/// program reads and writes `terminal` (a real TTY in its usual line mode, with echo), the test types on
/// `controller` and reads the screen from it.
///
/// ```swift
/// let pty = try PseudoTerminal()
/// let screen = TerminalScreen(reading: pty.controller.fileDescriptor, joinsCarriageReturns: true)
/// process.standardInput = pty.terminal
/// process.standardOutput = pty.terminal
/// ```
public struct PseudoTerminal: Sendable {
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String { "no pseudo-terminal could be opened (/dev/ptmx, /dev/pts)" }
    }

    /// The user's side: what is written here is typed, what is read here is shown.
    public let controller: FileHandle
    /// The program's side.
    public let terminal: FileHandle

    /// Opens a new pair, as `posix_openpt`, `unlockpt` and `ptsname` do on Linux (Swift's Glibc module
    /// does not export those): open `/dev/ptmx`, unlock the new terminal, ask its number.
    public init() throws {
        let TIOCSPTLCK: UInt = 0x4004_5431  // _IOW('T', 0x31, int): lock or unlock the terminal side
        let TIOCGPTN: UInt = 0x8004_5430  // _IOR('T', 0x30, unsigned int): the terminal side's number
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard controller >= 0 else { throw Unavailable() }
        var unlock: CInt = 0
        var number: CUnsignedInt = 0
        guard ioctl(controller, TIOCSPTLCK, &unlock) == 0, ioctl(controller, TIOCGPTN, &number) == 0 else {
            close(controller)
            throw Unavailable()
        }
        let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            close(controller)
            throw Unavailable()
        }
        self.controller = FileHandle(fileDescriptor: controller, closeOnDealloc: true)
        self.terminal = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
    }
}
