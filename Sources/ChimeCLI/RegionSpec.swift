import ChimeCore
import Foundation

/// `--region "37.5665,126.978,150"`: a circle's centre in degrees (latitude, longitude) and its radius in
/// metres (`150`, `150m` or `1.5km`), for location triggers.
enum RegionSpec {
    static let example = "37.5665,126.978,150"

    /// The region, named by its own text (normalised: `37.5665,126.978,150`).
    static func parse(_ text: String, onEntry: Bool, onExit: Bool, command: String) throws(UsageError) -> CircularRegion {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == 3, let latitude = Double(fields[0]), let longitude = Double(fields[1]), let radius = metres(fields[2]) else {
            throw UsageError("--region '\(text)' is not a region such as \(example) (latitude,longitude,radius in metres)", command: command)
        }
        do {
            return try CircularRegion(
                latitude: latitude, longitude: longitude, radius: radius, identifier: "\(number(latitude)),\(number(longitude)),\(number(radius))",
                notifyOnEntry: onEntry, notifyOnExit: onExit)
        } catch {
            throw UsageError("--region '\(text)': \(error.message)", command: command)
        }
    }

    /// `37.5665,126.978 (150 m)`.
    static func format(_ region: CircularRegion) -> String {
        "\(number(region.latitude)),\(number(region.longitude)) (\(number(region.radius)) m)"
    }

    /// When a location trigger fires, as a person reads it: "on entering 37.5665,126.978 (150 m)".
    static func describe(_ region: CircularRegion) -> String {
        let key = region.notifyOnEntry && region.notifyOnExit ? "region.entryOrExit" : region.notifyOnEntry ? "region.entry" : "region.exit"
        return localized(key, format(region))
    }

    private static func metres(_ text: String) -> Double? {
        if text.hasSuffix("km") { return Double(text.dropLast(2)).map { $0 * 1000 } }
        if text.hasSuffix("m") { return Double(text.dropLast()) }
        return Double(text)
    }

    /// A number as typed: no trailing `.0`.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
