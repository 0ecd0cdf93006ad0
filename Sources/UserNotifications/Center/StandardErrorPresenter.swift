#if !canImport(Darwin)
import ChimeEngine
import Foundation

/// The embedded engine's presenter until the app configures another: one line per notification on
/// standard error, `[app] title — subtitle — body [Action | Action]`.
///
/// Only what the presentation policy says to show is written (nothing for a notification shown nowhere);
/// withdrawals and badges have no line.
struct StandardErrorPresenter: NotificationPresenter {
    func present(_ presentation: Presentation) async {
        guard !presentation.destinations.isEmpty else { return }
        let text = [presentation.title, presentation.subtitle, presentation.body].filter { !$0.isEmpty }.joined(separator: " — ")
        var line = "[\(presentation.appIdentifier)] \(text)"
        if !presentation.actions.isEmpty {
            line += " [\(presentation.actions.map(\.title).joined(separator: " | "))]"
        }
        let oneLine = line.split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data((oneLine + "\n").utf8))
    }

    func withdraw(appIdentifier: String, identifiers: [String]) async {}

    func updateBadge(appIdentifier: String, count: Int) async {}
}
#endif
