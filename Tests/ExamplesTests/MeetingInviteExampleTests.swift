import Foundation
import Testing

/// `meeting-invite` (seed 001): the reason the user types reaches the app's handler.
@Suite("Examples: meeting invite")
struct MeetingInviteExampleTests {
    @Test func aTypedReasonForDecliningReachesTheApp() async throws {
        let data = try DataFolder()
        let run = try ExampleRun("meeting-invite", ["--in", "0.5"], data: data)
        try await run.expect("[y/n] ")
        run.type("y")
        let invitation = try await run.expect("Choice: ")
        #expect(
            invitation.contains(
                """
                  Meeting invitation
                  Design review, today at 14:00 in room 4
                  1) Accept
                  2) Decline  (destructive)
                  3) Decline with reason  (destructive, opens the app, reply)

                """))
        run.type("3")
        try await run.expect("Why can't you come?: ")
        run.type("Dentist at 2, sorry")
        try await run.expect("reply sent. Meetings comes to the front.")
        try await run.expect("Declined the design review, because: Dentist at 2, sorry\n")
        #expect(try await run.exit() == 0)
    }

    @Test func acceptIsHeardToo() async throws {
        let data = try DataFolder()
        let run = try ExampleRun("meeting-invite", ["--in", "0"], data: data)
        try await run.expect("[y/n] ")
        run.type("y")
        try await run.expect("Choice: ")
        run.type("1")
        try await run.expect("Accepted the design review.")
        #expect(try await run.exit() == 0)
    }
}
