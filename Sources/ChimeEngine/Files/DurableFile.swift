public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writing a file so that a crash leaves the old or the new version, whole.
public enum DurableFile {
    /// Writes `data` to a temporary file beside `file` with `mode`, fsyncs it, renames it over `file`, and
    /// fsyncs the folder.
    public static func replace(_ file: URL, with data: Data, mode: mode_t) throws {
        let folder = file.deletingLastPathComponent().path
        let temporary = folder + "/.\(file.lastPathComponent).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw posixError("cannot create \(temporary)") }
        fchmod(fd, mode)
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        guard written, fsync(fd) == 0 else {
            close(fd)
            unlink(temporary)
            throw posixError("cannot write \(temporary)")
        }
        close(fd)
        guard rename(temporary, file.path) == 0 else {
            unlink(temporary)
            throw posixError("cannot replace \(file.path)")
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    public static func posixError(_ what: String) -> any Error {
        FileError(description: "\(what): \(String(cString: strerror(errno)))", errorNumber: errno)
    }
}

/// A file that could not be written, with the reason.
public struct FileError: Error, CustomStringConvertible, Sendable, StorageError {
    public let description: String
    public var errorNumber: Int32 = 0

    public var storageProblem: StorageProblem? { StorageProblem(errorNumber: errorNumber) }
}
