@testable import ChimeCLI
import Foundation
import Testing

/// `chime server`'s command line: actions, the common options anywhere, `chime add`'s options for `add`,
/// and quiet-hours periods.
@Suite("chime server command line parsing")
struct ServerCommandParsingTests {
    func parse(_ arguments: [String]) throws -> ServerCommand {
        guard case .server(let server) = try ChimeCommand.parse(["server"] + arguments) else { throw UsageError("not a server command") }
        return server
    }

    func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try ChimeCommand.parse(["server"] + arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func theCommonOptionsStandAnywhere() throws {
        let before = try parse(["--url", "http://127.0.0.1:7717", "--json", "pending", "-r", "user-42"])
        let after = try parse(["pending", "--recipient=user-42", "--json", "--url=http://127.0.0.1:7717"])
        #expect(before == after)
        #expect(before.action == .list(.pending, recipient: "user-42", app: nil))
        #expect(before.url == "http://127.0.0.1:7717" && before.json && before.keyFile == nil)
        #expect(try parse(["--key-file", "/run/secrets/chime", "status"]).keyFile == "/run/secrets/chime")
    }

    @Test func addTakesChimeAddsOptionsForARecipient() throws {
        let command = try parse(["add", "-r", "user-42", "-a", "com.example.todo", "--calendar", "hour=8", "--repeats", "-t", "Stand-up", "--idempotency-key", "k1"])
        guard case .add(let recipient, let add, let key) = command.action else {
            Issue.record("\(command.action)")
            return
        }
        #expect(recipient == "user-42" && key == "k1")
        #expect(add.appIdentifier == "com.example.todo" && add.title == "Stand-up")
        #expect(add.when == .calendar(DateComponents(hour: 8), repeats: true))
        // A title that happens to read like the server's option stays the title after `--`.
        let literal = try parse(["add", "-r", "u", "-a", "app", "--", "--recipient"])
        guard case .add(let literalRecipient, let literalAdd, _) = literal.action else { return }
        #expect(literalRecipient == "u" && literalAdd.title == "--recipient")
    }

    @Test func addRefusesWhatServerModeCannotDo() {
        #expect(refusal(["add", "-a", "app", "--title", "x"]) == "add needs --recipient")
        #expect(refusal(["add", "-r", "u", "--title", "x"])?.hasPrefix("add needs --app") == true)
        #expect(refusal(["add", "-r", "u", "-a", "app", "-t", "x", "--attach", "/etc/hosts"]) == "server mode takes no attachments (--attach)")
        #expect(refusal(["add", "-r", "u", "-a", "app", "-t", "x", "--wait"])?.hasPrefix("--wait is for the local notification center") == true)
        #expect(refusal(["add", "-r", "u", "-a", "app", "--in", "soon"]) != nil)
        #expect(refusal(["add", "-r", "", "-a", "app"]) == "-r must not be empty")
        #expect(refusal(["add", "-r", "u", "-a", "app", "-t", "x", "--idempotency-key="]) == "--idempotency-key must not be empty")
        #expect(refusal(["add", "-r", "u", "--idempotency-key", "--app", "app", "-t", "x"]) == "missing value for '--idempotency-key'")
    }

    @Test func removeNeedsARecipientAnAppAndIdentifiersOrAll() throws {
        #expect(try parse(["remove", "-r", "u", "-a", "app", "x", "y"]).action == .remove(recipient: "u", app: "app", identifiers: ["x", "y"]))
        #expect(try parse(["remove", "-r", "u", "-a", "app", "--all"]).action == .remove(recipient: "u", app: "app", identifiers: nil))
        #expect(refusal(["remove", "-r", "u", "-a", "app"]) == "give the identifiers to remove, or --all")
        #expect(refusal(["remove", "-r", "u", "-a", "app", "x", "--all"]) == "give identifiers or --all, not both")
        #expect(refusal(["remove", "-a", "app", "--all"]) == "remove needs --recipient")
        #expect(refusal(["remove", "-r", "u", "--all"]) == "remove needs --app")
    }

    @Test func recipientShowsOrChanges() throws {
        #expect(try parse(["recipient", "user-42"]).action == .recipient("user-42", .init()))
        let change = try parse(["recipient", "user-42", "--time-zone", "Asia/Seoul", "--quiet", "mon-fri 22:00-7:00", "--quiet", "weekends 23:30-09:00"])
        let expected = ServerCommand.RecipientChange(
            timeZone: "Asia/Seoul", locale: nil,
            quietHours: [QuietHoursSpec(weekdays: [2, 3, 4, 5, 6], from: "22:00", to: "07:00"), QuietHoursSpec(weekdays: [1, 7], from: "23:30", to: "09:00")])
        #expect(change.action == .recipient("user-42", expected))
        #expect(try parse(["recipient", "u", "--no-quiet"]).action == .recipient("u", .init(quietHours: [])))
        #expect(refusal(["recipient", "u", "--no-quiet", "--quiet", "daily 1:00-2:00"]) == "give --quiet periods or --no-quiet, not both")
        #expect(refusal(["recipient"]) == "recipient needs the recipient's identifier")
        #expect(refusal(["recipient", "a", "b"]) == "unexpected argument 'b'")
    }

    @Test func keysListIssueAndRevoke() throws {
        #expect(try parse(["keys"]).action == .keys)
        #expect(try parse(["keys", "add", "ci", "--scope", "publish,read", "--scope", "read"]).action == .issueKey(name: "ci", scopes: ["publish", "read"]))
        #expect(try parse(["keys", "revoke", "zvucbzqv"]).action == .revokeKey("zvucbzqv"))
        #expect(refusal(["keys", "add", "ci"]) == "keys add needs at least one --scope (publish, read, admin)")
        #expect(refusal(["keys", "add", "ci", "--scope", "root"]) == "--scope 'root': the scopes are publish, read and admin")
        #expect(refusal(["keys", "revoke"])?.hasPrefix("keys revoke needs the key's id") == true)
        #expect(refusal(["keys", "rotate"])?.hasPrefix("unknown keys action 'rotate'") == true)
    }

    @Test func deliveriesReplayAndSettings() throws {
        #expect(try parse(["deliveries", "-r", "ann"]).action == .deliveries(recipient: "ann"))
        #expect(refusal(["deliveries"]) == "deliveries needs --recipient")
        #expect(refusal(["deliveries", "-r", "ann", "-a", "chat"]) == "deliveries takes no --app")
        #expect(try parse(["replay", "42"]).action == .replay("42"))
        #expect(refusal(["replay"])?.hasPrefix("replay needs the delivery's id") == true)
        #expect(refusal(["replay", "1", "2"]) == "unexpected argument '2'")
        #expect(try parse(["settings"]).action == .settings(allowList: nil))
        #expect(try parse(["settings", "--allow", "127.0.0.1", "--allow=10.0.0.0/8"]).action == .settings(allowList: ["127.0.0.1", "10.0.0.0/8"]))
        #expect(try parse(["settings", "--no-allow"]).action == .settings(allowList: []))
        #expect(refusal(["settings", "--no-allow", "--allow", "::1"]) == "give --allow networks or --no-allow, not both")
    }

    @Test func apnsKeyShowsSetsAndRemoves() throws {
        #expect(try parse(["apns-key"]).action == .apnsKey(.show))
        #expect(
            try parse(["apns-key", "set", "--team", "TEAM000001", "--key-id=KEY0000001", "--p8", "AuthKey.p8"]).action
                == .apnsKey(.set(team: "TEAM000001", keyID: "KEY0000001", path: "AuthKey.p8")))
        #expect(try parse(["apns-key", "remove", "--json"]).action == .apnsKey(.remove))
        #expect(refusal(["apns-key", "set", "--team", "T"]) == "apns-key set needs --team, --key-id and --p8")
        #expect(refusal(["apns-key", "set", "--team", "T", "--key-id", "K", "--p8", "x", "extra"]) == "unexpected argument 'extra'")
        #expect(refusal(["apns-key", "rotate"])?.hasPrefix("unknown apns-key action 'rotate'") == true)
        #expect(refusal(["apns-key", "remove", "now"]) == "unexpected argument 'now'")
        #expect(try parse(["webpush"]).action == .webPush(subject: nil))
        #expect(try parse(["webpush", "--subject", "mailto:ops@example.com"]).action == .webPush(subject: "mailto:ops@example.com"))
        #expect(try parse(["webpush", "--no-subject"]).action == .webPush(subject: ""))
        #expect(refusal(["webpush", "--key", "x"]) == "unknown option '--key'")
    }

    @Test func anActionIsNeededAndKnown() {
        #expect(refusal([])?.hasPrefix("name an action") == true)
        #expect(refusal(["--json"])?.hasPrefix("name an action") == true)
        #expect(refusal(["send"])?.hasPrefix("unknown action 'send'") == true)
        #expect(refusal(["status", "--verbose"]) == "unknown option '--verbose'")
        #expect(refusal(["--url"]) == "missing value for '--url'")
        #expect(refusal(["pending"]) == "pending needs --recipient")
        #expect((try? ChimeCommand.parse(["server", "keys", "--help"])) == .help(subcommand: "server"))
    }

    // MARK: Quiet hours

    @Test func quietHoursPeriodsReadDaysRangesAndTimes() throws {
        func days(_ text: String) throws -> [Int] { try QuietHoursSpec.parse("\(text) 22:00-07:00", command: "server").weekdays }
        #expect(try days("daily") == [1, 2, 3, 4, 5, 6, 7])
        #expect(try days("weekdays") == [2, 3, 4, 5, 6])
        #expect(try days("weekends") == [1, 7])
        #expect(try days("mon") == [2])
        #expect(try days("fri-mon") == [1, 2, 6, 7])
        #expect(try days("sat-sat") == [7])
        #expect(try days("MON-wed,fri") == [2, 3, 4, 6])
        let spec = try QuietHoursSpec.parse("  sun   9:05-0:00 ", command: "server")
        #expect(spec == QuietHoursSpec(weekdays: [1], from: "09:05", to: "00:00"))
    }

    @Test(arguments: [
        "mon-fri", "mon-fri 22:00", "mon-fri 22:00-", "monday 22:00-07:00", "mon-fri-sat 22:00-07:00", "mon,,fri 22:00-07:00", "mon 24:00-07:00",
        "mon 22:60-07:00", "mon 22:0-07:00", "mon 123:00-07:00", "mon 22:00-22:00", "mon ２２:００-07:00", "mon 22:00-07:00 extra",
    ])
    func malformedQuietHoursAreRefused(text: String) {
        #expect(throws: UsageError.self) { try QuietHoursSpec.parse(text, command: "server") }
    }

    /// Every set of days prints as `--quiet` reads it back, to the same days: the 127 non-empty sets.
    @Test func everySetOfDaysPrintsAsItIsRead() throws {
        for mask in 1..<128 {
            let weekdays = (1...7).filter { mask & (1 << ($0 - 1)) != 0 }
            let text = QuietHoursSpec.daysText(weekdays)
            #expect(!text.contains(" "))
            let read = try QuietHoursSpec.parse("\(text) 22:00-07:00", command: "server").weekdays
            #expect(read == weekdays, "\(weekdays) printed as \(text)")
        }
        #expect(QuietHoursSpec.daysText([1, 2, 3]) == "sun-tue")
        #expect(QuietHoursSpec.daysText([2, 3, 4, 6]) == "mon-wed,fri")
        #expect(QuietHoursSpec.daysText([2, 3]) == "mon,tue")
    }
}
