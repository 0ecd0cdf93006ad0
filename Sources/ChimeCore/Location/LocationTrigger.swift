/// Fires when the device enters or leaves a circular region (Apple's `UNLocationNotificationTrigger` with a
/// `CLCircularRegion`). When a position crosses the boundary is `CircularRegion.state(after:from:)`'s to say
/// (RegionMonitoring.swift).
public struct LocationTrigger: Sendable, Hashable, Codable {
    public let region: CircularRegion
    public let repeats: Bool

    public init(region: CircularRegion, repeats: Bool) {
        self.region = region
        self.repeats = repeats
    }
}

/// A circle on the Earth's surface (Apple's `CLCircularRegion`).
public struct CircularRegion: Sendable, Hashable, Codable {
    /// Latitude in degrees, -90...90.
    public let latitude: Double
    /// Longitude in degrees, -180...180.
    public let longitude: Double
    /// Radius in metres, greater than 0.
    public let radius: Double
    public let identifier: String
    public let notifyOnEntry: Bool
    public let notifyOnExit: Bool

    /// - Throws: `ChimeError.invalidRegion` for a coordinate off the globe, a radius that is not a positive
    ///   finite number, or a region that notifies on neither entry nor exit; `ChimeError.invalidIdentifier`
    ///   for an empty identifier.
    public init(
        latitude: Double, longitude: Double, radius: Double, identifier: String,
        notifyOnEntry: Bool = true, notifyOnExit: Bool = true
    ) throws(ChimeError) {
        guard (-90.0...90.0).contains(latitude) else {
            throw ChimeError(.invalidRegion, field: "latitude", "latitude must lie in -90...90 degrees")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw ChimeError(.invalidRegion, field: "longitude", "longitude must lie in -180...180 degrees")
        }
        guard radius.isFinite, radius > 0 else {
            throw ChimeError(.invalidRegion, field: "radius", "the radius must be a positive number of metres")
        }
        guard !identifier.isEmpty else {
            throw ChimeError(.invalidIdentifier, field: "identifier", "a region needs a non-empty identifier")
        }
        guard notifyOnEntry || notifyOnExit else {
            throw ChimeError(.invalidRegion, field: "notifyOnEntry", "a region must notify on entry, on exit, or both")
        }
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.identifier = identifier
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
    }

    private enum CodingKeys: String, CodingKey {
        case latitude, longitude, radius, identifier, notifyOnEntry, notifyOnExit
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: c.decode(Double.self, forKey: .latitude),
            longitude: c.decode(Double.self, forKey: .longitude),
            radius: c.decode(Double.self, forKey: .radius),
            identifier: c.decode(String.self, forKey: .identifier),
            notifyOnEntry: c.decode(Bool.self, forKey: .notifyOnEntry),
            notifyOnExit: c.decode(Bool.self, forKey: .notifyOnExit))
    }
}
