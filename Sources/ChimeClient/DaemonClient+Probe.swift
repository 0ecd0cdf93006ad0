public import ChimeAPI
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension DaemonClient {
    /// Whether a daemon listens at `paths` now, in a trusted runtime folder: a connect to its socket and
    /// nothing more (no request), for code that must decide at once and cannot wait.
    public static func isListening(paths: DaemonPaths = DaemonPaths()) -> Bool {
        guard (try? RuntimeDirectory.verify(paths)) != nil else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { Glibc.close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(paths.socketFile.path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }
}
