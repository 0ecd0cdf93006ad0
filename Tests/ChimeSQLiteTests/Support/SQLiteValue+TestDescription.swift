public import ChimeSQLite
public import Testing

// SQLiteValue's own description names only the storage class, so that logs never show values; test
// failures should show them.
extension SQLiteValue: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .null: ".null"
        case .integer(let value): ".integer(\(value))"
        case .real(let value): ".real(\(value))"
        case .text(let value): ".text(\(value.debugDescription))"
        case .blob(let value): ".blob(\(value.count) bytes)"
        }
    }
}
