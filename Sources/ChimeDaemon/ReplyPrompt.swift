import ChimeCore
import ChimeDesktop
import Foundation

/// A typed reply where the notification server cannot take one: dunst, mako and GNOME Shell have no
/// inline reply, so pressing "Decline with reason" there gives the user nowhere to type.
///
/// chimed then opens the desktop's own entry dialog — zenity (GNOME and most desktops) or kdialog (KDE),
/// the first found on `PATH` — and sends what the user typed as the response; cancelling it sends
/// nothing. Without either, a notice on screen says how to send the reply with `chime respond`.
struct ReplyPrompt: Sendable {
    /// `PATH`, where the dialogs are looked for.
    let searchPath: String
    let log: DaemonLog
    /// Sends the typed text as the response to the request's notification.
    let send: @Sendable (ReplyRequest, String) async -> Void
    /// Shows a notice from Chime on screen (summary, body).
    let notice: @Sendable (String, String) -> Void

    /// The longest reply read from a dialog, and how long the dialog may stay open.
    static let maximumReply = 64 << 10
    static let dialogTimeout: Duration = .seconds(600)

    func handle(_ request: ReplyRequest) {
        let name = "\(request.appIdentifier)/\(request.notificationIdentifier)"
        guard let (executable, arguments) = dialog(for: request) else {
            let command = "chime respond --app '\(request.appIdentifier)' --id '\(request.notificationIdentifier)' --action '\(request.actionIdentifier)' --text '…'"
            log.warning("\(name): “\(request.actionTitle)” takes a typed reply, which this notification server cannot collect and no dialog (zenity, kdialog) is installed to; send it with: \(command)")
            notice(DesktopText.text("reply.notice.title", request.appIdentifier), DesktopText.text("reply.notice.body", command))
            return
        }
        log.info("\(name): asking for the reply to “\(request.actionTitle)” with \(URL(fileURLWithPath: executable).lastPathComponent)")
        // The dialog waits for the user; a thread of its own keeps that off the cooperative pool.
        Thread.detachNewThread { [log, send] in
            guard let text = Self.run(executable, arguments, log: log) else { return }
            Task { await send(request, text) }
        }
    }

    /// The first dialog on `PATH`, with its arguments for `request`.
    func dialog(for request: ReplyRequest) -> (String, [String])? {
        let title = DesktopText.text("reply.title", request.appIdentifier)
        let prompt = request.placeholder.isEmpty ? request.actionTitle : "\(request.actionTitle) (\(request.placeholder))"
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let zenity = "\(directory)/zenity"
            if FileManager.default.isExecutableFile(atPath: zenity) { return (zenity, ["--entry", "--title", title, "--text", prompt]) }
            let kdialog = "\(directory)/kdialog"
            if FileManager.default.isExecutableFile(atPath: kdialog) { return (kdialog, ["--title", title, "--inputbox", prompt]) }
        }
        return nil
    }

    /// Runs the dialog and returns what the user typed (its standard output without the final line
    /// break), or `nil` when they cancelled (a non-zero exit), it failed, or it stayed open too long.
    static func run(_ executable: String, _ arguments: [String], log: DaemonLog) -> String? {
        guard let finished = ChildCommand.run(executable, arguments, timeout: dialogTimeout, maximumOutput: maximumReply) else {
            log.warning("the reply dialog \(executable) could not start")
            return nil
        }
        guard finished.status == 0 else { return nil }
        var text = finished.output
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
