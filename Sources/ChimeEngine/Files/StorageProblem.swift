#if canImport(Glibc)
import Glibc
#endif

/// What went wrong with the disk, in the terms a user can act on: the disk is full, the file system is
/// read-only, or the data folder is not this user's to write. Errors from the store and the file system
/// that know their cause say it (`StorageError`), so the API and the CLI can answer with what happened and
/// what to do instead of an internal string.
public enum StorageProblem: Sendable, Hashable {
    case full
    case readOnly
    case notPermitted

    /// What a user reads: what happened, and what to do.
    public var advice: String {
        switch self {
        case .full: "the disk that holds Chime's data is full; free some space and try again"
        case .readOnly: "Chime's data folder is on a read-only file system; remount it writable or point XDG_DATA_HOME elsewhere"
        case .notPermitted: "Chime's data folder cannot be written by this user; fix its owner or permissions, or point XDG_DATA_HOME elsewhere"
        }
    }

    /// The problem an `errno` value stands for, if it is one of these.
    public init?(errorNumber: Int32) {
        switch errorNumber {
        case ENOSPC, EDQUOT: self = .full
        case EROFS: self = .readOnly
        case EACCES, EPERM: self = .notPermitted
        default: return nil
        }
    }
}

/// An error that may know which `StorageProblem` caused it.
public protocol StorageError: Error {
    var storageProblem: StorageProblem? { get }
}

extension PrivateFiles.Failure: StorageError {
    public var storageProblem: StorageProblem? { StorageProblem(errorNumber: errorNumber) }
}
