import ChimeCore
import ChimeEngine
import ChimeTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Engine: attachments")
struct NotificationEngineAttachmentTests {
    /// The first bytes of a PNG: enough for detection, which reads 16.
    static let pngHeader: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00]

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-attachments-\(UUID().uuidString)")

    func photoRequest(identifier: String = "photo/1") throws -> (NotificationRequest, URL) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = folder.appendingPathComponent("hello.png")
        try Data(Self.pngHeader).write(to: original)
        var content = NotificationContent(title: "Hello", body: "Shared some photo")
        content.attachments = [try NotificationAttachment(identifier: "logo-image", url: original)]
        return (try NotificationRequest(identifier: identifier, content: content, trigger: nil), original)
    }

    func configuration() -> EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.attachmentsDirectory = folder.appendingPathComponent("store")
        return configuration
    }

    @Test func attachmentsMoveIntoTheStoreWhenTheRequestIsAdded() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = try await EngineHarness.make(configuration: configuration()).started()
        let (request, original) = try photoRequest()
        try await h.center.add(request)
        #expect(await h.presenter.nextPresentation().attachments.count == 1)

        let stored = try #require(try await h.center.deliveredNotifications().first?.request.content.attachments.first)
        #expect(!FileManager.default.fileExists(atPath: original.path))
        #expect(FileManager.default.fileExists(atPath: stored.url.path))
        // The request identifier's slash cannot climb out of the app's folder.
        #expect(stored.url.path.hasPrefix(folder.appendingPathComponent("store/com.example.app/photo%2F1").path))

        try await h.center.removeAllDeliveredNotifications()
        #expect(!FileManager.default.fileExists(atPath: stored.url.path))
    }

    /// What a client claims (decoded from the wire, never checked there) against what the file is.
    func claimed(_ url: URL, type: AttachmentType = .png, size: Int = 17) throws -> NotificationRequest {
        var content = NotificationContent(title: "Claimed")
        content.attachments = [try NotificationAttachment(identifier: "claimed", url: url, type: type, fileSize: size)]
        return try NotificationRequest(identifier: "claimed", content: content, trigger: nil)
    }

    /// The store checks each attachment itself once it holds it: a text file said to be a PNG, a FIFO and a
    /// folder are refused with a typed error, moved back where they were, and nothing is stored.
    @Test func whatIsNotAnAttachmentIsRefusedWhateverTheClientClaims() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let h = try await EngineHarness.make(configuration: configuration()).started()
        let text = folder.appendingPathComponent("diary.png")
        try Data("Dear diary, this is not an image.".utf8).write(to: text)
        let fifo = folder.appendingPathComponent("pipe.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let directory = folder.appendingPathComponent("photos.png")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.pngHeader).write(to: directory.appendingPathComponent("inside.png"))

        for (url, code) in [(text, ChimeError.Code.attachmentUnrecognizedType), (fifo, .attachmentInvalidURL), (directory, .attachmentInvalidURL)] {
            await #expect(throws: ChimeError.self) { try await h.center.add(try claimed(url)) }
            do {
                try await h.center.add(try claimed(url))
            } catch let error as ChimeError {
                #expect(error.code == code, "\(url.lastPathComponent): \(error)")
            }
            #expect(FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) is back where it was")
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("inside.png").path))
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
        #expect(try await h.center.deliveredNotifications().isEmpty)
    }

    /// A link is never stored as a link: the file it names is moved in and checked; the size and type are
    /// what the file has, not what the client said.
    @Test func aSymbolicLinkIsResolvedAndTheFileItNamesIsChecked() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let h = try await EngineHarness.make(configuration: configuration()).started()
        let target = folder.appendingPathComponent("real.png")
        try Data(Self.pngHeader + [UInt8](repeating: 0, count: 100)).write(to: target)
        let link = folder.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try await h.center.add(try claimed(link, size: 1))
        let stored = try #require(await h.presenter.nextPresentation().attachments.first)
        var info = stat()
        #expect(lstat(stored.url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "a file, not a link")
        #expect(stored.fileSize == 117)
        #expect(!FileManager.default.fileExists(atPath: target.path), "the file itself was moved in")
    }

    @Test func aRequestTheStoreRefusesLeavesItsAttachmentsWhereTheyWere() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let h = try await EngineHarness.make(store: RefusingStore(), configuration: configuration()).started()
        let (request, original) = try photoRequest()
        await #expect(throws: RefusingStore.Refusal.self) { try await h.center.add(request) }
        #expect(FileManager.default.fileExists(atPath: original.path))
        #expect(try await h.center.pendingNotificationRequests().isEmpty)
    }
}

/// A store whose disk is full: every request write fails.
actor RefusingStore: NotificationStore {
    struct Refusal: Error {}
    private let base = InMemoryNotificationStore()

    func addPending(_ requests: [PendingRequest], admitting admit: @escaping @Sendable (AppRecord) throws -> Void) async throws { throw Refusal() }

    func app(_ appIdentifier: String) async throws -> AppRecord? { await base.app(appIdentifier) }
    func allApps() async throws -> [AppRecord] { await base.allApps() }
    func saveApp(_ record: AppRecord) async throws { await base.saveApp(record) }
    func updateApp(_ appIdentifier: String, _ change: @escaping @Sendable (inout AppRecord) throws -> Void) async throws -> AppRecord {
        try await base.updateApp(appIdentifier, change)
    }
    func pendingRequests(appIdentifier: String) async throws -> [PendingRequest] { await base.pendingRequests(appIdentifier: appIdentifier) }
    func pendingRequests(_ keys: [RequestKey]) async throws -> [PendingRequest] { await base.pendingRequests(keys) }
    func removePending(appIdentifier: String, identifiers: [String]?) async throws -> [RequestKey] {
        await base.removePending(appIdentifier: appIdentifier, identifiers: identifiers)
    }
    func pendingFires(after: SchedulerTimeline.Coverage?, through: Date, limit: Int) async throws -> [ScheduledFire] {
        await base.pendingFires(after: after, through: through, limit: limit)
    }
    func pendingPage(appIdentifier: String?, after position: PendingListPosition?, limit: Int) async throws -> [PendingRequest] {
        await base.pendingPage(appIdentifier: appIdentifier, after: position, limit: limit)
    }
    func pendingTotal(appIdentifier: String?) async throws -> Int { await base.pendingTotal(appIdentifier: appIdentifier) }
    func floatingCalendarRequests() async throws -> [PendingRequest] { await base.floatingCalendarRequests() }
    func updateNextFireDates(_ dates: [RequestKey: Date?]) async throws { await base.updateNextFireDates(dates) }
    func dateUndated(_ requests: [RequestKey: Date], at date: Date) async throws -> [RequestKey] { await base.dateUndated(requests, at: date) }
    func shiftPending(_ keys: [RequestKey], by interval: TimeInterval) async throws { await base.shiftPending(keys, by: interval) }
    func recordFires(_ records: [FireRecord]) async throws -> [FireRecord] { await base.recordFires(records) }
    func deliveredNotifications(appIdentifier: String) async throws -> [DeliveredNotification] {
        await base.deliveredNotifications(appIdentifier: appIdentifier)
    }
    func deliveredNotification(appIdentifier: String, identifier: String) async throws -> DeliveredNotification? {
        await base.deliveredNotification(appIdentifier: appIdentifier, identifier: identifier)
    }
    func deliveredPage(appIdentifier: String?, after position: DeliveredListPosition?, limit: Int) async throws -> [DeliveredListEntry] {
        await base.deliveredPage(appIdentifier: appIdentifier, after: position, limit: limit)
    }
    func deliveredTotal(appIdentifier: String?) async throws -> Int { await base.deliveredTotal(appIdentifier: appIdentifier) }
    func deliveredCount(appIdentifier: String, threadIdentifier: String) async throws -> Int {
        await base.deliveredCount(appIdentifier: appIdentifier, threadIdentifier: threadIdentifier)
    }
    func updateDelivered(appIdentifier: String, _ notification: DeliveredNotification) async throws {
        await base.updateDelivered(appIdentifier: appIdentifier, notification)
    }
    func removeDelivered(appIdentifier: String, identifiers: [String]?) async throws -> [String] {
        await base.removeDelivered(appIdentifier: appIdentifier, identifiers: identifiers)
    }
    func missedFires(appIdentifier: String) async throws -> [MissedFire] { await base.missedFires(appIdentifier: appIdentifier) }
    func clearMissedFires(appIdentifier: String) async throws { await base.clearMissedFires(appIdentifier: appIdentifier) }
}
