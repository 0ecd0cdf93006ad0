import Foundation

/// Where `chime server` finds the node and the API key: `--url` or `$CHIME_SERVER_URL`, and `--key-file`
/// or `$CHIME_API_KEY`.
enum ServerCredentials {
    /// The largest key file read: a key is about 50 bytes.
    static let keyFileLimit = 4096

    static func resolve(_ command: ServerCommand, environment: [String: String]) throws(UsageError) -> (url: String, key: String) {
        guard let url = command.url ?? environment[ServerCommand.urlVariable].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw UsageError("name the node with --url or $\(ServerCommand.urlVariable) (such as http://127.0.0.1:7717)", command: ServerCommand.name)
        }
        guard let parts = URLComponents(string: url), ["http", "https"].contains(parts.scheme?.lowercased() ?? ""), !(parts.host ?? "").isEmpty else {
            throw UsageError("--url '\(url)' is not an http:// or https:// address with a host", command: ServerCommand.name)
        }
        let key: String
        if let path = command.keyFile {
            key = try keyFromFile(path)
        } else if let variable = environment[ServerCommand.keyVariable], !variable.isEmpty {
            key = variable.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            throw UsageError("give the tenant's API key in $\(ServerCommand.keyVariable) or a file named by --key-file", command: ServerCommand.name)
        }
        // A header cannot carry a line break: a key with one is a mistake, not something to send.
        guard !key.isEmpty, !key.contains(where: { $0.isNewline || $0 == "\r" }) else {
            throw UsageError("the API key is empty or spans lines", command: ServerCommand.name)
        }
        return (url, key)
    }

    /// The first line of the file, which only its owner may read (as ssh holds private keys to it). The
    /// file opened is the file checked (`fstat` on the open descriptor).
    private static func keyFromFile(_ path: String) throws(UsageError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw UsageError("--key-file \(path): \(String(cString: strerror(errno)))", command: ServerCommand.name)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw UsageError("--key-file \(path) is not a file", command: ServerCommand.name)
        }
        guard status.st_mode & 0o077 == 0 else {
            throw UsageError(
                "--key-file \(path) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))); make it the owner's alone: chmod 600 \(path)",
                command: ServerCommand.name)
        }
        guard let data = try? handle.read(upToCount: keyFileLimit + 1) else {
            throw UsageError("--key-file \(path) cannot be read", command: ServerCommand.name)
        }
        guard data.count <= keyFileLimit, let text = String(data: data, encoding: .utf8) else {
            throw UsageError("--key-file \(path) is not a key (a line of text)", command: ServerCommand.name)
        }
        return String(text.prefix { $0 != "\n" && $0 != "\r\n" }).trimmingCharacters(in: .whitespaces)
    }
}
