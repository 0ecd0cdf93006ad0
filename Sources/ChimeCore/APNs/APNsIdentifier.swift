/// Apple's identifiers for a developer team and for a key (`TEAM000001`, `KEY0000001`): ten characters,
/// capital letters and digits, as Apple's developer site shows them.
public enum APNsIdentifier {
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }
}
