/// Why a key or a signature could not be read or made: what the caller handed over is wrong, never a trap.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
