/// Which D-Bus bus a connection goes to.
///
/// ```swift
/// DesktopPresenter(configuration: .init(bus: .session))                       // the user's desktop
/// DesktopPresenter(configuration: .init(bus: .address("unix:path=/tmp/bus"))) // a private bus (tests)
/// ```
public enum BusAddress: Sendable, Hashable {
    /// The user's session bus: `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    case session
    /// The system bus: `$DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`.
    case system
    /// A bus at a D-Bus server address (`unix:path=…`, `unix:abstract=…`), spoken to as a bus client.
    case address(String)
}
