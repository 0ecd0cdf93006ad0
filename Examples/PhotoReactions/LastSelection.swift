import ExampleSupport
import Foundation

/// The user's last answer to a photo notification, kept between runs (the seed keeps it in
/// `UserDefaults` under "userSelection" and shows a thumb on the next start).
struct LastSelection: Codable {
    var actionIdentifier: String
    var date: Date

    private static let url = ExampleData.file("userSelection.json", appIdentifier: PhotoReactions.appIdentifier)

    static func load() -> LastSelection? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(LastSelection.self, from: data)
    }

    func save() {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? data.write(to: Self.url, options: .atomic)
    }

    /// What the start screen shows for it, as the seed's `updateSelection` picks an image.
    var summary: String {
        switch actionIdentifier {
        case ActionIdentifier.like: "👍 Like"
        case ActionIdentifier.dislike: "👎 Dislike"
        case ActionIdentifier.unfollow: "Unfollow"
        case ActionIdentifier.setting: "Setting"
        case "com.apple.UNNotificationDismissActionIdentifier": "dismissed it"
        default: "opened it"
        }
    }
}
