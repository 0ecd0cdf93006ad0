public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The rules for trusting the daemon's runtime folder, the same on both sides.
///
/// The folder holds the socket and the token, which together are the keys to every app's notifications.
/// Without `XDG_RUNTIME_DIR` it is `/tmp/chime-<uid>`, a name anyone on the machine can create first: a
/// folder that another user owns, or that others can write to, could hold a socket that is not chimed's
/// (the client would hand it the token) or could let others replace chimed's files. So both the daemon
/// and its clients accept only a real folder (not a symbolic link) owned by this user, with no access
/// for group or others, and a socket and token owned by this user.
public enum RuntimeDirectory {
    /// Why a runtime folder, or a file in it, is not trusted.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path) \(reason)" }
    }

    /// The daemon's side: creates the folder with mode 0700 when it is missing; refuses one that is a
    /// symbolic link, not a folder, or owned by another user; takes group and other access away from one
    /// of this user's own that has it.
    public static func prepare(_ directory: URL) throws(Refusal) {
        let path = directory.path
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            if errno == ENOENT {
                // The parent (a private XDG_RUNTIME_DIR's) is missing: create the chain, the last one 0700.
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }
        let info = try status(path)
        try checkFolder(info, path: path, allowingLooseMode: true)
        if info.st_mode & 0o077 != 0 { chmod(path, 0o700) }
    }

    /// The client's side: the folder must exist, be this user's and private; the socket and the token, when
    /// present, must be this user's. Nothing is created or changed.
    public static func verify(_ paths: DaemonPaths) throws(Refusal) {
        let folder = paths.runtimeDirectory.path
        try checkFolder(try status(folder), path: folder, allowingLooseMode: false)
        for file in [paths.socketFile.path, paths.tokenFile.path] {
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }  // missing: the caller says "not running"
            guard info.st_uid == geteuid() else { throw Refusal(path: file, reason: "belongs to another user (uid \(info.st_uid))") }
        }
    }

    private static func status(_ path: String) throws(Refusal) -> stat {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw Refusal(path: path, reason: errno == ENOENT ? "does not exist" : "cannot be read: \(String(cString: strerror(errno)))")
        }
        return info
    }

    private static func checkFolder(_ info: stat, path: String, allowingLooseMode: Bool) throws(Refusal) {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(path: path, reason: info.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link, not a folder" : "is not a folder")
        }
        guard info.st_uid == geteuid() else { throw Refusal(path: path, reason: "belongs to another user (uid \(info.st_uid))") }
        if !allowingLooseMode && info.st_mode & 0o077 != 0 {
            throw Refusal(path: path, reason: "is open to other users (mode \(String(info.st_mode & 0o777, radix: 8)))")
        }
    }
}
