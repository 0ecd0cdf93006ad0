import Foundation
import Testing

/// `photo-reactions` (seed 000): the photo with its four buttons, and the reaction remembered.
@Suite("Examples: photo reactions")
struct PhotoReactionsExampleTests {
    @Test func aLikeIsHandledAndRememberedAndHiddenPreviewsStillShowTheTitle() async throws {
        let data = try DataFolder()
        let first = try ExampleRun("photo-reactions", ["--in", "0.5"], data: data)
        try await first.expect("No reaction yet.")
        try await first.expect("Allow “Photos” to send notifications? [y/n] ")
        first.type("y")
        let photo = try await first.expect("Choice: ")
        #expect(
            photo.contains(
                """
                  Hello
                  Shared some photo
                  [image] logo-image
                  1) Like
                  2) Dislike
                  3) Unfollow  (destructive, needs unlock)
                  4) Setting  (opens the app)
                  o) open   d) dismiss   Enter) later

                """))
        first.type("1")
        try await first.expect("👍 You liked the photo.")
        #expect(try await first.exit() == 0)

        // The next start shows the last reaction; with previews hidden the title stays (the category asks
        // for it) and the text is a placeholder; a dismissal reaches the app (custom dismiss).
        let second = try ExampleRun("photo-reactions", ["--in", "0", "--previews", "never"], data: data)
        try await second.expect("Your reaction last time: 👍 Like.")
        let hidden = try await second.expect("Choice: ")
        #expect(hidden.contains("  Hello\n  Notification\n  1) Like\n"))
        #expect(!hidden.contains("Shared some photo") && !hidden.contains("[image]"))
        second.type("d")
        try await second.expect("Custom dismiss: no reaction this time.")
        #expect(try await second.exit() == 0)
    }

    @Test func settingOpensTheApp() async throws {
        let data = try DataFolder()
        let run = try ExampleRun("photo-reactions", ["--in", "0"], data: data)
        try await run.expect("[y/n] ")
        run.type("y")
        try await run.expect("Choice: ")
        run.type("4")
        try await run.expect("→ “Setting” chosen. Photos comes to the front.")
        try await run.expect("Opening the app's settings.")
        #expect(try await run.exit() == 0)
    }
}
