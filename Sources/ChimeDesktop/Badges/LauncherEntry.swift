/// The launcher badge signal that docks and panels listen to (Unity's `LauncherEntry` API, which
/// Plasma's task manager, Dash to Dock and Plank implement):
/// `com.canonical.Unity.LauncherEntry.Update(s app_uri, a{sv} properties)`.
///
/// There is no method to call and no reply: the app (here the presenter, on its behalf) broadcasts the
/// signal, and every dock that knows `app_uri` updates its icon.
enum LauncherEntry {
    static let interface = "com.canonical.Unity.LauncherEntry"
    static let member = "Update"

    /// The signal for `desktopEntry`'s badge: `count` (x) and `count-visible` (b, false for 0, which
    /// hides the badge). The object path is derived from the desktop entry, one per app.
    static func update(desktopEntry: String, count: Int) -> (path: String, arguments: [BusValue]) {
        let arguments: [BusValue] = [
            .string("application://\(desktopEntry).desktop"),
            .dictionary(["count": .int64(Int64(count)), "count-visible": .boolean(count > 0)]),
        ]
        return ("/com/canonical/unity/launcherentry/" + pathElement(desktopEntry), arguments)
    }

    /// `text` as one object path element (only `[A-Za-z0-9_]` are allowed): other bytes become `_` and
    /// two hex digits, as sd-bus's `sd_bus_path_encode` does.
    static func pathElement(_ text: String) -> String {
        guard !text.isEmpty else { return "_" }
        var element = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                element.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = Array("0123456789abcdef")
                element += "_" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return element
    }
}
