/// The JSON shape of Chime's option sets: the names of the options that are set, in Apple's bit order
/// (`["authenticationRequired", "destructive"]`), so stored and printed values read as words.
///
/// Decoding also accepts Apple's raw value (`3`). A value with bits Chime has no name for is encoded as
/// its raw value, so nothing is lost.
enum OptionSetCoding {
    static func encode<Options: OptionSet>(
        _ options: Options, names: [(Options, String)], to encoder: any Encoder
    ) throws where Options.RawValue == UInt, Options.Element == Options {
        var container = encoder.singleValueContainer()
        let named = names.reduce(Options()) { $0.union($1.0) }
        if named.isSuperset(of: options) {
            try container.encode(names.filter { options.contains($0.0) }.map(\.1))
        } else {
            try container.encode(options.rawValue)
        }
    }

    static func decode<Options: OptionSet>(
        names: [(Options, String)], from decoder: any Decoder
    ) throws -> Options where Options.RawValue == UInt, Options.Element == Options {
        let container = try decoder.singleValueContainer()
        if let rawValue = try? container.decode(UInt.self) {
            return Options(rawValue: rawValue)
        }
        var options = Options()
        for name in try container.decode([String].self) {
            guard let option = names.first(where: { $0.1 == name })?.0 else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown option name")
            }
            options.insert(option)
        }
        return options
    }
}

/// The JSON shape of Chime's Apple-numbered enums: the case name (`"notDetermined"`), as
/// `InterruptionLevel` does with its APNs name. Decoding also accepts Apple's raw value (`0`).
///
/// An enum conforms by listing its case names in raw-value order (its raw values are 0, 1, 2, ...):
/// `extension AlertStyle: NamedCaseCodable { static let caseNames = ["none", "banner", "alert"] }`.
/// A table rather than `String(describing:)`, which goes through reflection and dominated the cost of
/// decoding settings.
protocol NamedCaseCodable: Codable, CaseIterable, RawRepresentable where RawValue == Int {
    /// The names of the cases, indexed by raw value.
    static var caseNames: [String] { get }
}

extension NamedCaseCodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let index = Self.caseNames.firstIndex(of: text), let value = Self(rawValue: index) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown case name")
            }
            self = value
            return
        }
        guard let value = Self(rawValue: try container.decode(Int.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown raw value")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.caseNames[rawValue])
    }
}
