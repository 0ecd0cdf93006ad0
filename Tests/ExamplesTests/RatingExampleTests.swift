import Foundation
import Testing

/// `rating` (seed 002): Rate becomes stars, a star clears the buttons, custom controls open and dismiss.
@Suite("Examples: rating")
struct RatingExampleTests {
    @Test func rateShowsStarsAndAStarClearsTheButtons() async throws {
        let data = try DataFolder()
        let run = try ExampleRun("rating", ["--in", "0.3"], data: data)
        try await run.expect("[y/n] ")
        run.type("y")
        let request = try await run.expect("Choice: ")
        #expect(request.contains("  How was your order?\n"))
        #expect(request.contains("  1) Rate\n  2) Open App  (opens the app)\n  3) Not Now\n"))
        run.type("1")
        let stars = try await run.expect("Choice: ")
        #expect(stars.contains("· updated\n"))
        #expect(stars.contains("  1) ★\n  2) ★★\n  3) ★★★\n  o) open   d) dismiss   Enter) later\n"))
        run.type("3")
        let cleared = try await run.expect("Choice: ")
        #expect(cleared.contains("Thanks! You rated the order ★★★.\n"))
        #expect(cleared.contains("  Two flat whites and a cinnamon roll, delivered at 09:12\n  o) open   d) dismiss   Enter) later\n"))
        run.type("d")
        try await run.expect("Closed the rating request.")
        #expect(try await run.exit() == 0)

        // A custom control opens the app, which knows the rating the extension saved.
        let again = try ExampleRun("rating", ["--in", "0"], data: data)
        try await again.expect("Choice: ")
        again.type("2")
        try await again.expect("The app opens on the order (your rating: ★★★).")
        #expect(try await again.exit() == 0)
    }

    @Test func notNowDismissesFromTheExtension() async throws {
        let data = try DataFolder()
        let run = try ExampleRun("rating", ["--in", "0"], data: data)
        try await run.expect("[y/n] ")
        run.type("y")
        try await run.expect("Choice: ")
        run.type("3")
        try await run.expect("Not now: the rating request is gone.")
        #expect(try await run.exit() == 0)
    }
}
