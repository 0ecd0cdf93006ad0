import ChimeCLI
import ChimeClient
import ChimeCore
import ChimeSQLite
import ChimeAPI
import ChimeTestSupport
import Foundation
import Testing

/// The `chime` command line against a real chimed: what the user types and reads.
@Suite("chime command line against chimed")
struct ChimeCommandLineTests {
    func chime(_ arguments: [String], _ home: DaemonHome) async -> ChimeMain.Result {
        await ChimeMain.run(arguments, now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths)
    }

    @Test func theReadmeFlowAddsAHelloThatIsDeliveredAndListed() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let later = await chime(["add", "--in", "1h", "--title", "Later", "--id", "later"], home)
        #expect(later.exitCode == .success, "\(later.standardError)")
        #expect(later.standardOutput.hasPrefix("Scheduled “Later” for chime (id later): in "))
        #expect(await chime(["pending", "--json"], home).standardOutput.contains(#""identifier" : "later""#))

        let hello = await chime(["add", "--in", "1s", "--title", "Hello", "--id", "hello"], home)
        #expect(hello.exitCode == .success, "\(hello.standardError)")
        try await daemon.presented("chime", "hello")
        let delivered = await chime(["delivered"], home)
        #expect(delivered.standardOutput.hasPrefix("APP    ID     DELIVERED                  TITLE\nchime  hello  "))
        #expect(delivered.standardOutput.hasSuffix("  Hello\n"))
        let pending = await chime(["pending"], home).standardOutput
        #expect(pending.contains("  later  ") && !pending.contains("  hello  "))
        #expect(await daemon.terminate() == 0)
    }

    /// A title that would clear the screen, set the window title, and reverse what follows, and an
    /// identifier with a line break: printed for a person they show as escapes; `--json` keeps them exact.
    @Test func titlesAndIdentifiersCannotRewriteTheTerminal() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let title = "Pay \u{1B}[2J\u{1B}]0;pwned\u{07}\u{202E}001$ \u{9B}31m"
        let identifier = "bill\nchime  fake  2026-01-01T00:00:00+09:00  Forged"
        let added = await chime(["add", "--in", "1h", "--title", title, "--id", identifier], home)
        #expect(added.exitCode == .success, "\(added.standardError)")
        let pending = await chime(["pending"], home)
        for output in [added.standardOutput, pending.standardOutput] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E }, "\(output)")
            #expect(output.contains(#"Pay \u{1B}[2J\u{1B}]0;pwned\u{7}\u{202E}001$ \u{9B}31m"#), "\(output)")
            #expect(output.contains(#"bill\nchime  fake"#), "\(output)")
        }
        #expect(pending.standardOutput.split(separator: "\n").count == 2, "a header and one row")
        let json = await chime(["pending", "--json"], home)
        let items = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(items?.first?["title"] as? String == title)
        #expect(items?.first?["identifier"] as? String == identifier)
        #expect(await daemon.terminate() == 0)
    }

    /// A pending record cut in half (the file itself still passes its check) used to make `chime pending`
    /// fail for every app and `chime doctor` say "not running".
    @Test func aDamagedRecordIsSetAsideAndEverythingElseIsServed() async throws {
        let home = try DaemonHome()
        var daemon = try await home.start()
        for (app, id) in [("com.example.notes", "a"), ("com.example.notes", "b"), ("com.example.other", "x")] {
            #expect(await chime(["add", "--app", app, "--id", id, "--title", "Note \(id)", "--in", "1h"], home).exitCode == .success)
        }
        #expect(await daemon.terminate() == 0)
        let db = try SQLiteConnection(path: home.paths.storeFile.path, flags: [.readWrite])
        try db.execute("UPDATE pending SET request = substr(request, 1, length(request) / 2) WHERE request_id = 'b'")
        _ = db  // closed when it goes out of scope

        daemon = try await home.start()
        let pending = await chime(["pending", "--json"], home)
        #expect(pending.exitCode == .success, "\(pending.standardError)")
        let items = try JSONSerialization.jsonObject(with: Data(pending.standardOutput.utf8)) as? [[String: Any]]
        #expect(items?.compactMap { $0["identifier"] as? String }.sorted() == ["a", "x"])
        let line = try await daemon.log.take("the quarantine warning") { $0.contains("set aside a damaged pending record com.example.notes/b") }
        #expect(line.contains("warning"))
        let doctor = await chime(["doctor"], home)
        #expect(doctor.standardOutput.contains("ok  chimed:"), "\(doctor.standardOutput)")
        #expect(doctor.standardOutput.contains("!!  damaged records: 1 stored record could not be read"), "\(doctor.standardOutput)")
        #expect(await daemon.terminate() == 0)
    }

    /// The command line is the user's tool: `--attach` hands the notification center a copy, and the
    /// user's file stays; `--move` moves it, as iOS does with an app's file.
    @Test func attachingCopiesTheUsersFileUnlessToldToMoveIt() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let photo = try Seeds.pngFile()
        defer { Seeds.remove(photo) }
        let kept = await chime(["add", "--in", "1h", "--title", "Photo", "--id", "copied", "--attach", photo.path], home)
        #expect(kept.exitCode == .success, "\(kept.standardError)")
        #expect(FileManager.default.fileExists(atPath: photo.path), "the user's file is still there")
        let stored = try FileManager.default.subpathsOfDirectory(atPath: home.paths.attachmentsDirectory.path).filter { $0.hasSuffix(".png") }
        #expect(stored.count == 1, "\(stored)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("chime-attach-") }
        #expect(leftovers.isEmpty, "the copies' folder is removed: \(leftovers)")

        let moved = await chime(["add", "--in", "1h", "--title", "Photo", "--id", "moved", "--attach", photo.path, "--move"], home)
        #expect(moved.exitCode == .success, "\(moved.standardError)")
        #expect(!FileManager.default.fileExists(atPath: photo.path), "--move hands over the file itself")
        #expect(await daemon.terminate() == 0)
    }

    /// Times as people type them are taken, and the confirmation names the instant chosen; a time that has
    /// passed is a usage error (exit 64), not a request that never fires.
    @Test func timesAsPeopleTypeThemAndTimesThatHavePassed() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let later = await chime(["add", "--at", "tomorrow 9:00", "--title", "Stand-up", "--id", "standup"], home)
        #expect(later.exitCode == .success, "\(later.standardError)")
        #expect(later.standardOutput.contains("T09:00:00+09:00."), "\(later.standardOutput)")  // the test's zone is Seoul
        let soon = await chime(["add", "--in", "5 minutes", "--title", "Tea", "--id", "tea"], home)
        #expect(soon.standardOutput.contains(": in 5m"), "\(soon.standardOutput)")  // 5m, or 5m1s on a busy machine
        let past = await chime(["add", "--at", "2020-01-01T00:00:00Z", "--title", "Too late", "--id", "late"], home)
        #expect(past.exitCode == .usage)
        #expect(past.standardError.hasPrefix("chime: error: --at: 2020-01-01T09:00:00+09:00 is in the past"), "\(past.standardError)")
        let pending = await chime(["pending", "--json"], home)
        let items = try JSONSerialization.jsonObject(with: Data(pending.standardOutput.utf8)) as? [[String: Any]]
        #expect(Set(items?.compactMap { $0["identifier"] as? String } ?? []) == ["standup", "tea"])
        #expect(await daemon.terminate() == 0)
    }

    /// A geofenced reminder: added, and listed and shown with the region it waits for instead of a date.
    @Test func aRegionTriggerIsListedByItsRegion() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let added = await chime(["add", "--region", "37.5665,126.978,150", "--on-entry", "--title", "Office", "--id", "office"], home)
        #expect(added.exitCode == .success, "\(added.standardError)")
        #expect(added.standardOutput == "Scheduled “Office” for chime (id office): it fires on entering 37.5665,126.978 (150 m).\n")
        let pending = await chime(["pending"], home).standardOutput
        #expect(pending.contains("chime  office  on entering 37.5665,126.978 (150 m)  Office"), "\(pending)")
        let shown = await chime(["show", "office"], home).standardOutput
        #expect(shown.contains("on entering 37.5665,126.978 (150 m)") && shown.contains("pending: fires when its region is crossed"), "\(shown)")
        let json = await chime(["pending", "--json"], home)
        let items = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        #expect(items?.count == 1 && items?.first?["nextFireDate"] == nil, "no fire date: \(json.standardOutput)")
        let region = items?.first?["region"] as? [String: Any]
        #expect(
            region?["latitude"] as? Double == 37.5665 && region?["longitude"] as? Double == 126.978 && region?["radius"] as? Double == 150
                && region?["notifyOnEntry"] as? Bool == true && region?["notifyOnExit"] as? Bool == false && region?["identifier"] != nil,
            "the region in the JSON: \(json.standardOutput)")
        #expect(await daemon.terminate() == 0)
    }

    /// The answer to an absent app says what happens: launched with its command, or waiting because it
    /// has none (it used to say "launching it" either way).
    @Test func respondSaysWhetherTheAppIsLaunched() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        for app in ["com.example.bare", "com.example.launchable"] {
            #expect(await chime(["add", "--app", app, "--id", "n", "--title", "Hi"], home).exitCode == .success)
            try await daemon.presented(app, "n")
        }
        let marker = home.root.appendingPathComponent("launched").path
        #expect(await chime(["apps", "register", "com.example.launchable", "--launch", "/bin/sh", "-c", "touch \(marker)"], home).exitCode == .success)

        let bare = await chime(["respond", "--app", "com.example.bare", "--id", "n", "--open"], home)
        #expect(bare.standardOutput.contains("com.example.bare is not running: the response waits until it starts (it has no launch command"), "\(bare.standardOutput)")
        let launchable = await chime(["respond", "--app", "com.example.launchable", "--id", "n", "--open"], home)
        #expect(launchable.standardOutput.hasSuffix("com.example.launchable is not running: the response waits for it (launching it).\n"), "\(launchable.standardOutput)")
        try await eventually("the app launched") { FileManager.default.fileExists(atPath: marker) }
        #expect(await daemon.terminate() == 0)
    }

    @Test func theChimeExecutableRunsTheSameCommands() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let executable = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("chime")
        let outcome = try await Subprocess.run(
            executable.path, ["add", "--title", "Now", "--id", "now", "--json"],
            environment: ProcessInfo.processInfo.environment.merging(home.environment) { $1 })
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains(#""identifier" : "now""#))
        try await daemon.presented("chime", "now")
        #expect(await daemon.terminate() == 0)
    }

    @Test func aTypedReplyReachesTheSubscribedApp() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let app = try await home.connect(app: "com.example.meetings", subscribe: true)
        defer { app.close() }
        #expect(try await app.requestAuthorization(options: [.alert]))
        let decline = try NotificationAction.textInput(identifier: "decline", title: "Decline with reason", buttonTitle: "Send", placeholder: "Why?")
        try await app.setCategories([try NotificationCategory(identifier: "meeting", actions: [decline])])
        try await app.add([try request("review", in: 0.5, title: "Design review", category: "meeting")])
        try await daemon.presented("com.example.meetings", "review")

        let responded = await chime(["respond", "--app", "com.example.meetings", "--id", "review", "--action", "decline", "--text", "Dentist"], home)
        #expect(responded.exitCode == .success, "\(responded.standardError)")
        #expect(responded.standardOutput == "Sent “decline”. com.example.meetings received it.\n")
        guard case .response(let event) = try await nextEvent(app) else { Issue.record("no response event"); return }
        #expect(event.response.actionIdentifier == "decline" && event.response.userText == "Dentist")

        let wrong = await chime(["respond", "--app", "com.example.meetings", "--id", "review", "--action", "accept"], home)
        #expect(wrong.exitCode == .failure)
        #expect(wrong.standardError.hasPrefix("chime: error: "))
        // Opening says so, not Apple's identifier for it.
        let opened = await chime(["respond", "--app", "com.example.meetings", "--id", "review", "--open"], home)
        #expect(opened.standardOutput == "Opened the notification. com.example.meetings received it.\n", "\(opened.standardOutput)\(opened.standardError)")
        #expect(await daemon.terminate() == 0)
    }

    /// In a real terminal (tmux, 50 columns) a table lines up in columns whatever script its cells are in,
    /// each row is cut to the terminal's width with "…", and the header is bold; piped, the same list is
    /// whole and has no colour.
    @Test func tablesInATerminalFitItsWidthAndArePlainInAPipe() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let tea = "차 준비 완료 — 녹차가 다 우러났습니다, 지금 드세요"
        #expect(await chime(["add", "--in", "1h", "--id", "녹차", tea], home).exitCode == .success)
        #expect(await chime(["add", "--in", "2h", "--id", "long", "A long English title that does not fit in fifty columns"], home).exitCode == .success)
        let bin = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().path
        var environment = home.environment
        environment["PATH"] = "\(bin):/usr/bin:/bin"
        environment["NO_COLOR"] = ""  // the test runner sets it; empty, it does not count
        let terminal = try await TerminalWindow(columns: 50, rows: 20, environment: environment)
        defer { Task { await terminal.close() } }

        try await terminal.type("chime pending")
        let screen = try await terminal.waitForScreen("the table") { $0.contains { $0.contains(" long ") } }
        let table = Array(screen.drop { !$0.hasPrefix("APP") }.prefix(3))
        #expect(table.count == 3, "\(screen)")
        // Measured with glibc's wcwidth, not with Chime's own measure.
        let dateColumn = table.map { line in Self.columns(String(line[..<(line.firstRange(of: /NEXT FIRE|\d{4}-\d\d-\d\d/)?.lowerBound ?? line.endIndex)])) }
        #expect(Set(dateColumn).count == 1 && dateColumn[0] > 0, "the dates start where the header does: \(table)")
        for line in table { #expect(Self.columns(line) <= 50, "\(line) is wider than the terminal") }
        #expect(table[1].hasSuffix("…") && table[2].hasSuffix("…"), "\(table)")
        #expect(table[1].contains("녹차  ") && table[1].contains("차 준비"), "\(table)")
        let painted = try await terminal.screen(colours: true)
        #expect(painted.contains { $0.contains("\u{1B}[1mAPP") }, "the header is bold: \(painted)")
        // `clear` wipes the typed line too: a marker says which command's output is on screen.
        try await terminal.type("clear; echo no-colour; NO_COLOR=1 chime pending")
        _ = try await terminal.waitForScreen("the list without colour") { $0.first == "no-colour" && $0.contains { $0.contains(" long ") } }
        #expect(try await terminal.screen(colours: true).allSatisfy { !$0.contains("\u{1B}[1m") }, "NO_COLOR is honoured")

        try await terminal.type("clear; echo piped; chime pending | cat")
        let piped = try await terminal.waitForScreen("the piped list") { $0.first == "piped" && $0.contains { $0.contains("long") } }
        let whole = try await terminal.screen(colours: true, joined: true)
        #expect(whole.contains { $0.hasSuffix(tea) }, "\(piped)")
        #expect(whole.contains { $0.hasSuffix("A long English title that does not fit in fifty columns") })
        #expect(whole.allSatisfy { !$0.contains("\u{1B}[1m") }, "no colour in a pipe")
        await terminal.close()
        #expect(await daemon.terminate() == 0)
    }

    /// Terminal columns `text` takes by glibc's `wcwidth(3)`, in a UTF-8 locale.
    static func columns(_ text: String) -> Int {
        typealias WcwidthFunction = @convention(c) (Int32) -> Int32
        setlocale(LC_CTYPE, "C.UTF-8")
        let wcwidth = unsafeBitCast(dlsym(nil, "wcwidth")!, to: WcwidthFunction.self)
        return text.unicodeScalars.reduce(0) { $0 + max(0, Int(wcwidth(Int32($1.value)))) }
    }

    /// `chime watch` (the real executable) prints each delivery and response as it happens; `--json`
    /// gives one object per line; the log presenter shows the notification's text where a person reads
    /// chimed's output.
    @Test func watchFollowsDeliveriesAndResponsesAndTheLogShowsTheText() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let executable = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("chime")
        let watcher = try ChildProcess(executable.path, ["watch"], environment: home.environment, name: "watch")
        let json = try ChildProcess(executable.path, ["watch", "--json", "--app", "chime"], environment: home.environment, name: "watch --json")
        try await eventually("both watchers follow the stream") {
            (try? await home.connect().status().eventStreams) ?? 0 >= 2
        }
        let other = await chime(["add", "--app", "com.example.other", "--title", "Elsewhere", "--id", "x"], home)
        #expect(other.exitCode == .success, "\(other.standardError)")
        #expect(other.standardOutput == "Sent “Elsewhere” for com.example.other (id x): delivered now, to chimed's log (no desktop: 'chime watch' follows deliveries).\n")
        _ = try await watcher.output.take("the other app's delivery") { $0.contains("  com.example.other  delivered  “Elsewhere”") }

        let added = await chime(["add", "--in", "1s", "--title", "Tea", "--body", "The kettle \u{1B}[2Jboiled", "--id", "tea"], home)
        #expect(added.exitCode == .success, "\(added.standardError)")
        let shown = try await watcher.output.take("the delivery") { $0.contains("  chime  delivered  ") }
        #expect(shown.contains("“Tea” — The kettle \\u{1B}[2Jboiled  [id tea]"), "\(shown)")
        let logged = try await daemon.log.take("the log presenter's line") { $0.contains("presented chime/tea — ") }
        #expect(logged.hasSuffix("presented chime/tea — “Tea” — The kettle \\u{1B}[2Jboiled"), "\(logged)")

        let responded = await chime(["respond", "--id", "tea", "--open"], home)
        #expect(responded.exitCode == .success, "\(responded.standardError)")
        let response = try await watcher.output.take("the response") { $0.contains("  responded  ") }
        #expect(response.contains("  chime  responded  opened  [id tea]"), "\(response)")

        let lines = [
            try await json.output.take("delivered as JSON") { $0.contains(#""event":"delivered""#) },
            try await json.output.take("responded as JSON") { $0.contains(#""event":"responded""#) },
        ].map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines[0]?["title"] as? String == "Tea" && lines[0]?["body"] as? String == "The kettle \u{1B}[2Jboiled")
        #expect(lines[0]?["app"] as? String == "chime" && lines[0]?["identifier"] as? String == "tea")
        #expect(lines[1]?["action"] as? String == NotificationResponse.defaultActionIdentifier && lines[1]?["identifier"] as? String == "tea")
        #expect(json.output.lines.allSatisfy { !$0.contains("Elsewhere") }, "--app keeps to one app")

        // chimed restarts (a new token, a new epoch of event ids): both watchers say so and go on.
        #expect(await daemon.terminate() == 0)
        let stopped = try await watcher.errors.take("the stop") { $0.hasPrefix("chime: ") }
        #expect(stopped == "chime: chimed stopped; waiting for it to start again (Ctrl-C to stop watching)")
        let again = try await home.start()
        _ = try await watcher.errors.take("the return") { $0 == "chime: chimed is back; watching again" }
        _ = try await watcher.output.take("what was missed is said to be lost") { $0 == "(chimed could not say what happened while the stream was away)" }
        _ = try await json.output.take("reset as JSON") { $0 == #"{"event":"reset"}"# }
        try await eventually("both watchers follow the new chimed") {
            (try? await home.connect().status().eventStreams) ?? 0 >= 2
        }
        #expect(await chime(["add", "--title", "After", "--id", "after"], home).exitCode == .success)
        _ = try await watcher.output.take("a delivery after the restart") { $0.contains("“After”  [id after]") }
        _ = try await json.output.take("as JSON after the restart") { $0.contains(#""identifier":"after""#) }
        #expect(watcher.errors.lines.allSatisfy { !$0.contains("error") }, "\(watcher.errors.lines)")
        await watcher.stop()
        await json.stop()
        #expect(await again.terminate() == 0)
    }

    /// Without a desktop and with `--authorization ask`, the first add of a new app waits for the user and
    /// says where to answer (the web center, or another terminal); allowed there, the add goes through.
    @Test func aNewAppWithoutADesktopWaitsForTheUsersAnswer() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start(["--authorization", "ask"])
        let notes = LineCollector()
        let adding = Task {
            await ChimeMain.run(
                ["add", "--app", "com.example.new", "--title", "Hi"], now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!,
                paths: home.paths, note: notes.add)
        }
        try await eventually("the add to say it waits") { notes.text.contains("waiting for your answer") }
        #expect(
            notes.text.hasPrefix(
                "chime: waiting for your answer: may com.example.new show notifications? Answer it in the web center ('chime web'), "
                    + "or run 'chime apps allow com.example.new' (or deny) in another terminal."), "\(notes.text)")
        let listed = await chime(["apps", "list", "--json"], home).standardOutput
        #expect(listed.contains(#""authorizationQuestion""#), "the question is listed while it waits: \(listed)")
        #expect(await chime(["apps", "allow", "com.example.new"], home).exitCode == .success)
        let added = await adding.value
        #expect(added.exitCode == .success, "\(added.standardError)")
        #expect(await daemon.terminate() == 0)
    }

    /// `chime add Title --body -` takes the body from standard input, as scripts pipe text.
    @Test func theBodyCanComeFromStandardInput() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let executable = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("chime")
        let adding = try ChildProcess(executable.path, ["add", "Backup", "--body", "-", "--id", "piped"], environment: home.environment, name: "chime add")
        adding.send("3 files copied\n0 errors")
        adding.closeInput()
        let said = try await adding.output.take("the confirmation") { $0.hasPrefix("Sent “Backup”") }
        #expect(said.contains("(id piped)"), "\(said)")
        let logged = try await daemon.log.take("the notification's line") { $0.contains("presented chime/piped — ") }
        #expect(logged.hasSuffix("“Backup” — 3 files copied\\n0 errors"), "\(logged)")
        #expect(await daemon.terminate() == 0)
    }

    /// Mistakes are answered in the user's terms: the file at fault, where a JSON file is wrong, the
    /// buttons a notification has, a suggestion for a typo; usage mistakes exit 64, the rest 1.
    @Test func mistakesAreSaidInTheUsersTerms() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        func expectError(_ arguments: [String], _ message: String, exit: ExitCode = .failure, sourceLocation: SourceLocation = #_sourceLocation) async {
            let result = await chime(arguments, home)
            #expect(result.exitCode == exit, "\(arguments)", sourceLocation: sourceLocation)
            #expect(result.standardError.hasPrefix("chime: error: \(message)\n"), "\(result.standardError)", sourceLocation: sourceLocation)
        }
        let missing = home.root.appendingPathComponent("no-such-photo.png").path
        await expectError(["add", "--title", "Photo", "--attach", missing], "cannot attach \(missing): the attachment file does not exist")

        let numbers = home.root.appendingPathComponent("numbers.json")
        try Data(#"[{"identifier": 5}]"#.utf8).write(to: numbers)
        await expectError(["categories", "set", numbers.path], "\(numbers.path) is not a JSON array of categories: at [0].identifier: text was expected, found a number")
        let object = home.root.appendingPathComponent("object.json")
        try Data(#"{"identifier": "meeting"}"#.utf8).write(to: object)
        await expectError(["categories", "set", object.path], "\(object.path) is not a JSON array of categories: a JSON array was expected, found an object")

        let meeting = home.root.appendingPathComponent("meeting.json")
        try Data(#"[{"identifier":"meeting","actions":[{"identifier":"accept","title":"Accept"},{"identifier":"decline","title":"Decline"}]}]"#.utf8)
            .write(to: meeting)
        #expect(await chime(["categories", "set", meeting.path], home).exitCode == .success)
        #expect(await chime(["add", "--title", "Review", "--category", "meeting", "--id", "review"], home).exitCode == .success)
        await expectError(["respond", "--id", "review", "--action", "maybe"], "the notification does not offer that action; it offers ‘accept’, ‘decline’")
        await expectError(["respond", "--id", "nothing", "--open"], "chime has no delivered notification with the id ‘nothing’ (chime delivered --app chime lists them)")

        await expectError(["ad", "--title", "x"], "unknown subcommand 'ad' (did you mean 'add'?)", exit: .usage)
        await expectError(["add", "--titel", "x"], "unknown option '--titel' (did you mean '--title'?)", exit: .usage)
        await expectError(["pending", "--jsn"], "unknown option '--jsn' (did you mean '--json'?)", exit: .usage)
        await expectError(["launch-missiles"], "unknown subcommand 'launch-missiles'", exit: .usage)
        #expect(await daemon.terminate() == 0)
    }

    /// A critical alert from an app that may not send them is said to be ordinary, and the user can
    /// grant critical alerts to an app that never asked.
    @Test func criticalAlertsAreTheUsersToGrant() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        #expect(await chime(["add", "--title", "First"], home).exitCode == .success)  // allowed, without critical alerts
        let notes = LineCollector()
        let ordinary = await ChimeMain.run(
            ["add", "--critical", "--title", "Low glucose"], now: Date(), currentTimeZone: .gmt, paths: home.paths, note: notes.add)
        #expect(ordinary.exitCode == .success, "\(ordinary.standardError)")
        #expect(
            notes.text == "chime: note: chime may not send critical alerts, so this one alerts as an ordinary notification "
                + "(the user allows them with 'chime apps settings chime --critical on').\n")

        let granted = await chime(["apps", "settings", "chime", "--critical", "on"], home)
        #expect(granted.exitCode == .success && granted.standardOutput.contains("critical alerts  on"), "\(granted.standardOutput)")
        let quiet = LineCollector()
        let critical = await ChimeMain.run(
            ["add", "--critical", "--title", "Low glucose"], now: Date(), currentTimeZone: .gmt, paths: home.paths, note: quiet.add)
        #expect(critical.exitCode == .success && quiet.text.isEmpty, "\(quiet.text)")
        // An app that asked for alerts only has no sounds to turn on.
        let silent = try await home.connect(app: "com.example.silent")
        #expect(try await silent.requestAuthorization(options: [.alert]))
        let refused = await chime(["apps", "settings", "com.example.silent", "--sound", "on"], home)
        #expect(refused.exitCode == .failure)
        #expect(
            refused.standardError == "chime: error: com.example.silent never asked to use sounds, so there is nothing to turn on; nothing was changed\n",
            "\(refused.standardError)")
        #expect(await daemon.terminate() == 0)
    }

    /// `chime add --wait` (the real executable) prints the user's response and exits by its outcome, as
    /// scripts use `notify-send -A` and `zenity`: an action and its typed text (0), a dismissal (2), a
    /// removal without a response (3), no response in time (5).
    @Test func addWaitPrintsTheResponseAndExitsByItsOutcome() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        let executable = URL(fileURLWithPath: DaemonHome.executable).deletingLastPathComponent().appendingPathComponent("chime")
        let categories = home.root.appendingPathComponent("meetings.json")
        try Data(#"""
            [{"identifier": "invite", "options": ["customDismissAction"], "actions": [{"identifier": "accept", "title": "Accept"},
              {"identifier": "decline", "title": "Decline", "textInput": {"buttonTitle": "Send"}}]}]
            """#.utf8).write(to: categories)
        #expect(await chime(["categories", "set", categories.path, "--app", "com.example.meetings"], home).exitCode == .success)
        func waiting(_ identifier: String, _ extra: [String] = []) throws -> ChildProcess {
            try ChildProcess(
                executable.path, ["add", "--wait", "--app", "com.example.meetings", "--category", "invite", "--id", identifier, "Lunch?"] + extra,
                environment: home.environment, name: "chime add --wait \(identifier)")
        }

        let answered = try waiting("lunch")
        try await daemon.presented("com.example.meetings", "lunch")
        let said = await chime(["respond", "--app", "com.example.meetings", "--id", "lunch", "--action", "decline", "--text", "Dentist"], home)
        #expect(said.exitCode == .success, "\(said.standardError)")
        #expect(await answered.exitStatus() == 0)
        #expect(answered.output.lines == ["decline", "Dentist"])
        #expect(answered.errors.lines.first?.hasPrefix("Sent “Lunch?” for com.example.meetings (id lunch)") == true, "\(answered.errors.lines)")

        let dismissed = try waiting("coffee", ["--json"])
        try await daemon.presented("com.example.meetings", "coffee")
        #expect(await chime(["respond", "--app", "com.example.meetings", "--id", "coffee", "--dismiss"], home).exitCode == .success)
        #expect(await dismissed.exitStatus() == 2)
        let json = try JSONSerialization.jsonObject(with: Data(dismissed.output.lines.joined().utf8)) as? [String: Any]
        #expect(json?["outcome"] as? String == "dismissed" && json?["action"] as? String == "dismiss", "\(dismissed.output.lines)")

        let removed = try waiting("later", ["--in", "1h"])
        try await eventually("the request is pending") { await chime(["pending", "--app", "com.example.meetings"], home).standardOutput.contains("later") }
        #expect(await chime(["remove", "--app", "com.example.meetings", "later"], home).exitCode == .success)
        #expect(await removed.exitStatus() == 3)

        let unanswered = try waiting("silence", ["--timeout", "1s"])
        #expect(await unanswered.exitStatus() == 5)
        #expect(unanswered.output.lines.isEmpty)
        #expect(await daemon.terminate() == 0)
    }

    /// `chime show` finds a notification by a unique start of its identifier, pending or delivered, and
    /// says so when the start is ambiguous or matches nothing.
    @Test func showFindsOneNotificationByAUniqueStart() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        #expect(await chime(["add", "--calendar", "hour=8 minute=30", "--repeats", "--title", "Stand-up", "--body", "Room 4", "--id", "standup-1"], home).exitCode == .success)
        #expect(await chime(["add", "--title", "Standard", "--id", "standard"], home).exitCode == .success)
        try await daemon.presented("chime", "standard")

        let shown = await chime(["show", "standu"], home)
        #expect(shown.exitCode == .success, "\(shown.standardError)")
        #expect(shown.standardOutput.hasPrefix("chime / standup-1\n  state    pending: fires in "), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("\n  body     Room 4\n  trigger  when the clock matches hour=8 minute=30, repeating\n"))

        let delivered = await chime(["show", "standard", "--json"], home)
        let json = try JSONSerialization.jsonObject(with: Data(delivered.standardOutput.utf8)) as? [String: Any]
        #expect(json?["state"] as? String == "delivered" && json?["delivered"] != nil, "an exact identifier wins over a longer one")

        let ambiguous = await chime(["show", "stand"], home)
        #expect(ambiguous.exitCode == .failure)
        #expect(ambiguous.standardError.contains("‘stand’ matches 2: "), "\(ambiguous.standardError)")
        let missing = await chime(["show", "zz"], home)
        #expect(missing.exitCode == .failure && missing.standardError.contains("no notification has an identifier starting with ‘zz’"))
        #expect(await chime(["show"], home).exitCode == .usage)

        // Delivered, then scheduled again under the same identifier (as a repeating request is): one
        // notification, shown as the pending one.
        #expect(await chime(["add", "--title", "Again", "--id", "again"], home).exitCode == .success)
        try await daemon.presented("chime", "again")
        #expect(await chime(["add", "--in", "1h", "--title", "Again later", "--id", "again"], home).exitCode == .success)
        let again = await chime(["show", "again"], home)
        #expect(again.exitCode == .success && again.standardOutput.contains("pending: fires in "), "\(again.standardOutput)\(again.standardError)")
        #expect(await daemon.terminate() == 0)
    }

    /// `respond` and `remove` take a unique start of an identifier, as git takes short hashes; an
    /// ambiguous one names the matches and changes nothing.
    @Test func respondAndRemoveTakeAUniqueStartOfAnIdentifier() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        for identifier in ["3f2a9c", "3f7b01"] {
            #expect(await chime(["add", "--title", "Now \(identifier)", "--id", identifier], home).exitCode == .success)
            try await daemon.presented("chime", identifier)
        }
        let ambiguous = await chime(["respond", "--id", "3f", "--open"], home)
        #expect(ambiguous.exitCode == .failure)
        #expect(ambiguous.standardError == "chime: error: ‘3f’ starts 2 identifiers: ‘3f2a9c’, ‘3f7b01’; give more of it\n", "\(ambiguous.standardError)")
        let opened = await chime(["respond", "--id", "3f2", "--open"], home)
        #expect(opened.exitCode == .success, "\(opened.standardError)")

        #expect(await chime(["add", "--in", "1h", "--title", "Later", "--id", "later-91c"], home).exitCode == .success)
        let removed = await chime(["remove", "lat"], home)
        #expect(removed.standardOutput == "Cancelled 1 notification of chime still pending.\n", "\(removed.standardOutput)\(removed.standardError)")
        #expect(await chime(["remove", "--delivered", "3f7"], home).standardOutput == "Removed 1 notification of chime from the delivered list.\n")
        #expect(await chime(["remove", "nothing-like-it"], home).exitCode == .failure)
        #expect(await daemon.terminate() == 0)
    }

    /// A response to an app that is not running waits for it: `chime responses` lists it (over
    /// `GET /v1/apps/{app}/responses`), and dropping it means the app never gets it.
    @Test func responsesWaitingForAnAbsentAppAreListedAndDropped() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        #expect(await chime(["add", "--app", "com.example.away", "--title", "Ping", "--id", "ping"], home).exitCode == .success)
        try await daemon.presented("com.example.away", "ping")
        #expect(await chime(["respond", "--app", "com.example.away", "--id", "ping", "--open"], home).exitCode == .success)

        let listed = await chime(["responses", "--app", "com.example.away"], home)
        #expect(listed.exitCode == .success, "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("DELIVERY") && lines[1].contains("  ping  ") && lines[1].hasSuffix("open"), "\(listed.standardOutput)")
        let json = await chime(["responses", "--app", "com.example.away", "--json"], home)
        let items = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
        let delivery = try #require(items?.first?["delivery"] as? String)
        #expect(items?.first?["notification"] as? String == "ping" && items?.first?["action"] as? String == "open")

        let dropped = await chime(["responses", "drop", String(delivery.prefix(8)), "--app", "com.example.away"], home)
        #expect(dropped.standardOutput == "Dropped the response to ping; com.example.away will not get it.\n", "\(dropped.standardOutput)\(dropped.standardError)")
        #expect(await chime(["responses", "--app", "com.example.away"], home).standardOutput == "No responses wait for com.example.away.\n")
        #expect(await chime(["responses", "drop", "nope", "--app", "com.example.away"], home).exitCode == .failure)
        #expect(await chime(["responses", "maybe"], home).exitCode == .usage)
        #expect(await daemon.terminate() == 0)
    }

    @Test func appsSettingsCategoriesAndFocus() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        #expect(await chime(["add", "--title", "First", "--app", "com.example.photos"], home).exitCode == .success)

        let hidden = await chime(["apps", "settings", "com.example.photos", "--previews", "never", "--sound", "off"], home)
        #expect(setting("previews", in: hidden.standardOutput) == "never")
        #expect(setting("sounds", in: hidden.standardOutput) == "off")
        #expect(setting("badges", in: hidden.standardOutput) == "on")
        let apps = await chime(["apps", "list"], home)
        #expect(apps.standardOutput.contains("com.example.photos"))
        #expect(await chime(["apps", "deny", "com.example.photos"], home).standardOutput == "com.example.photos: notifications denied (denied).\n")
        let refused = await chime(["add", "--title", "Second", "--app", "com.example.photos"], home)
        #expect(refused.exitCode == .failure)

        let file = home.root.appendingPathComponent("categories.json")
        try Data(#"[{"identifier": "meeting", "actions": [{"identifier": "accept", "title": "Accept"}]}]"#.utf8).write(to: file)
        #expect(await chime(["categories", "set", file.path, "--app", "com.example.meetings"], home).standardOutput == "Registered 1 category for com.example.meetings.\n")
        #expect(await chime(["categories", "list", "--app", "com.example.meetings"], home).standardOutput == "meeting: Accept [accept]\n")
        try Data("not json".utf8).write(to: file)
        let bad = await chime(["categories", "set", file.path, "--app", "com.example.meetings"], home)
        #expect(bad.exitCode == .failure && bad.standardError.contains("is not a JSON array of categories"))

        #expect(await chime(["focus", "on"], home).standardOutput.hasPrefix("Focus is on"))
        #expect(await chime(["focus", "status"], home).standardOutput.hasPrefix("Focus is on"))
        #expect(await chime(["focus", "off"], home).standardOutput == "Focus is off.\n")
        #expect(await daemon.terminate() == 0)
    }

    /// The value of one line of `chime apps settings`.
    func setting(_ name: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("  \(name)  ") }?.dropFirst(name.count + 2).trimmingCharacters(in: .whitespaces)
    }

    @Test func removeAndDoctor() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        _ = await chime(["add", "--title", "Later", "--in", "1h", "--id", "later"], home)
        #expect(await chime(["remove", "later"], home).standardOutput == "Cancelled 1 notification of chime still pending.\n")
        #expect(await chime(["pending"], home).standardOutput == "No pending notifications.\n")
        // What is not there is not reported as cancelled.
        let missing = await chime(["remove", "later"], home)
        #expect(missing.exitCode == .failure)
        #expect(missing.standardOutput.isEmpty)
        #expect(missing.standardError == "chime: error: chime has no pending notification with the id ‘later’ (chime pending --app chime lists them)\n")
        // For scripts: how many, as JSON; the app may be given as --app=.
        _ = await chime(["add", "--title", "A", "--in", "1h", "--id", "a"], home)
        _ = await chime(["add", "--title", "B", "--in", "1h", "--id", "b"], home)
        let json = await chime(["remove", "--app=chime", "--all", "--json"], home)
        #expect(json.exitCode == .success, "\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["app"] as? String == "chime" && object?["list"] as? String == "pending" && object?["removed"] as? Int == 2, "\(json.standardOutput)")
        let gone = await chime(["remove", "--delivered", "never-shown"], home)
        #expect(gone.exitCode == .failure && gone.standardError.contains("chime has no delivered notification with the id ‘never-shown’"), "\(gone.standardError)")

        let doctor = await chime(["doctor"], home)
        #expect(doctor.exitCode == .success)
        #expect(doctor.standardOutput.hasPrefix("ok  chimed: "))
        #expect(doctor.standardOutput.contains("ok  store: "))
        #expect(await daemon.terminate() == 0)

        let stopped = await chime(["doctor"], home)
        #expect(stopped.exitCode == .failure)
        #expect(stopped.standardOutput.hasPrefix("!!  chimed: not running"))
        let unreachable = await chime(["pending"], home)
        #expect(unreachable.exitCode == .failure)
        #expect(unreachable.standardError.hasPrefix("chime: error: chimed, the notification center, is not running"))
    }

    /// A Korean session reads Korean from a real chimed; what scripts read (`--json`) stays the same.
    @Test func aKoreanUserReadsKoreanAndScriptsReadTheSameJSON() async throws {
        let home = try DaemonHome()
        let daemon = try await home.start()
        func korean(_ arguments: [String]) async -> ChimeMain.Result {
            await ChimeMain.run(arguments, now: Date(), currentTimeZone: TimeZone(identifier: "Asia/Seoul")!, paths: home.paths, languages: ["ko-KR"])
        }
        let added = await korean(["add", "차가 끓었어요", "--in", "5min", "--id", "tea"])
        #expect(added.exitCode == .success, "\(added.standardError)")
        #expect(added.standardOutput.hasPrefix("chime의 “차가 끓었어요” 알림을 예약했습니다 (id tea): 5m"), "\(added.standardOutput)")
        #expect(added.standardOutput.contains(" 후, 20"), "\(added.standardOutput)")
        let pending = await korean(["pending"])
        #expect(pending.standardOutput.hasPrefix("앱     ID   다음 알림"), "\(pending.standardOutput)")
        let missing = await korean(["remove", "coffee"])
        #expect(missing.exitCode == .failure)
        #expect(missing.standardError.hasPrefix("chime: 오류: chime에 id가 ‘coffee’인 대기 중인 알림이 없습니다"), "\(missing.standardError)")
        #expect(await korean(["remove", "tea"]).standardOutput == "chime의 대기 중인 알림 1개를 취소했습니다.\n")

        let koreanApps = await korean(["apps", "list", "--json"])
        #expect(koreanApps.standardOutput == (await chime(["apps", "list", "--json"], home)).standardOutput)
        #expect(koreanApps.standardOutput.contains(#""authorization" : "allowed""#), "\(koreanApps.standardOutput)")
        #expect(await daemon.terminate() == 0)
    }
}
