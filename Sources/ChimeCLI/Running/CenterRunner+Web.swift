import ChimeAPI
import ChimeClient
import ChimeDesktop
import Foundation

extension CenterRunner {
    func run(_ web: WebCommand) async throws -> String {
        let login = try await client.webLogin()
        if web.opens {
            if let opener = Self.executable(named: "xdg-open") {
                let finished = await ChildCommand.output(of: opener, [login.url], timeout: .seconds(10))
                if finished?.status != 0 { note("chime: note: xdg-open could not open a browser; open the link yourself.\n") }
            } else {
                note("chime: note: xdg-open is not installed; open the link yourself.\n")
            }
        }
        if web.json { return Output.json(WebOutput(url: login.url, expiresAt: utc(login.expiresAt), expiresAtLocal: iso(login.expiresAt))) }
        return "Open the notification center: \(login.url)\nThe link works once, until \(iso(login.expiresAt)).\n"
    }

    /// The first executable `name` on `PATH`.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

struct WebOutput: Encodable {
    var url: String
    var expiresAt: String
    var expiresAtLocal: String
}
