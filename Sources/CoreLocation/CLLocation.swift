#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// A position with how sure it is and when it was taken (Apple's `CLLocation`).
// @unchecked Sendable: immutable.
open class CLLocation: NSObject, NSCopying, @unchecked Sendable {
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level.
    public let altitude: CLLocationDistance
    /// The radius in metres within which the true position lies; negative: the coordinate is not valid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// Negative: the altitude is not valid.
    public let verticalAccuracy: CLLocationAccuracy
    public let timestamp: Date

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy, verticalAccuracy: CLLocationAccuracy,
        timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.timestamp = timestamp
    }

    /// A position at `latitude` and `longitude`, now, with an accuracy of 0 (as Apple's initializer gives)
    /// and no altitude.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0, horizontalAccuracy: 0, verticalAccuracy: -1,
            timestamp: Date())
    }

    /// Metres to `location` along the Earth's surface (the WGS 84 ellipsoid), as region monitoring measures.
    public func distance(from location: CLLocation) -> CLLocationDistance {
        GeodesicDistance.metres(
            fromLatitude: coordinate.latitude, longitude: coordinate.longitude, toLatitude: location.coordinate.latitude,
            longitude: location.coordinate.longitude)
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m @ \(timestamp)"
    }
}
#endif
