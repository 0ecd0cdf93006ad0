import ChimeCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Copies of the files a user attaches, in a private temporary folder (mode 0700), for the notification
/// center to move into its store: the user's own files stay where they are.
struct AttachmentCopies {
    let folder: URL
    /// The copies, in the order of the originals, each keeping its original's name.
    let paths: [String]

    /// - Throws: the attachment's own error for a file that is not one (checked before anything is
    ///   copied: a FIFO would block the copy, a huge file would be copied for nothing).
    init(of originals: [String]) throws(ChimeError) {
        for original in originals {
            do {
                _ = try NotificationAttachment(url: URL(fileURLWithPath: original))
            } catch {
                // The engine's message says what is wrong; the user needs to know which file.
                throw ChimeError(error.code, "cannot attach \(original): \(error.message)")
            }
        }
        var template = Array((NSTemporaryDirectory() + "/chime-attach-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw ChimeError(.attachmentMoveIntoDataStoreFailed, field: "attach", "no temporary folder could be made for the attachments' copies")
        }
        folder = URL(fileURLWithPath: String(cString: created), isDirectory: true)
        var paths: [String] = []
        for (index, original) in originals.enumerated() {
            // Numbered folders: two attachments may share a file name.
            let copy = folder.appendingPathComponent("\(index)", isDirectory: true).appendingPathComponent(URL(fileURLWithPath: original).lastPathComponent)
            do {
                try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: URL(fileURLWithPath: original).resolvingSymlinksInPath(), to: copy)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw ChimeError(.attachmentInvalidURL, field: "attach", "\(original) cannot be copied: \(error.localizedDescription)")
            }
            paths.append(copy.path)
        }
        self.paths = paths
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
