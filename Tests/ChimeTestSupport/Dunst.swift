import Foundation

import ChimeDesktop
import ChimeEngine

/// dunst, a real notification server, drawing on a virtual display and owning
/// `org.freedesktop.Notifications` on a private bus.
///
/// Its configuration makes notifications easy to find in a screenshot: top right, a big font, no
/// frame, and a background colour per urgency that nothing else on the screen has. It never expires
/// notifications, so a screenshot cannot miss one. Its context menu (`dunstctl context`) runs a fake
/// `dmenu` that picks the line containing the text in `pick.txt`: the user choosing an action.
public final class Dunst: Sendable {
    public static let normalBackground = Screenshot.Color(red: 0x00, green: 0xC0, blue: 0x00)
    public static let criticalBackground = Screenshot.Color(red: 0xE0, green: 0x00, blue: 0x00)

    private let process: ChildProcess
    private let directory: URL
    private let environment: [String: String]

    private init(process: ChildProcess, directory: URL, environment: [String: String]) {
        self.process = process
        self.directory = directory
        self.environment = environment
    }

    public static func start(on bus: PrivateBus, display: VirtualDisplay) async throws -> Dunst {
        let dunst = try Tool.path("dunst", package: "dunst")
        _ = try Tool.path("dunstctl", package: "dunst")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chime-dunst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let menu = directory.appendingPathComponent("pick.sh")
        try """
            #!/bin/sh
            # dunst's dmenu: reads the menu, answers with the line that holds the text the test chose.
            cat > '\(directory.path)/menu.txt'
            grep -m1 -F "$(cat '\(directory.path)/pick.txt')" '\(directory.path)/menu.txt'
            """.write(to: menu, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: menu.path)
        let configuration = directory.appendingPathComponent("dunstrc")
        try """
            [global]
                monitor = 0
                follow = none
                width = 420
                height = 400
                origin = top-right
                offset = 10x10
                notification_limit = 0
                font = DejaVu Sans Bold 22
                frame_width = 0
                separator_height = 0
                padding = 16
                horizontal_padding = 16
                markup = full
                format = "<b>%s</b>\\n%b"
                show_indicators = no
                icon_position = off
                progress_bar = false
                dmenu = \(menu.path)
                browser = /bin/true
                mouse_left_click = close_current
                idle_threshold = 0
            [urgency_low]
                background = "#303030"
                foreground = "#ffffff"
                timeout = 0
            [urgency_normal]
                background = "#00c000"
                foreground = "#ffffff"
                timeout = 0
            [urgency_critical]
                background = "#e00000"
                foreground = "#ffffff"
                frame_color = "#e00000"
                timeout = 0
            """.write(to: configuration, atomically: true, encoding: .utf8)
        let environment = bus.environment.merging(display.environment) { $1 }
        let process = try ChildProcess(dunst, ["-config", configuration.path], environment: environment, name: "dunst")
        let started = Dunst(process: process, directory: directory, environment: environment)
        do {
            let presenter = DesktopPresenter(configuration: .init(bus: .address(bus.address)), log: SilentLog())
            try await eventually("dunst owns org.freedesktop.Notifications") {
                await presenter.notificationServer()?.name == "dunst"
            }
        } catch {
            await started.stop()
            throw error
        }
        return started
    }

    /// Opens dunst's context menu, in which the fake dmenu picks the line containing `text` (an action
    /// line reads `#Like (Hello) [1,ACTION_LIKE]`), and waits until `dunstctl` is done.
    public func choose(_ text: String) async throws {
        try text.write(to: directory.appendingPathComponent("pick.txt"), atomically: true, encoding: .utf8)
        let control = try ChildProcess(Tool.path("dunstctl", package: "dunst"), ["context"], environment: environment, name: "dunstctl")
        let status = await control.exitStatus()
        guard status == 0 else {
            throw Timeout(description: "dunstctl context exited with \(status): \(control.errors.lines.joined(separator: " "))")
        }
    }

    /// What dunst's context menu listed, the last time it was opened.
    public var menu: String {
        (try? String(contentsOf: directory.appendingPathComponent("menu.txt"), encoding: .utf8)) ?? ""
    }

    public func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension VirtualDisplay {
    /// Takes screenshots until one fits `expected` (named `what`), for at most `seconds`: dunst redraws its
    /// window as notifications come and go, so a single screenshot may catch it half way. The bound
    /// catches a hang, as `LineLog.take`'s does: at the start of a full test run it is not a measure.
    public func dunstScreen(showing what: String, within seconds: Double = 60, until expected: (Screenshot) -> Bool) async throws -> Screenshot {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var last = try await screenshot()
        while !expected(last) {
            guard ContinuousClock.now < deadline else {
                let normal = String(describing: last.box(of: Dunst.normalBackground))
                let critical = String(describing: last.box(of: Dunst.criticalBackground))
                throw Timeout(description: "the screen never showed \(what); dunst's normal colour at \(normal), its critical colour at \(critical)")
            }
            try await Task.sleep(for: .milliseconds(50))
            last = try await screenshot()
        }
        return last
    }
}
