import Foundation

/// A real browser for the web center's tests: headless Chromium through chromedriver, driven by
/// `web_browser.py` (Debian's `python3-selenium`), one JSON command and one answer a line.
///
/// ```swift
/// let browser = try await WebBrowser(language: "ko-KR")
/// try await browser.open(url)
/// try await browser.wait(".notification[data-id='tea']", showing: "Tea")
/// try await browser.click("button[data-action='accept']")
/// ```
public final class WebBrowser: Sendable {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("web_browser.py").path

    private let process: ChildProcess

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts Chromium with `language` as the browser's (and so `Accept-Language`).
    public init(language: String = "en-US") async throws {
        _ = try Tool.path("chromedriver", package: "chromium-driver")
        process = try ChildProcess("/usr/bin/python3", [Self.script, language], name: "browser")
    }

    @discardableResult
    private func command(_ fields: [String: Any], within seconds: Double = 30) async throws -> Any? {
        let line = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        process.send(line)
        let answer = try await process.output.take("the browser's answer to \(fields["op"] ?? "")", within: seconds) { _ in true }
        guard let object = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else {
            throw Failure(description: "the browser answered \(answer)")
        }
        guard object["ok"] as? Bool == true else { throw Failure(description: "\(line): \(object["error"] as? String ?? answer)") }
        return object["value"]
    }

    public func open(_ url: String) async throws { try await command(["op": "open", "url": url]) }

    /// Waits until an element matching `css` shows `text`; returns all its text.
    @discardableResult
    public func wait(_ css: String, showing text: String = "", within seconds: Double = 5) async throws -> String {
        try await command(["op": "wait", "css": css, "text": text, "timeout": seconds], within: seconds + 30) as? String ?? ""
    }

    /// Waits until nothing matching `css` shows.
    public func waitGone(_ css: String, within seconds: Double = 5) async throws {
        try await command(["op": "gone", "css": css, "timeout": seconds], within: seconds + 30)
    }

    public func click(_ css: String) async throws { try await command(["op": "click", "css": css]) }
    public func type(_ css: String, _ text: String) async throws { try await command(["op": "type", "css": css, "text": text]) }
    public func count(_ css: String) async throws -> Int { try await command(["op": "count", "css": css]) as? Int ?? -1 }
    public func script(_ source: String) async throws -> Any? { try await command(["op": "script", "source": source]) }
    public func newTab() async throws { try await command(["op": "tab"]) }
    public func switchTab(_ index: Int) async throws { try await command(["op": "switch", "index": index]) }
    public func colourScheme(dark: Bool) async throws { try await command(["op": "scheme", "dark": dark]) }
    public func resize(width: Int, height: Int) async throws { try await command(["op": "size", "width": width, "height": height]) }
    public func screenshot(_ path: String) async throws { try await command(["op": "screenshot", "path": path]) }
    /// Presses keys on whatever has the focus (`"TAB"`, `"ENTER"`, `"SPACE"`, or text).
    public func keys(_ keys: [String]) async throws { try await command(["op": "keys", "keys": keys]) }
    public func attribute(_ css: String, _ name: String) async throws -> String? { try await command(["op": "attribute", "css": css, "name": name]) as? String }
    /// Grants the page's origin a browser permission, as if the user had allowed it.
    public func grant(_ permission: String) async throws { try await command(["op": "grant", "permission": permission]) }

    /// Brings `data` to the page origin's service worker as a push message, as its push service would
    /// (DevTools' `ServiceWorker.deliverPushMessage`): a browser without a push service still runs the
    /// worker's `push` handler.
    public func push(_ data: String) async throws { try await command(["op": "push", "data": data]) }

    public func quit() async {
        _ = try? await command(["op": "quit"], within: 15)
        await process.stop()
    }
}
