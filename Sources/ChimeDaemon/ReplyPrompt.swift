import ChimeAPI
import ChimeCore
import ChimeDesktop
import Foundation

/// A typed reply where the notification server cannot take one: dunst, mako and GNOME Shell have no
/// inline reply, so pressing "Decline with reason" there gives the user nowhere to type.
///
/// chimed then opens the web center in the user's browser (`xdg-open`) at that notification's reply box,
/// with a one-time link of its own, where the reply is typed and sent as from any door. Without the web
/// center (`--http none`) or a browser to open, the desktop's own entry dialog asks — zenity (GNOME and
/// most desktops) or kdialog (KDE), the first found on `PATH` — and what the user typed is sent as the
/// response; cancelling it sends nothing. Without either, a notice on screen says how to send the reply
/// with `chime respond`.
struct ReplyPrompt: Sendable {
    /// `PATH`, where the browser opener and the dialogs are looked for.
    let searchPath: String
    let log: DaemonLog
    /// A one-time link into the web center ending in `#fragment`, when chimed serves it.
    var webLink: @Sendable (_ fragment: String) -> String? = { _ in nil }
    /// Sends the typed text as the response to the request's notification.
    let send: @Sendable (ReplyRequest, String) async -> Void
    /// Shows a notice from Chime on screen (summary, body).
    let notice: @Sendable (String, String) -> Void

    /// The longest reply read from a dialog, and how long the dialog may stay open.
    static let maximumReply = 64 << 10
    static let dialogTimeout: Duration = .seconds(600)

    func handle(_ request: ReplyRequest) {
        let name = "\(request.appIdentifier)/\(request.notificationIdentifier)"
        if let opener = executable("xdg-open"), let link = webLink(Self.replyFragment(request)) {
            log.info("\(name): opening the web center at the reply box of “\(request.actionTitle)”")
            // xdg-open hands the link to the browser and returns; a thread of its own keeps it off the pool.
            Thread.detachNewThread { [log] in
                let finished = ChildCommand.run(opener, [link], timeout: .seconds(10), maximumOutput: 4096)
                guard finished?.status != 0 else { return }
                log.warning("\(name): xdg-open could not open the web center; asking with a dialog instead")
                self.askWithDialog(request)
            }
            return
        }
        askWithDialog(request)
    }

    /// The page's address of the reply box: `#reply/{app}/{notification}/{action}`, each part
    /// percent-encoded, so an identifier with a slash stays one part.
    static func replyFragment(_ request: ReplyRequest) -> String {
        "reply/" + [request.appIdentifier, request.notificationIdentifier, request.actionIdentifier].map(PercentEncoding.encodeSegment).joined(separator: "/")
    }

    private func askWithDialog(_ request: ReplyRequest) {
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

    /// The first executable `name` on `PATH`.
    func executable(_ name: String) -> String? {
        searchPath.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
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
