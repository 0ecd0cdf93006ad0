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

    /// On the globe, with a finite accuracy of zero or more (CoreLocation marks an invalid fix by a negative
    /// one; a fixed position, such as GeoClue's static source gives, may say 0).
    public var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude) && accuracy.isFinite && accuracy >= 0
    }
}

/// Where the device stands relative to a region, as far as the fixes so far tell.
public enum RegionState: String, Sendable, Hashable, Codable {
    /// No usable fix has come yet.
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
/// entry and exit; and the first fix decides where the device is without reporting a crossing (a region
/// set up while inside does not announce an entry).
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

    /// A fix whose accuracy is coarser than this many radii decides nothing: a position from the network
    /// address, good to a city, cannot say on which side of a street-sized circle the device is.
    public static let coarsestUsefulAccuracyInRadii = 4.0

    /// The hysteresis at the boundary for `fix`, in metres: the fix's accuracy, and at least a tenth of the
    /// radius up to 50 m, for precise fixes that jitter all the same. A crossing out is taken only once the
    /// fix's centre is this far beyond the edge, so a fix that moves within its accuracy never leaves.
    public func cushion(for fix: LocationFix) -> Double {
        max(fix.accuracy, min(monitoredRadius / 10, 50))
    }

    /// Where `fix` places the device, given where it was.
    ///
    /// - The first fix (from `unknown`) decides as iOS decides a region's initial state, and
    ///   `event(from:to:)` reports no crossing for it: by its centre (inside when within the radius)
    ///   when it is no coarser than the region; a coarser one only when its whole accuracy circle is
    ///   outside, and otherwise the state stays unknown for the next fix to decide. Deciding by the
    ///   centre is a choice between two errors: a device that stands near the edge when the trigger is
    ///   set may be placed on the wrong side and see one crossing it did not make, where a first fix
    ///   left undecided would lose the entry of a device that then walks in, which is what the trigger
    ///   is for.
    /// - After that the device is outside once the fix's centre is beyond the radius by `cushion(for:)`,
    ///   and inside once it is within it by the same cushion, at most half the radius: a fix coarser than
    ///   the region can so still place a device near its centre inside (a Wi-Fi position around an
    ///   office), while leaving takes the fix's whole accuracy. Between the two it stays where it was.
    ///   With a fix coarser than half the radius, two fixes at opposite ends of their accuracy can still
    ///   cross in and out; iOS's region monitoring does the same with coarse positions.
    /// - A fix coarser than `coarsestUsefulAccuracyInRadii` radii, or an invalid one, changes nothing.
    public func state(after fix: LocationFix, from previous: RegionState) -> RegionState {
        let radius = monitoredRadius
        guard fix.isValid, fix.accuracy <= radius * Self.coarsestUsefulAccuracyInRadii else { return previous }
        let distance = distance(to: fix)
        if previous == .unknown {
            if fix.accuracy <= radius { return distance <= radius ? .inside : .outside }
            return distance - fix.accuracy >= radius ? .outside : .unknown
        }
        let cushion = cushion(for: fix)
        if distance > radius + cushion { return .outside }
        if distance < radius - min(cushion, radius / 2) { return .inside }
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
