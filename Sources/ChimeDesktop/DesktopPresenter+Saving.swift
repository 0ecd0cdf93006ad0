import ChimeEngine
import Foundation
import Synchronization

extension DesktopPresenter {
    /// Takes back the notifications an earlier process showed on the notification server that is there
    /// now (by its unique bus name; a restarted server's ids mean other things), so their buttons reach
    /// the apps again. Call once at start; does nothing without `Configuration.shownFile`.
    public func restoreShownNotifications() async {
        guard let file = configuration.shownFile, let data = FileManager.default.contents(atPath: file.path) else { return }
        guard let saved = try? JSONDecoder().decode(SavedShownNotifications.self, from: data) else {
            log.warning("\(file.path) could not be read; buttons of notifications shown before the restart are ignored")
            return
        }
        guard let (_, server) = await link.current(), server.owner == saved.server else {
            log.info("the notification server changed since the last run; notifications it showed before are gone")
            return
        }
        let restored = state.withLock { $0.shown.restore(saved) }
        if restored > 0 { log.info("took back \(restored) notifications shown before the restart; their buttons still work") }
    }

    /// Saves what is shown, soon: changes that come together are written once.
    func shownChanged() {
        guard configuration.shownFile != nil else { return }
        let first = state.withLock { state in
            defer { state.shownSaveScheduled = true }
            return !state.shownSaveScheduled
        }
        guard first else { return }
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(200))
            await self?.saveShownNotifications()
        }
    }

    /// Writes what is shown now (also at shutdown, so a save still waiting is not lost).
    public func saveShownNotifications() async {
        guard let file = configuration.shownFile else { return }
        let server = await link.current()?.1.owner
        let snapshot = state.withLock { state in
            state.shownSaveScheduled = false
            return server.map { state.shown.saved(server: $0) }
        }
        do {
            guard let snapshot else {
                try? FileManager.default.removeItem(at: file)
                return
            }
            try DurableFile.replace(file, with: try JSONEncoder().encode(snapshot), mode: 0o600)
        } catch {
            log.warning("what the desktop shows could not be saved to \(file.path): \(error)")
        }
    }
}
