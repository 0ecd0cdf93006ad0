#!/usr/bin/env python3
"""A scripted freedesktop notification server for the desktop presenter's tests.

It speaks the real protocol on the bus in $DBUS_SESSION_BUS_ADDRESS (always a private dbus-daemon the
test started): it owns org.freedesktop.Notifications and implements Notify, CloseNotification,
GetCapabilities, GetServerInformation and, when asked, the Inhibited property
(https://specifications.freedesktop.org/notification-spec/latest/).

Standard output: one JSON object per line, for the test to read.
  {"event": "ready", "unique_name": ":1.3"}       once the name is owned and every match is in place
  {"call": "Notify", "id": 1, "app_name": ..., "replaces_id": 0, "app_icon": ..., "summary": ...,
   "body": ..., "actions": [...], "hints": {...}, "expire_timeout": -1}
  {"call": "CloseNotification", "id": 1}
  {"call": "GetCapabilities"} / {"call": "GetServerInformation"}
  {"signal": "LauncherEntry.Update", "sender": ":1.4", "path": ..., "app_uri": ..., "properties": {...}}
  {"event": "done", "command": {...}}            after a command from standard input was carried out

Standard input: one JSON command per line; the signals it asks for are sent before "done" is printed.
  {"invoke": [id, "key"]}         ActionInvoked(id, key)
  {"close": [id, reason]}         NotificationClosed(id, reason)
  {"reply": [id, "text"]}         NotificationReplied(id, text) (KDE's inline reply)
  {"spoof_invoke": [id, "key"]}   ActionInvoked(id, key) sent from a second connection, which does not own
                                  the name: a client that checks the sender must ignore it
  {"inhibited": true}             sets Inhibited and emits PropertiesChanged
  {"locked": true}                sets the fake logind session's LockedHint and emits PropertiesChanged
  {"hang": true}                  from now on Notify never answers (the client's timeout must)

Options:
  --capabilities a,b,c   what GetCapabilities returns (default: actions,body,body-markup,persistence,sound)
  --inhibited-property   export the Inhibited property (read-only boolean, false at first)
  --name NAME            the name GetServerInformation gives (default chime-fake; gnome-shell to pass for GNOME)
  --logind               also own org.freedesktop.login1 with one session (id "7") of user 1000, whose
                         LockedHint starts false: a stand-in for the system bus's logind
"""

import argparse
import asyncio
import json
import sys

from dbus_next import BusType, Message, MessageType, Variant
from dbus_next.aio import MessageBus
from dbus_next.constants import PropertyAccess
from dbus_next.service import ServiceInterface, dbus_property, method, signal

PATH = "/org/freedesktop/Notifications"
SESSION_PATH = "/org/freedesktop/login1/session/_37"
USER_PATH = "/org/freedesktop/login1/user/_1000"


def emit(record):
    print(json.dumps(record, sort_keys=True), flush=True)


def plain(value):
    """A D-Bus value as JSON: variants unwrapped, bytes as their length."""
    if isinstance(value, Variant):
        return plain(value.value)
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": len(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


SERVER_NAME = "chime-fake"


class Notifications(ServiceInterface):
    def __init__(self, capabilities):
        super().__init__("org.freedesktop.Notifications")
        self.capabilities = capabilities
        self.next_id = 1
        self.hanging = False

    @method()
    async def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",
                     actions: "as", hints: "a{sv}", expire_timeout: "i") -> "u":
        if replaces_id:
            nid = replaces_id
        else:
            nid = self.next_id
            self.next_id += 1
        emit({"call": "Notify", "id": nid, "app_name": app_name, "replaces_id": replaces_id,
              "app_icon": app_icon, "summary": summary, "body": body, "actions": actions,
              "hints": plain(hints), "expire_timeout": expire_timeout})
        if self.hanging:
            await asyncio.Future()  # never answers
        return nid

    @method()
    def CloseNotification(self, nid: "u"):
        emit({"call": "CloseNotification", "id": nid})
        self.NotificationClosed(nid, 3)

    @method()
    def GetCapabilities(self) -> "as":
        emit({"call": "GetCapabilities"})
        return self.capabilities

    @method()
    def GetServerInformation(self) -> "ssss":
        emit({"call": "GetServerInformation"})
        return [SERVER_NAME, "chime", "1.0", "1.2"]

    @signal()
    def ActionInvoked(self, nid, key) -> "us":
        return [nid, key]

    @signal()
    def NotificationClosed(self, nid, reason) -> "uu":
        return [nid, reason]

    @signal()
    def NotificationReplied(self, nid, text) -> "us":
        return [nid, text]


class InhibitingNotifications(Notifications):
    """The same server with the Inhibited property of newer servers (KDE Plasma, the spec's draft)."""

    def __init__(self, capabilities):
        super().__init__(capabilities)
        self.inhibited = False

    @dbus_property(access=PropertyAccess.READ)
    def Inhibited(self) -> "b":
        return self.inhibited


class LoginManager(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.login1.Manager")

    @method()
    def GetSession(self, session_id: "s") -> "o":
        emit({"call": "GetSession", "session_id": session_id})
        if session_id != "7":
            raise_no_such("org.freedesktop.login1.NoSuchSession", "No session '%s' known" % session_id)
        return SESSION_PATH

    @method()
    def GetSessionByPID(self, pid: "u") -> "o":
        emit({"call": "GetSessionByPID", "pid": pid})
        raise_no_such("org.freedesktop.login1.NoSessionForPID", "PID %d does not belong to any known session" % pid)

    @method()
    def GetUser(self, uid: "u") -> "o":
        emit({"call": "GetUser", "uid": uid})
        return USER_PATH


def raise_no_such(name, text):
    from dbus_next.errors import DBusError
    raise DBusError(name, text)


class LoginSession(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.login1.Session")
        self.locked = False

    @dbus_property(access=PropertyAccess.READ)
    def LockedHint(self) -> "b":
        return self.locked

    @dbus_property(access=PropertyAccess.READ)
    def Id(self) -> "s":
        return "7"


class LoginUser(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.login1.User")

    @dbus_property(access=PropertyAccess.READ)
    def Display(self) -> "(so)":
        return ["7", SESSION_PATH]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--capabilities", default="actions,body,body-markup,persistence,sound")
    parser.add_argument("--inhibited-property", action="store_true")
    parser.add_argument("--logind", action="store_true")
    parser.add_argument("--name", default="chime-fake")
    options = parser.parse_args()
    global SERVER_NAME
    SERVER_NAME = options.name
    capabilities = [c for c in options.capabilities.split(",") if c]

    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    server = InhibitingNotifications(capabilities) if options.inhibited_property else Notifications(capabilities)
    bus.export(PATH, server)

    # Badges: log every LauncherEntry.Update on the bus, as a dock would see it.
    def on_message(message):
        if message.message_type == MessageType.SIGNAL and message.interface == "com.canonical.Unity.LauncherEntry" \
                and message.member == "Update":
            emit({"signal": "LauncherEntry.Update", "sender": message.sender, "path": message.path,
                  "app_uri": message.body[0], "properties": plain(message.body[1])})
        return None

    bus.add_message_handler(on_message)
    await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                           interface="org.freedesktop.DBus", member="AddMatch", signature="s",
                           body=["type='signal',interface='com.canonical.Unity.LauncherEntry'"]))

    session = None
    if options.logind:
        session = LoginSession()
        bus.export("/org/freedesktop/login1", LoginManager())
        bus.export(SESSION_PATH, session)
        bus.export(USER_PATH, LoginUser())
        await bus.request_name("org.freedesktop.login1")

    spoofer = await MessageBus(bus_type=BusType.SESSION).connect()
    await bus.request_name("org.freedesktop.Notifications")
    emit({"event": "ready", "unique_name": bus.unique_name})

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        command = json.loads(line)
        if "invoke" in command:
            server.ActionInvoked(*command["invoke"])
        elif "close" in command:
            server.NotificationClosed(*command["close"])
        elif "reply" in command:
            server.NotificationReplied(*command["reply"])
        elif "spoof_invoke" in command:
            nid, key = command["spoof_invoke"]
            await spoofer.send(Message.new_signal(PATH, "org.freedesktop.Notifications", "ActionInvoked", "us", [nid, key]))
            await spoofer.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                                       interface="org.freedesktop.DBus", member="GetId"))
        elif "inhibited" in command:
            server.inhibited = bool(command["inhibited"])
            server.emit_properties_changed({"Inhibited": server.inhibited})
        elif "locked" in command:
            session.locked = bool(command["locked"])
            session.emit_properties_changed({"LockedHint": session.locked})
        elif "hang" in command:
            server.hanging = True
        # Signals are queued on the connection in order; a round trip to the bus makes sure they left.
        await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                               interface="org.freedesktop.DBus", member="GetId"))
        emit({"event": "done", "command": command})


if __name__ == "__main__":
    asyncio.run(main())
