public import Foundation

/// A position report from a location source: where, how sure (the radius in metres within which the true
/// position lies, as CoreLocation's `horizontalAccuracy`), and when.
public struct LocationFix: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double
    public let accuracy: Double
    public let timestamp: Date

    public init(latitude: Double, longitude: Double, accuracy: Double, timestamp: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.timestamp = timestamp
    }

    /// On the globe, with a positive finite accuracy (CoreLocation marks an invalid fix by a negative one).
    public var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude) && accuracy.isFinite && accuracy > 0
    }
}

/// Where the device stands relative to a region, as far as the fixes so far tell.
public enum RegionState: String, Sendable, Hashable, Codable {
    /// No fix has placed it clearly on either side yet.
    case unknown
    case inside
    case outside
}

/// A boundary crossing that a trigger may fire on.
public enum RegionEvent: String, Sendable, Hashable, Codable {
    case entry
    case exit
}

/// Region monitoring as iOS does it: a crossing is reported only once the position is past the boundary by
/// a cushion, so a device standing at the edge, or a fix that jitters across it, does not flap between
/// entry and exit; and the first fix that places the device decides where it is without reporting a
/// crossing (a region set up while inside does not announce an entry).
extension CircularRegion {
    /// The smallest circle watched: fixes from Wi-Fi and cell positioning are good to tens of metres, and
    /// iOS does not monitor smaller regions reliably either (Apple advises 100 m or more). A smaller radius
    /// is kept as given and watched as this one.
    public static let monitoredRadiusFloor = 100.0

    /// The radius watched: the region's own, at least `monitoredRadiusFloor`.
    public var monitoredRadius: Double {
        max(radius, Self.monitoredRadiusFloor)
    }

    /// Metres from the region's centre to the fix.
    public func distance(to fix: LocationFix) -> Double {
        GeodesicDistance.metres(fromLatitude: latitude, longitude: longitude, toLatitude: fix.latitude, longitude: fix.longitude)
    }

    /// Where `fix` places the device, given where it was.
    ///
    /// The cushion is the fix's accuracy, and at least a tenth of the radius: the device is inside once
    /// the distance plus the cushion is within the radius, and outside once the distance minus the cushion
    /// is beyond it; between the two it stays where it was. A fix coarser than the region itself can so
    /// only ever place the device outside. An invalid fix changes nothing.
    public func state(after fix: LocationFix, from previous: RegionState) -> RegionState {
        guard fix.isValid else { return previous }
        let radius = monitoredRadius
        let cushion = max(fix.accuracy, radius / 10)
        let distance = distance(to: fix)
        if distance + cushion <= radius { return .inside }
        if distance - cushion >= radius { return .outside }
        return previous
    }

    /// The crossing from `previous` to `next` that this region notifies of, if any: an entry or exit per
    /// `notifyOnEntry` and `notifyOnExit`; none from `unknown`.
    public func event(from previous: RegionState, to next: RegionState) -> RegionEvent? {
        switch (previous, next) {
        case (.outside, .inside): notifyOnEntry ? .entry : nil
        case (.inside, .outside): notifyOnExit ? .exit : nil
        default: nil
        }
    }
}
