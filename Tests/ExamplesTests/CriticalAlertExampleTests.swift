import Foundation
import Testing

/// `critical-alert` (seed 002): quiet provisional photos in one thread, then a critical alert.
@Suite("Examples: critical alert")
struct CriticalAlertExampleTests {
    @Test func provisionalPhotosArriveQuietlyAndTheCriticalAlertStandsOut() async throws {
        let data = try DataFolder()
        let run = try ExampleRun("critical-alert", data: data)
        try await run.expect("Provisional authorization: notifications arrive quietly, in the list only.")
        let question = try await run.expect("Allow “Health” to send notifications? [y/n] ")
        #expect(question.contains("critical alerts (they\nsound even when muted)."))
        run.type("y")
        let alert = try await run.expect("Choice: ")
        #expect(alert.contains("\u{7}\u{7}\u{7}\n!! CRITICAL ALERT !! [Health] "))
        #expect(alert.contains("  WARNING: LOW BLOOD SUGAR\n  Glucose level at 57\n  [sound] warning-sound · critical, volume 100%\n"))
        run.type("o")
        try await run.expect("Opening the glucose log: 57 mg/dL.")
        #expect(try await run.exit() == 0)

        // The three photos were delivered quietly, without a prompt, grouped in one thread.
        let quiet = run.transcript.components(separatedBy: "\n").filter { $0.hasPrefix("[Health] ") && $0.contains(" delivered quietly") }
        #expect(quiet.count == 3)
        #expect(quiet.allSatisfy { $0.contains(": New Photo — Jan") })
        #expect(quiet.last?.contains(" delivered quietly (3 more photos from Jane Doe): ") == true)
    }
}
