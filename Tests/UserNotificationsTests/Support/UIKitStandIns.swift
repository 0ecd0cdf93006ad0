import Foundation
import UserNotifications

// The UIKit pieces the seeds' code names, so it compiles as written: an app delegate's base class and
// protocol, the application and its launch options, and a view controller with an image view. They do
// nothing; the notification code around them is what the tests run.

class UIResponder: NSObject {}

protocol UIApplicationDelegate: AnyObject {}

final class UIApplication {
    struct LaunchOptionsKey: Hashable, RawRepresentable {
        var rawValue: String
    }

    static let shared = UIApplication()
}

class UIViewController: NSObject {
    func viewDidLoad() {}
    func viewWillAppear(_ animated: Bool) {}
}

final class UIImage: Equatable {
    let name: String

    init?(systemName: String) {
        name = "system:" + systemName
    }

    init?(named: String) {
        name = named
    }

    static func == (lhs: UIImage, rhs: UIImage) -> Bool {
        lhs.name == rhs.name
    }
}

final class UIImageView {
    var image: UIImage?
}

/// An app's `UserDefaults`, kept in memory: Foundation's on Linux writes a file under `~/.config`, and
/// tests must leave nothing behind.
final class InMemoryDefaults: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Any] = [:]

    func set(_ value: Any?, forKey key: String) {
        lock.withLock { values[key] = value }
    }

    func string(forKey key: String) -> String? {
        lock.withLock { values[key] as? String }
    }

    @discardableResult
    func synchronize() -> Bool {
        true
    }
}
