import ChimeCore
import Foundation

/// Moves a request's attachments into the engine's own folder before the request is accepted, as iOS
/// moves them into its data store: the app's copy may be deleted afterwards without breaking the
/// notification.
struct AttachmentVault: Sendable {
    let directory: URL

    /// The attachments at their new places, under `<directory>/<app>/<request>/`.
    ///
    /// - Throws: `ChimeError.attachmentMoveIntoDataStoreFailed` when a file cannot be moved; files moved
    ///   before the failure are moved back, so nothing is lost.
    func moveIn(_ attachments: [NotificationAttachment], appIdentifier: String, requestIdentifier: String) throws(ChimeError) -> [NotificationAttachment] {
        guard !attachments.isEmpty else { return [] }
        let folder = directory
            .appendingPathComponent(Self.safeName(appIdentifier), isDirectory: true)
            .appendingPathComponent(Self.safeName(requestIdentifier), isDirectory: true)
        var moved: [(from: URL, to: URL)] = []
        var result: [NotificationAttachment] = []
        do {
            try PrivateFiles.makeFolder(folder)
            for attachment in attachments {
                let destination = folder.appendingPathComponent(
                    Self.safeName(attachment.identifier) + "." + attachment.type.preferredFilenameExtension)
                if attachment.url.standardizedFileURL == destination.standardizedFileURL {
                    result.append(attachment)
                    continue
                }
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.moveItem(at: attachment.url, to: destination)
                moved.append((attachment.url, destination))
                result.append(attachment.relocated(to: destination))
            }
        } catch {
            for (from, to) in moved.reversed() {
                try? FileManager.default.moveItem(at: to, to: from)
            }
            throw ChimeError(.attachmentMoveIntoDataStoreFailed, field: "attachments", "an attachment could not be moved into the notification store")
        }
        return result
    }

    /// Puts moved attachments back where they came from, when the request they were moved for could not
    /// be stored.
    func moveBack(_ moved: [NotificationAttachment], to originals: [NotificationAttachment]) {
        for (attachment, original) in zip(moved, originals) where attachment.url != original.url {
            try? FileManager.default.moveItem(at: attachment.url, to: original.url)
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
