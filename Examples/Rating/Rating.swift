import ExampleSupport
import Foundation

/// The user's rating, kept where the app finds it (on iOS, a container the app and its extension share).
struct Rating: Codable {
    static let appIdentifier = "com.example.rating"

    var stars: Int
    var date: Date

    private static let url = ExampleData.file("rating.json", appIdentifier: appIdentifier)

    static func load() -> Rating? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Rating.self, from: data)
    }

    func save() {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? data.write(to: Self.url, options: .atomic)
    }
}
