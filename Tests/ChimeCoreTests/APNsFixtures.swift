/// APNs bodies of an exact size in bytes.
enum APNsFixtures {
    /// The bytes of `{"aps":{},"pad":""}` around the padding.
    static let paddingFrame = 19

    /// A string that makes `{"aps":{},"pad":"…"}` exactly `size` bytes: as many `filler` characters as
    /// fit, then `x` for the bytes left over.
    static func padding(forBodyOf size: Int, filler: Character) -> String {
        let room = size - paddingFrame
        let fillerBytes = String(filler).utf8.count
        let fillers = room / fillerBytes
        return String(repeating: filler, count: fillers) + String(repeating: "x", count: room - fillers * fillerBytes)
    }

    /// `{"aps":{},"pad":"…"}` of exactly `size` bytes.
    static func body(bytes size: Int, filler: Character) -> String {
        #"{"aps":{},"pad":"\#(padding(forBodyOf: size, filler: filler))"}"#
    }
}
