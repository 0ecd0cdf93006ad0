// The system libsystemd (libsystemd-dev): sd-bus, the D-Bus client the desktop presenter speaks through.
// Nothing else is needed: the variadic sd-bus calls have non-variadic equivalents
// (sd_bus_message_append_basic, sd_bus_message_open_container, sd_bus_message_read_basic, ...).
#include <systemd/sd-bus.h>
