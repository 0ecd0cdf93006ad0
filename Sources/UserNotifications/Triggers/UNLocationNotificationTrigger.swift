#if !canImport(Darwin)
import ChimeCore
import ChimeEngine
public import CoreLocation
import Foundation

/// Fires when the device enters or leaves a region, once or on every crossing (Apple's
/// `UNLocationNotificationTrigger`).
///
/// ```swift
/// let office = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.9780),
///                               radius: 150, identifier: "office")
/// office.notifyOnEntry = true
/// office.notifyOnExit = false
/// let trigger = UNLocationNotificationTrigger(region: office, repeats: false)
/// ```
///
/// The trigger keeps a copy of the region as it was given (Apple's property is `@NSCopying`), so changing
/// the region afterwards does not change the trigger. A region that is not a `CLCircularRegion`, lies off
/// the globe, has no positive radius or notifies on neither entry nor exit fails `add` with
/// `ChimeError.invalidRegion`, where Apple's would raise an exception.
// @unchecked Sendable: immutable (the region is a private copy, and handed out as copies).
public final class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    private let kept: CLRegion

    init(region: CLRegion, repeats: Bool, clock: (any NotificationClock)?) {
        kept = region.copy() as! CLRegion
        super.init(repeats: repeats, clock: clock)
    }

    public convenience init(region: CLRegion, repeats: Bool) {
        self.init(region: region, repeats: repeats, clock: nil)
    }

    /// The trigger's one engine form, read back from a pending request.
    convenience init(_ trigger: LocationTrigger, clock: (any NotificationClock)?) {
        let region = trigger.region
        let circle = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: region.latitude, longitude: region.longitude), radius: region.radius, identifier: region.identifier)
        circle.notifyOnEntry = region.notifyOnEntry
        circle.notifyOnExit = region.notifyOnExit
        self.init(region: circle, repeats: trigger.repeats, clock: clock)
    }

    public var region: CLRegion {
        kept.copy() as! CLRegion
    }

    override var equalityKey: AnyHashable {
        [AnyHashable(kept), AnyHashable(kept.notifyOnEntry), AnyHashable(kept.notifyOnExit), AnyHashable(repeats)]
    }

    override func notificationTrigger() throws(ChimeError) -> NotificationTrigger {
        guard let circle = kept as? CLCircularRegion else {
            throw ChimeError(.invalidRegion, field: "region", "a location trigger watches a CLCircularRegion")
        }
        let region = try CircularRegion(
            latitude: circle.center.latitude, longitude: circle.center.longitude, radius: circle.radius, identifier: circle.identifier,
            notifyOnEntry: circle.notifyOnEntry, notifyOnExit: circle.notifyOnExit)
        return .location(LocationTrigger(region: region, repeats: repeats))
    }
}
#endif
