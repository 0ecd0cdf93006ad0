import CoreLocation
import ExampleSupport
import Foundation
import UserNotifications

let usage = CommandLineUsage(
    name: "geofence",
    text: """
        geofence — a geofenced reminder (UNLocationNotificationTrigger with a CLCircularRegion), in a terminal

        Usage:
          geofence [--at LATITUDE,LONGITUDE] [--radius METRES] [--on-exit]

        Asks to send notifications and to use your location, then reminds you when you arrive within RADIUS
        (default 150 m) of the place (default 37.5665,126.978, Seoul City Hall), or with --on-exit when you
        leave it. Location permission and positions come from GeoClue, the desktop's location service; the
        first position only tells where you are. Ctrl-D quits.

        """)

let arguments = Array(CommandLine.arguments.dropFirst())
usage.handleHelp(arguments)
var remaining = arguments
var place = CLLocationCoordinate2D(latitude: 37.5665, longitude: 126.978)
if let text = usage.value(of: "--at", in: &remaining) {
    let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 2, CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: parts[0], longitude: parts[1])) else {
        usage.fail("--at '\(text)' is not LATITUDE,LONGITUDE such as 37.5665,126.978")
    }
    place = CLLocationCoordinate2D(latitude: parts[0], longitude: parts[1])
}
let radius = usage.value(of: "--radius", in: &remaining).map { text -> CLLocationDistance in
    guard let metres = Double(text), metres > 0 else { usage.fail("--radius '\(text)' is not a number of metres") }
    return metres
} ?? 150
let onExit = remaining.contains("--on-exit")
remaining.removeAll { $0 == "--on-exit" }
guard remaining.isEmpty else { usage.fail("unexpected \(remaining[0])") }

let terminal = ExampleTerminal(appIdentifier: Geofence.appIdentifier, appName: "Office")
let location = LocationPermission()
do {
    guard try await Geofence.authorizeIfNeeded() else {
        usage.failure("notifications are not allowed, so no reminder can arrive")
    }
    guard await location.request() else {
        usage.failure("location is not allowed (GeoClue refused it, or is not installed), so the reminder could never fire")
    }
    try await Geofence.remind(at: place, radius: radius, onExit: onExit)
} catch {
    usage.failure("the reminder could not be set: \(error.localizedDescription)")
}
terminal.say(
    "Reminder set for when you \(onExit ? "leave" : "arrive within") \(radius.formatted()) m of \(place.latitude),\(place.longitude). Ctrl-D quits.")
await terminal.run()
