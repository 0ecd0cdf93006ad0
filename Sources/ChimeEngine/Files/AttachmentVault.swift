import ChimeCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Moves a request's attachments into the engine's own folder before the request is accepted, as iOS
/// moves them into its data store: the app's copy may be deleted afterwards without breaking the
/// notification.
struct AttachmentVault: Sendable {
    let directory: URL

    /// The attachments at their new places, under `<directory>/<app>/<request>/`, each checked there as
    /// the file it is — not as the client described it.
    ///
    /// A symbolic link is resolved: the file it names is moved, never the link. Once in the engine's
    /// private folder (where nobody can swap it any more), each file is checked again from its content:
    /// a regular file, of a supported type by its first bytes, within its kind's size limit. Its type and
    /// size are what the check found.
    ///
    /// - Throws: `ChimeError.attachmentMoveIntoDataStoreFailed` when a file cannot be moved; the check's
    ///   error (`.attachmentInvalidURL` for a folder, FIFO or device, `.attachmentUnrecognizedType`,
    ///   `.attachmentInvalidFileSize`) for a file that is not what an attachment must be. Either way the
    ///   files moved so far are moved back, so nothing is lost.
    func moveIn(_ attachments: [NotificationAttachment], appIdentifier: String, requestIdentifier: String) throws(ChimeError) -> [NotificationAttachment] {
        guard !attachments.isEmpty else { return [] }
        let folder = directory
            .appendingPathComponent(Self.safeName(appIdentifier), isDirectory: true)
            .appendingPathComponent(Self.safeName(requestIdentifier), isDirectory: true)
        var moved: [(from: URL, to: URL)] = []
        var result: [NotificationAttachment] = []
        func moveBackAll() {
            for (from, to) in moved.reversed() {
                try? FileManager.default.moveItem(at: to, to: from)
            }
        }
        do {
            try PrivateFiles.makeFolder(folder)
        } catch {
            throw ChimeError(.attachmentMoveIntoDataStoreFailed, field: "attachments", "the notification store's attachment folder cannot be created")
        }
        for attachment in attachments {
            let destination = folder.appendingPathComponent(
                Self.safeName(attachment.identifier) + "." + attachment.type.preferredFilenameExtension)
            if attachment.url.standardizedFileURL == destination.standardizedFileURL {
                result.append(attachment)
                continue
            }
            let source = attachment.url.resolvingSymlinksInPath()
            do {
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.moveItem(at: source, to: destination)
            } catch {
                moveBackAll()
                throw ChimeError(.attachmentMoveIntoDataStoreFailed, field: "attachments", "an attachment could not be moved into the notification store")
            }
            moved.append((source, destination))
            do {
                result.append(try Self.checked(attachment, at: destination))
            } catch {
                moveBackAll()
                throw error
            }
        }
        return result
    }

    /// `attachment` as the file at `url` proves it to be: its type from its content (the client's type is
    /// kept only as a hint where the content is ambiguous), its real size.
    private static func checked(_ attachment: NotificationAttachment, at url: URL) throws(ChimeError) -> NotificationAttachment {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw ChimeError(.attachmentInvalidURL, field: "attachments", "the attachment \(attachment.identifier) is not a regular file")
        }
        var options = attachment.options
        if options.typeHint == nil { options.typeHint = attachment.type }
        return try NotificationAttachment(identifier: attachment.identifier, url: url, options: options)
    }

    /// Puts moved attachments back where they came from, when the request they were moved for could not
    /// be stored.
    func moveBack(_ moved: [NotificationAttachment], to originals: [NotificationAttachment]) {
        for (attachment, original) in zip(moved, originals) where attachment.url != original.url {
            try? FileManager.default.moveItem(at: attachment.url, to: original.url.resolvingSymlinksInPath())
        }
    }

    /// Removes the folder of a request's attachments, once nothing refers to them.
    func removeFolder(appIdentifier: String, requestIdentifier: String) {
        let folder = directory
            .appendingPathComponent(Self.safeName(appIdentifier), isDirectory: true)
            .appendingPathComponent(Self.safeName(requestIdentifier), isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
    }

    /// An identifier as a single, distinct path component: ASCII letters, digits, `-`, `_` and `.` (but not
    /// a leading one) stay, every other byte becomes `%XX`, so no two identifiers share a folder and none
    /// can climb out of it or hide.
    static func safeName(_ identifier: String) -> String {
        var name = ""
        for byte in identifier.utf8 {
            let scalar = Unicode.Scalar(byte)
            let kept = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
                || (scalar == "." && !name.isEmpty)
            if scalar.isASCII && kept {
                name.unicodeScalars.append(scalar)
            } else {
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name.isEmpty ? "%" : name
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
