import Foundation

/// The OpenAPI 3.1 document of chimed's HTTP API (`openapi.json` beside this file, embedded at build
/// time): the single description of every route, body and error, served at `GET /v1/openapi.json`. A test
/// holds it to `Route` both ways: every route is in it, and everything in it is a route.
public enum OpenAPIDocument {
    public static var bytes: [UInt8] { PackageResources.openapi_json }

    /// Server mode's document (`openapi-server.json`), served at its `GET /v1/openapi.json`. It writes only
    /// what is its own and refers to the bodies both APIs share (`NotificationRequest`,
    /// `DeliveredNotification`, `ErrorBody`, …) by name; they are taken from the daemon's document once,
    /// here, so each is written in one place.
    public static let serverModeBytes: [UInt8] = merging(PackageResources.openapi_server_json, from: PackageResources.openapi_json)

    /// `document` with every component it refers to (`#/components/<section>/<name>`, directly or through
    /// another) and does not define copied from `shared`'s components.
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
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            preconditionFailure("a merged OpenAPI document is JSON")
        }
        return Array(data)
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
