public import Foundation

/// How chimed's HTTP API writes its JSON, and its fixed limits; the server and its clients share these.
///
/// Dates are seconds since 1970 (a JSON number), keys are sorted, slashes are not escaped. The server
/// takes a request body of at most `maximumBodySize` bytes and answers a larger one with 413
/// `payloadTooLarge`, the limit in the error's `limit`.
public enum WireFormat {
    public static let version = "0.2.0"
    /// The largest request body the API takes: 1 MiB (a batch of about a thousand requests, or a few
    /// hundred categories). Bounds what one request can make the daemon hold in memory.
    public static let maximumBodySize = 1 << 20
    /// The media type of every request and answer body except the event streams.
    public static let jsonMediaType = "application/json"

    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

/// An empty JSON object, for routes that take or give nothing else.
public struct Empty: Codable, Sendable, Hashable {
    public init() {}
}
