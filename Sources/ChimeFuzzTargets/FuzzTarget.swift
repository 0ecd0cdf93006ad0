/// A parser of bytes from outside, and what must hold for any bytes it is given besides not crashing:
/// a value it accepts re-encodes and parses back equal (a round trip), two ways of reading agree, limits
/// hold. `check` says whether the input was refused (with a typed error), taken with everything held, or
/// what did not hold.
///
/// The libFuzzer harness (`chime-fuzz`) traps on a violation, so libFuzzer keeps the input; the ordinary
/// tests run every seed of every corpus through the same checks.
public struct FuzzTarget: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Refused with a typed error, as bytes that are not the format must be.
        case refused
        /// Taken, and everything held.
        case held
        /// What did not hold.
        case violated(String)
    }

    public let name: String
    /// What the target reads, for `script/fuzz --list`.
    public let summary: String
    public let check: @Sendable ([UInt8]) -> Outcome

    public init(_ name: String, _ summary: String, check: @escaping @Sendable ([UInt8]) -> Outcome) {
        self.name = name
        self.summary = summary
        self.check = check
    }

    /// Every target, by name.
    public static let all: [FuzzTarget] = [
        .apnsPayload, .strictJSON, .stringsFile, .recipientBatch, .addRequests, .storeRecord, .categories, .commandLine, .serverSentEvents,
        .route, .apnsAnswer, .instantText, .headerFields, .apnsDoor, .apiBodies,
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// The input as text, when it is UTF-8.
func text(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}
