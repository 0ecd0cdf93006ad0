/// `chime categories set|list`: an app's notification categories (the buttons its notifications get),
/// registered from a JSON file.
///
/// The file holds an array of categories in Chime's JSON form:
/// ```json
/// [{"identifier": "meetingCategory",
///   "actions": [{"identifier": "accept", "title": "Accept"},
///               {"identifier": "decline", "title": "Decline", "options": ["destructive"]}],
///   "options": ["customDismissAction"]}]
/// ```
public enum CategoriesCommand: Equatable {
    case set(appIdentifier: String, file: String)
    case list(appIdentifier: String, json: Bool)

    public static let name = "categories"
    public static let abstract = "Register an app's categories from JSON, or list them."

    public static let helpText = """
        OVERVIEW: \(abstract)

        Setting replaces every category of the app, as UNUserNotificationCenter.setNotificationCategories does.

        USAGE: chime categories set <file.json> [--app <id>]
               chime categories list [--app <id>] [--json]

        The file is a JSON array of categories, such as
          [{"identifier": "meetingCategory",
            "actions": [{"identifier": "accept", "title": "Accept"},
                        {"identifier": "decline", "title": "Decline", "options": ["destructive"]}],
            "options": ["customDismissAction"]}]

        OPTIONS:
          --app <id>   The app (default: \(AddCommand.defaultApp)).
          --json       Print JSON for scripts (list).
          -h, --help   Show this help.

        """

    static func parse(_ arguments: [String]) throws(UsageError) -> CategoriesCommand {
        guard let verb = arguments.first else { throw UsageError("say set or list", command: name) }
        var app = AddCommand.defaultApp
        var json = false
        var files: [String] = []
        var remaining = arguments.dropFirst()
        while let argument = remaining.popFirst() {
            switch argument {
            case "--app":
                guard let value = remaining.popFirst(), !value.isEmpty, !value.hasPrefix("--") else {
                    throw UsageError("missing value for '--app'", command: name)
                }
                app = value
            case "--json": json = true
            case let option where option.hasPrefix("-"): throw UsageError("unknown option '\(option)'", command: name)
            default: files.append(argument)
            }
        }
        switch verb {
        case "set":
            guard files.count == 1, !json else { throw UsageError("categories set takes one JSON file", command: name) }
            return .set(appIdentifier: app, file: files[0])
        case "list":
            guard files.isEmpty else { throw UsageError("unexpected '\(files[0])'", command: name) }
            return .list(appIdentifier: app, json: json)
        default:
            throw UsageError("unknown categories command '\(verb)': set or list", command: name)
        }
    }
}
