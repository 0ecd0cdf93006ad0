import ChimeCore
import ChimeIPC
import ChimeTestSupport
import Foundation

// The daemon's home, its process and the event helpers are in ChimeTestSupport (DaemonHome.swift).

/// A request that fires `seconds` from now.
func request(_ identifier: String, in seconds: TimeInterval = 3600, title: String = "Hello", category: String? = nil) throws -> NotificationRequest {
    var content = NotificationContent(title: LocalizableText(stringLiteral: title))
    if let category { content.categoryIdentifier = category }
    return try NotificationRequest(identifier: identifier, content: content, trigger: .timeInterval(try TimeIntervalTrigger(timeInterval: seconds, repeats: false)))
}

/// A raw connection for bad input: writes bytes, reads reply lines on a thread of its own.
final class RawConnection: Sendable {
    let socket: UnixSocket
    let lines: LineLog

    init(_ path: String) throws {
        socket = try UnixSocket.connect(to: path)
        lines = LineLog(reading: socket.fileDescriptor, name: "socket")
    }

    func send(_ text: String) {
        socket.write(Data(text.utf8))
    }

    /// The next reply line, decoded as a head.
    func reply(_ what: String) async throws -> MessageHead {
        let line = try await lines.take(what) { _ in true }
        return try WireFormat.decoder().decode(MessageHead.self, from: Data(line.utf8))
    }

    deinit {
        socket.shutdown()
    }
}
