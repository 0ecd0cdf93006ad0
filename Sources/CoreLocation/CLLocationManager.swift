#if !canImport(Darwin)
import ChimeCore
import ChimeDesktop
import Dispatch
public import Foundation
import Synchronization

/// What the user allows an app to do with location (Apple's `CLAuthorizationStatus`).
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

/// Whether positions are exact or approximate (Apple's `CLAccuracyAuthorization`).
public enum CLAccuracyAuthorization: Int, Sendable {
    case fullAccuracy = 0
    case reducedAccuracy = 1
}

/// Why a location request failed (Apple's `CLError`, with its reason in words).
public struct CLError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// What a location manager tells its delegate (Apple's `CLLocationManagerDelegate`); every method is
/// optional, as in Apple's protocol.
public protocol CLLocationManagerDelegate: AnyObject {
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
}

extension CLLocationManagerDelegate {
    /// By default the older callback, as on iOS 14 and later: a delegate written for earlier systems still
    /// hears each change there, and one that implements this hears it here only, once.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        locationManager(manager, didChangeAuthorization: manager.authorizationStatus)
    }
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
}

/// The authorization side of Apple's `CLLocationManager`, as far as notification code uses it: an app
/// asks for location permission before it sets a location trigger.
///
/// ```swift
/// let manager = CLLocationManager()
/// manager.delegate = self
/// manager.requestWhenInUseAuthorization()   // later: locationManagerDidChangeAuthorization(_:)
/// ```
///
/// On Linux the user's location permission is GeoClue's to give (its agent asks, or its configuration
/// says), per program: a request asks GeoClue for a client in the app's name (`AppIdentity`: `CHIME_APP_ID`,
/// the bundle identifier, else the executable's name) and starts it once. Started, the app is authorized
/// (GeoClue does not tell foreground from background: `requestAlwaysAuthorization` gives
/// `.authorizedAlways`); refused, `.denied`; without GeoClue location services are off, and the status is
/// `.denied` as on iOS with location services disabled. The answer holds for the process, as on iOS until
/// the user changes it; the delegate hears of it on the main queue (through the iOS 14 method, or the older
/// one where a delegate has only that), and once right after the manager is made, as iOS 14 and later do.
// @unchecked Sendable: the delegate is behind a lock; everything else is immutable or process-wide behind one.
open class CLLocationManager: NSObject, @unchecked Sendable {
    private struct Shared {
        var status = CLAuthorizationStatus.notDetermined
        var asking = false
        var managers: [WeakManager] = []
    }

    private struct WeakManager {
        weak var manager: CLLocationManager?
    }

    private static let shared = Mutex(Shared())
    /// The bus GeoClue is on: the system bus (`$DBUS_SYSTEM_BUS_ADDRESS`).
    static let bus = BusAddress.system

    private let delegateBox = NSLock()
    private weak var storedDelegate: (any CLLocationManagerDelegate)?

    public override init() {
        super.init()
        Self.shared.withLock { shared in
            shared.managers.removeAll { $0.manager == nil }
            shared.managers.append(WeakManager(manager: self))
        }
        // iOS 14 and later tell a new manager's delegate its status once, soon after it is made.
        DispatchQueue.main.async { [weak self] in self?.tellDelegate() }
    }

    public weak var delegate: (any CLLocationManagerDelegate)? {
        get { delegateBox.withLock { storedDelegate } }
        set { delegateBox.withLock { storedDelegate = newValue } }
    }

    /// The app's location permission.
    public var authorizationStatus: CLAuthorizationStatus {
        Self.shared.withLock { $0.status }
    }

    @available(*, deprecated, message: "Use the authorizationStatus property")
    public class func authorizationStatus() -> CLAuthorizationStatus {
        shared.withLock { $0.status }
    }

    /// GeoClue gives what it has, and the app asks for exact positions: full accuracy.
    public var accuracyAuthorization: CLAccuracyAuthorization { .fullAccuracy }

    /// Whether a location service is installed: GeoClue's D-Bus service file for the system bus. Read from
    /// the file system, so it never waits on the bus (Apple's may block).
    public class func locationServicesEnabled() -> Bool {
        ["/usr/share/dbus-1/system-services", "/usr/local/share/dbus-1/system-services"].contains {
            FileManager.default.fileExists(atPath: $0 + "/org.freedesktop.GeoClue2.service")
        }
    }

    /// Circular regions are monitored (through location triggers); no other kind is.
    public class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
        regionClass is CLCircularRegion.Type
    }

    /// The largest radius a region may have: regions are not limited in size.
    public var maximumRegionMonitoringDistance: CLLocationDistance { CLLocationDistanceMax }

    /// Asks for permission to use location while the app runs; the answer comes to the delegate.
    public func requestWhenInUseAuthorization() {
        Self.request(granting: .authorizedWhenInUse)
    }

    /// Asks for permission to use location at any time; the answer comes to the delegate.
    public func requestAlwaysAuthorization() {
        Self.request(granting: .authorizedAlways)
    }

    /// Asks GeoClue once (one request at a time; while the status is decided, asking again changes nothing,
    /// as on iOS).
    private static func request(granting granted: CLAuthorizationStatus) {
        let proceed = shared.withLock { shared in
            guard shared.status == .notDetermined, !shared.asking else { return false }
            shared.asking = true
            return true
        }
        guard proceed else { return }
        Task.detached {
            // GeoClue's Start waits for its agent's prompt: the user has two minutes to answer.
            let source = GeoClueLocationSource(bus: bus, desktopID: AppIdentity.current()) { _ in }
            let answer = await source.start()
            await source.stop()
            // Refused, or not installed (location services off): denied. Installed but not answering: not
            // decided, and the app hears of the failure and may ask again.
            let status: CLAuthorizationStatus
            switch answer {
            case .running: status = granted
            case .unavailable where locationServicesEnabled(): status = .notDetermined
            default: status = .denied
            }
            let managers = shared.withLock { shared in
                shared.asking = false
                shared.status = status
                shared.managers.removeAll { $0.manager == nil }
                return shared.managers.compactMap(\.manager)
            }
            DispatchQueue.main.async {
                for manager in managers {
                    if status == .notDetermined, case .unavailable(let why) = answer {
                        manager.delegate?.locationManager(manager, didFailWithError: CLError(why))
                    } else {
                        manager.tellDelegate()
                    }
                }
            }
        }
    }

    private func tellDelegate() {
        delegate?.locationManagerDidChangeAuthorization(self)
    }
}
#endif
