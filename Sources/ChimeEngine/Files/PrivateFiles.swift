public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Chime's folders and stores are private to their user: they hold notification text and the replies
/// people typed, which other users of the machine must not read even where a home folder is traversable.
///
/// Folders are created with mode 0700 and files with 0600 from the start (never opened wider and narrowed
/// afterwards, which would leave a moment to open them); installs made before are repaired at start.
public enum PrivateFiles {
    /// Why a folder or file could not be made.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let path: String
        public let errorNumber: Int32

        public var description: String {
            if let problem = StorageProblem(errorNumber: errorNumber) { return "cannot create \(path): \(problem.advice)" }
            switch errorNumber {
            case ENOTDIR, EEXIST: return "cannot create \(path): a file that is not a folder is in the way"
            default: return "cannot create \(path): \(String(cString: strerror(errorNumber)))"
            }
        }
    }

    /// Creates `folder` and each missing parent with mode 0700, as the XDG Base Directory specification
    /// asks of a missing data folder. Existing folders are left as they are.
    public static func makeFolder(_ folder: URL) throws(Failure) {
        let path = folder.standardizedFileURL.path
        var missing: [String] = []
        var current = path
        var info = stat()
        while current != "/" && !current.isEmpty && stat(current, &info) != 0 {
            guard errno == ENOENT else { throw Failure(path: current, errorNumber: errno) }
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        if missing.isEmpty && info.st_mode & S_IFMT != S_IFDIR {
            throw Failure(path: path, errorNumber: ENOTDIR)
        }
        for folder in missing.reversed() where mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw Failure(path: folder, errorNumber: errno)
        }
    }

    /// Creates `file` empty with mode 0600 unless something is already there; returns whether it did.
    @discardableResult
    public static func makeFile(_ file: URL) throws(Failure) -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw Failure(path: file.path, errorNumber: errno)
        }
        close(descriptor)
        return true
    }

    /// Takes group and other access away from `folder` and everything under it, when the folder itself
    /// grants any (what earlier versions created: folders 0755, files 0644). Symbolic links are not
    /// followed. Returns how many entries were changed, so the caller can say so; 0 for a private folder,
    /// which is not walked (nothing under a 0700 folder can be reached by others).
    @discardableResult
    public static func repair(_ folder: URL) -> Int {
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & 0o077 != 0 else { return 0 }
        var changed = 0
        // Inside out: the folder is narrowed last, so a walk cut short is repeated at the next start.
        if let entries = FileManager.default.enumerator(atPath: folder.path) {
            for case let relative as String in entries where narrow(folder.appendingPathComponent(relative).path) {
                changed += 1
            }
        }
        if narrow(folder.path) { changed += 1 }
        return changed
    }

    /// Narrows one folder to 0700 or one regular file to 0600 (keeping the owner's own bits).
    private static func narrow(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return false }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return chmod(path, 0o700) == 0
        case S_IFREG: return chmod(path, info.st_mode & 0o700) == 0
        default: return false
        }
    }
}
