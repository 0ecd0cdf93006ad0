#if !canImport(Darwin)
/// Degrees of latitude or longitude (WGS 84), as CoreLocation measures them.
public typealias CLLocationDegrees = Double
/// Metres.
public typealias CLLocationDistance = Double
/// The radius in metres within which a true position lies; negative when the position is not valid.
public typealias CLLocationAccuracy = Double

/// The largest distance: what `maximumRegionMonitoringDistance` and an unlimited distance give.
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude

public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// What an app with approximate location only is given.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000

/// A point on the Earth in WGS 84 degrees (Apple's `CLLocationCoordinate2D`).
///
/// ```swift
/// let office = CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.9780)
/// ```
public struct CLLocationCoordinate2D: Sendable, Hashable, Codable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() {
        self.init(latitude: 0, longitude: 0)
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An invalid coordinate, as CoreLocation gives when it has none.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether the coordinate lies on the globe: latitude within −90…90 and longitude within −180…180.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90.0...90.0).contains(coordinate.latitude) && (-180.0...180.0).contains(coordinate.longitude)
}

public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}
#endif
