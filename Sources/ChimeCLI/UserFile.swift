import ChimeCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file the user named on the command line (`--payload`, `categories set`), read whole, with a plain
/// reason when it cannot be: missing, not a regular file (a folder, a FIFO that would block the read
/// forever, a device), not readable by this user, or larger than any payload could be.
enum UserFile {
    static let sizeLimit = 16 << 20

    static func read(_ path: String, field: String) throws(ChimeError) -> Data {
        func refuse(_ why: String) -> ChimeError { ChimeError(.invalidPayload, field: field, "\(path) \(why)") }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw errno == ENOENT ? refuse("does not exist") : refuse("cannot be read: \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("is a folder, not a file")
        case S_IFIFO: throw refuse("is a pipe (FIFO), not a file; write its content to a file first")
        default: throw refuse("is not a regular file")
        }
        guard Int(info.st_size) <= sizeLimit else { throw refuse("is larger than \(sizeLimit >> 20) MiB") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw errno == EACCES ? refuse("cannot be read: this user has no permission to read it") : refuse("cannot be read: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw refuse("cannot be read: \(error.localizedDescription)")
        }
    }
}
