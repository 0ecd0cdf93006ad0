/// How a store reads a page of the delivered list: apps in byte order of their identifiers, each app's
/// notifications newest first. One index range of (app, sequence) cannot give apps ascending with
/// sequences descending, so a store reads one app at a time — each app one more seek, not a scan — and
/// this walk, shared by the stores, decides where a page starts and which app comes next.
public enum DeliveredListWalk {
    /// The page's rows with their apps, at most `limit`, in list order.
    ///
    /// - Parameters:
    ///   - appIdentifier: Only this app's notifications; `nil` for every app's.
    ///   - position: Where the previous page ended; `nil` for the first page.
    ///   - nextApp: The first app after the given one (the first of all for `nil`), in byte order, that
    ///     has delivered notifications.
    ///   - rows: Up to `limit` of an app's notifications, newest first, older than `before` when given.
    public static func page<Row>(
        appIdentifier: String?, after position: DeliveredListPosition?, limit: Int,
        nextApp: (_ after: String?) throws -> String?,
        rows: (_ app: String, _ before: Int64?, _ limit: Int) throws -> [Row]
    ) throws -> [(app: String, row: Row)] {
        var next: (app: String, before: Int64?)?
        switch (appIdentifier, position) {
        case (let app?, let position?) where position.appIdentifier == app: next = (app, position.sequence)
        // A position in an app before this one: the app's list starts from its newest; after it: done.
        case (let app?, let position?): next = position.appIdentifier.utf8.lexicographicallyPrecedes(app.utf8) ? (app, nil) : nil
        case (let app?, nil): next = (app, nil)
        case (nil, let position?): next = (position.appIdentifier, position.sequence)
        case (nil, nil): next = try nextApp(nil).map { ($0, nil) }
        }
        var page: [(app: String, row: Row)] = []
        while case let (app, before)? = next, page.count < limit {
            page += try rows(app, before, limit - page.count).map { (app, $0) }
            guard appIdentifier == nil, page.count < limit else { break }
            next = try nextApp(app).map { ($0, nil) }
        }
        return page
    }
}
