#if !canImport(Darwin)
import ChimeCore
public import Foundation

/// Whether a device is in a region (Apple's `CLRegionState`).
public enum CLRegionState: Int, Sendable {
    case unknown = 0
    case inside = 1
    case outside = 2
}

/// An area that location triggers watch (Apple's `CLRegion`); the one kind Chime monitors is
/// `CLCircularRegion`.
///
/// `notifyOnEntry` and `notifyOnExit` start as `true`; at least one must stay `true` for a trigger that
/// uses the region to be added.
// @unchecked Sendable: the two flags are behind a lock, everything else is immutable.
open class CLRegion: NSObject, NSCopying, @unchecked Sendable {
    public let identifier: String
    private let flags = NSLock()
    private var entry = true
    private var exit = true

    init(identifier: String) {
        self.identifier = identifier
    }

    /// Whether crossing into the region notifies.
    public var notifyOnEntry: Bool {
        get { flags.withLock { entry } }
        set { flags.withLock { entry = newValue } }
    }

    /// Whether crossing out of the region notifies.
    public var notifyOnExit: Bool {
        get { flags.withLock { exit } }
        set { flags.withLock { exit = newValue } }
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLRegion(identifier: identifier)
        copy.notifyOnEntry = notifyOnEntry
        copy.notifyOnExit = notifyOnExit
        return copy
    }
}

/// A circle on the Earth: a centre and a radius in metres (Apple's `CLCircularRegion`).
///
/// ```swift
/// let office = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.9780),
///                               radius: 150, identifier: "office")
/// office.notifyOnEntry = true
/// office.notifyOnExit = false
/// ```
///
/// Watching, Chime (as iOS) does not resolve circles under 100 m: a smaller radius is kept and watched
/// as 100 m.
// @unchecked Sendable: as `CLRegion`.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    public let center: CLLocationCoordinate2D
    public let radius: CLLocationDistance

    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }

    /// Whether `coordinate` lies within `radius` of the centre (on the WGS 84 ellipsoid).
    public func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        GeodesicDistance.metres(fromLatitude: center.latitude, longitude: center.longitude, toLatitude: coordinate.latitude, longitude: coordinate.longitude)
            <= radius
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = CLCircularRegion(center: center, radius: radius, identifier: identifier)
        copy.notifyOnEntry = notifyOnEntry
        copy.notifyOnExit = notifyOnExit
        return copy
    }

    /// Equal when of one identifier, centre and radius, as CoreLocation compares regions.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLCircularRegion else { return false }
        return other.identifier == identifier && other.center == center && other.radius == radius
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(identifier)
        hasher.combine(center)
        hasher.combine(radius)
        return hasher.finalize()
    }

    open override var description: String {
        "CLCircularRegion (identifier:'\(identifier)', center:<\(center.latitude),\(center.longitude)>, radius:\(radius)m)"
    }
}
#endif
