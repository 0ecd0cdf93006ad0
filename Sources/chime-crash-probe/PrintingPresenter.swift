import ChimeEngine
import Foundation

/// Prints one line per notification shown, written straight to the file descriptor so that a parent
/// process sees every line the moment the engine has presented it.
struct PrintingPresenter: NotificationPresenter {
    func present(_ presentation: Presentation) async {
        ProbeOutput.line("shown \(presentation.notificationIdentifier)")
    }

    func withdraw(appIdentifier: String, identifiers: [String]) async {}

    func updateBadge(appIdentifier: String, count: Int) async {}
}

enum ProbeOutput {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
