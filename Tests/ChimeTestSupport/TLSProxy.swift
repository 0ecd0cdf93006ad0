import Foundation

/// nginx on loopback terminating TLS with HTTP/2 (as APNs clients require) and passing requests on to a
/// server-mode node over HTTP/1.1: how an operator puts nodes behind TLS, and how an APNs client reaches
/// the APNs-compatible endpoint.
public struct TLSProxy: Sendable {
    public let process: ChildProcess
    public let port: Int
    let folder: URL

    /// Serves `certificate` (with `key.pem` beside it) and forwards everything to `127.0.0.1:upstream`.
    public static func start(certificate: String, upstream: UInt16) async throws -> TLSProxy {
        let nginx = try Tool.path("nginx", package: "nginx")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-proxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = URL(fileURLWithPath: certificate).deletingLastPathComponent().appendingPathComponent("key.pem").path
        let port = try Self.unusedPort()
        let configuration = """
            daemon off; worker_processes 1; pid \(folder.path)/nginx.pid; error_log \(folder.path)/error.log;
            events { worker_connections 256; }
            http {
              access_log off;
              client_body_temp_path \(folder.path)/body; proxy_temp_path \(folder.path)/proxy; fastcgi_temp_path \(folder.path)/fastcgi;
              uwsgi_temp_path \(folder.path)/uwsgi; scgi_temp_path \(folder.path)/scgi;
              server {
                listen 127.0.0.1:\(port) ssl http2;
                ssl_certificate \(certificate); ssl_certificate_key \(key);
                location / { proxy_pass http://127.0.0.1:\(upstream); proxy_http_version 1.1; proxy_set_header Connection ""; }
              }
            }
            """
        try Data(configuration.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        let process = try ChildProcess(nginx, ["-c", folder.appendingPathComponent("nginx.conf").path, "-p", folder.path], name: "nginx")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !Self.accepts(port) { try await Task.sleep(for: .milliseconds(50)) }
        return TLSProxy(process: process, port: port, folder: folder)
    }

    public func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static func accepts(_ port: Int) -> Bool {
        (try? RawHTTPConnection(loopbackPort: UInt16(port))) != nil
    }

    /// A loopback port nobody listens on now (bound, then released).
    static func unusedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw Timeout(description: "no loopback port is free") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
