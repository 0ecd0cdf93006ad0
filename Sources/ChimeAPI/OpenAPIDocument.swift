import Foundation

/// The OpenAPI 3.1 document of chimed's HTTP API (`openapi.json` beside this file, embedded at build
/// time): the single description of every route, body and error, served at `GET /v1/openapi.json`. A test
/// holds it to `Route` both ways: every route is in it, and everything in it is a route.
public enum OpenAPIDocument {
    public static var bytes: [UInt8] { PackageResources.openapi_json }

    /// Server mode's document (`openapi-server.json`), served at its `GET /v1/openapi.json`. It writes only
    /// what is its own and refers to the bodies both APIs share (`NotificationRequest`,
    /// `DeliveredNotification`, `ErrorBody`, …) by name; they are taken from the daemon's document once,
    /// here, so each is written in one place. Where a shared description speaks of the per-user daemon (the
    /// user's zone, its routes), `x-shared-descriptions` gives server mode's text for it, by JSON pointer.
    public static let serverModeBytes: [UInt8] = merging(PackageResources.openapi_server_json, from: PackageResources.openapi_json)

    /// The extension member of server mode's document that replaces shared descriptions: a JSON pointer
    /// (RFC 6901) into the merged document → the text. Taken out of the served document.
    public static let sharedDescriptionsKey = "x-shared-descriptions"

    /// `document` with every component it refers to (`#/components/<section>/<name>`, directly or through
    /// another) and does not define copied from `shared`'s components, then the descriptions its
    /// `x-shared-descriptions` names replaced. A pointer that names no description is a mistake in the
    /// embedded documents: it stops the process at once, in any test that serves the document.
    static func merging(_ document: [UInt8], from shared: [UInt8]) -> [UInt8] {
        guard var document = try? JSONSerialization.jsonObject(with: Data(document)) as? [String: Any],
            let shared = (try? JSONSerialization.jsonObject(with: Data(shared)) as? [String: Any])?["components"] as? [String: Any]
        else { preconditionFailure("the embedded OpenAPI documents are JSON objects") }
        var components = document["components"] as? [String: Any] ?? [:]
        var unresolved = references(in: document)
        while let reference = unresolved.popFirst() {
            let parts = reference.split(separator: "/").map(String.init)
            guard parts.count == 4, parts[0] == "#", parts[1] == "components" else { continue }
            let (section, name) = (parts[2], parts[3])
            var own = components[section] as? [String: Any] ?? [:]
            guard own[name] == nil, let value = (shared[section] as? [String: Any])?[name] else { continue }
            own[name] = value
            components[section] = own
            unresolved.formUnion(references(in: value))
        }
        document["components"] = components
        let replacements = document.removeValue(forKey: sharedDescriptionsKey) as? [String: String] ?? [:]
        for (pointer, text) in replacements {
            let path = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            guard path.last == "description", let replaced = replacing(in: document, at: path[...], with: text) as? [String: Any] else {
                preconditionFailure("\(sharedDescriptionsKey): \(pointer) names no description of the merged document")
            }
            document = replaced
        }
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            preconditionFailure("a merged OpenAPI document is JSON")
        }
        return Array(data)
    }

    /// `value` with the string at `path` replaced by `text`; `nil` when there is no string there.
    static func replacing(in value: Any, at path: ArraySlice<String>, with text: String) -> Any? {
        guard let first = path.first else { return value is String ? text : nil }
        if var object = value as? [String: Any], let member = object[first] {
            guard let replaced = replacing(in: member, at: path.dropFirst(), with: text) else { return nil }
            object[first] = replaced
            return object
        }
        if var array = value as? [Any], let index = Int(first), array.indices.contains(index) {
            guard let replaced = replacing(in: array[index], at: path.dropFirst(), with: text) else { return nil }
            array[index] = replaced
            return array
        }
        return nil
    }

    /// Every `$ref` in a JSON value.
    static func references(in value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            var found = Set<String>()
            for (key, member) in object {
                if key == "$ref", let reference = member as? String { found.insert(reference) } else { found.formUnion(references(in: member)) }
            }
            return found
        }
        if let array = value as? [Any] { return array.reduce(into: Set<String>()) { $0.formUnion(references(in: $1)) } }
        return []
    }
}
