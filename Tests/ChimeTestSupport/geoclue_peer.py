#!/usr/bin/env python3
"""A scripted GeoClue 2 service for the location source's tests.

It speaks GeoClue's real D-Bus interface (https://www.freedesktop.org/software/geoclue/docs/) on the bus in
$DBUS_SYSTEM_BUS_ADDRESS (always a private dbus-daemon the test started): it owns org.freedesktop.GeoClue2,
whose Manager makes clients (CreateClient, GetClient, DeleteClient), each with GeoClue's properties
(Location, DistanceThreshold, TimeThreshold, DesktopId, RequestedAccuracyLevel, Active), Start, Stop and
LocationUpdated, and Location objects (Latitude, Longitude, Accuracy, Altitude, Speed, Heading, Description,
Timestamp). As GeoClue does, it refuses Start until DesktopId is set, refuses desktop ids its
configuration denies (--deny), and answers a client's methods only to the connection that created it.

Standard output: one JSON object per line.
  {"event": "ready", "unique_name": ":1.3"}
  {"call": "CreateClient", "client": "/org/freedesktop/GeoClue2/Client/1"}
  {"call": "Start", "client": ..., "desktop_id": "chimed", "accuracy": 8}
  {"call": "Stop", "client": ...} / {"call": "DeleteClient", "client": ...}
  {"refused": "Start", "client": ..., "error": "..."}
  {"event": "done", "command": {...}}    after a command from standard input was carried out

Standard input: one JSON command per line.
  {"fix": [latitude, longitude, accuracy]}   a new Location; every active client gets LocationUpdated
  {"spoof": [latitude, longitude, accuracy]} LocationUpdated to every active client from a second
                                             connection, which does not own the name: to be ignored
  {"stale": [latitude, longitude, accuracy]} LocationUpdated from GeoClue's own connection on every
                                             deleted client's path (a signal in flight when the client
                                             went): to be ignored by a later client
Options:
  --deny ID   Start fails with AccessDenied for this desktop id (repeatable)
  --hold      Start never answers, as while GeoClue's agent waits for the user
"""

import argparse
import asyncio
import json
import sys
import time

from dbus_next import BusType, Message, MessageType, Variant
from dbus_next.aio import MessageBus
from dbus_next.constants import PropertyAccess
from dbus_next.service import ServiceInterface, dbus_property, method, signal

MANAGER_PATH = "/org/freedesktop/GeoClue2/Manager"
CLIENT_INTERFACE = "org.freedesktop.GeoClue2.Client"


def emit(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


class Location(ServiceInterface):
    def __init__(self, latitude, longitude, accuracy):
        super().__init__("org.freedesktop.GeoClue2.Location")
        self.values = (latitude, longitude, accuracy)
        now = time.time()
        self.timestamp = [int(now), int((now % 1) * 1_000_000)]

    @dbus_property(access=PropertyAccess.READ)
    def Latitude(self) -> "d":
        return self.values[0]

    @dbus_property(access=PropertyAccess.READ)
    def Longitude(self) -> "d":
        return self.values[1]

    @dbus_property(access=PropertyAccess.READ)
    def Accuracy(self) -> "d":
        return self.values[2]

    @dbus_property(access=PropertyAccess.READ)
    def Altitude(self) -> "d":
        return -1.7976931348623157e308

    @dbus_property(access=PropertyAccess.READ)
    def Speed(self) -> "d":
        return -1.0

    @dbus_property(access=PropertyAccess.READ)
    def Heading(self) -> "d":
        return -1.0

    @dbus_property(access=PropertyAccess.READ)
    def Description(self) -> "s":
        return "scripted"

    @dbus_property(access=PropertyAccess.READ)
    def Timestamp(self) -> "(tt)":
        return self.timestamp


class Client(ServiceInterface):
    hold = False

    def __init__(self, path, owner, denied):
        super().__init__(CLIENT_INTERFACE)
        self.path, self.owner, self.denied = path, owner, denied
        self.location = "/"
        self.distance = 0
        self.time_threshold = 0
        self.desktop_id = ""
        self.accuracy = 0
        self.active = False

    @dbus_property(access=PropertyAccess.READ)
    def Location(self) -> "o":
        return self.location

    @dbus_property()
    def DistanceThreshold(self) -> "u":
        return self.distance

    @DistanceThreshold.setter
    def DistanceThreshold(self, value: "u"):
        self.distance = value

    @dbus_property()
    def TimeThreshold(self) -> "u":
        return self.time_threshold

    @TimeThreshold.setter
    def TimeThreshold(self, value: "u"):
        self.time_threshold = value

    @dbus_property()
    def DesktopId(self) -> "s":
        return self.desktop_id

    @DesktopId.setter
    def DesktopId(self, value: "s"):
        self.desktop_id = value

    @dbus_property()
    def RequestedAccuracyLevel(self) -> "u":
        return self.accuracy

    @RequestedAccuracyLevel.setter
    def RequestedAccuracyLevel(self, value: "u"):
        self.accuracy = value

    @dbus_property(access=PropertyAccess.READ)
    def Active(self) -> "b":
        return self.active

    @method()
    async def Start(self):
        from dbus_next.errors import DBusError
        if Client.hold:
            emit({"call": "Start", "client": self.path, "held": True})
            await asyncio.Event().wait()
        if not self.desktop_id:
            emit({"refused": "Start", "client": self.path, "error": "no DesktopId"})
            raise DBusError("org.freedesktop.DBus.Error.AccessDenied", "'DesktopId' property must be set")
        if self.desktop_id in self.denied:
            emit({"refused": "Start", "client": self.path, "error": "denied"})
            raise DBusError("org.freedesktop.DBus.Error.AccessDenied", "'%s' disallowed, no agent for UID" % self.desktop_id)
        self.active = True
        emit({"call": "Start", "client": self.path, "desktop_id": self.desktop_id, "accuracy": self.accuracy})

    @method()
    def Stop(self):
        self.active = False
        emit({"call": "Stop", "client": self.path})

    @signal()
    def LocationUpdated(self, old, new) -> "oo":
        return [old, new]


class Manager(ServiceInterface):
    def __init__(self, bus, denied):
        super().__init__("org.freedesktop.GeoClue2.Manager")
        self.bus, self.denied = bus, denied
        self.clients = {}
        self.made = []  # every client path, deleted ones too
        self.count = 0
        self.caller = None  # set by the message handler before each call

    @dbus_property(access=PropertyAccess.READ)
    def InUse(self) -> "b":
        return any(client.active for client in self.clients.values())

    @dbus_property(access=PropertyAccess.READ)
    def AvailableAccuracyLevel(self) -> "u":
        return 8

    @method()
    def CreateClient(self) -> "o":
        self.count += 1
        path = "/org/freedesktop/GeoClue2/Client/%d" % self.count
        client = Client(path, self.caller, self.denied)
        self.clients[path] = client
        self.made.append(path)
        self.bus.export(path, client)
        emit({"call": "CreateClient", "client": path})
        return path

    @method()
    def GetClient(self) -> "o":
        return self.CreateClient()

    @method()
    def DeleteClient(self, path: "o"):
        client = self.clients.pop(path, None)
        if client is not None:
            self.bus.unexport(path)
            emit({"call": "DeleteClient", "client": path})


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deny", action="append", default=[])
    parser.add_argument("--hold", action="store_true")
    options = parser.parse_args()
    Client.hold = options.hold

    bus = await MessageBus(bus_type=BusType.SYSTEM).connect()
    manager = Manager(bus, set(options.deny))
    bus.export(MANAGER_PATH, manager)

    def guard(message):
        # GeoClue answers a client only to the connection that created it; the manager learns its caller.
        if message.message_type != MessageType.METHOD_CALL:
            return None
        manager.caller = message.sender
        client = manager.clients.get(message.path)
        if client is not None and message.sender != client.owner:
            return Message.new_error(message, "org.freedesktop.DBus.Error.AccessDenied", "not the client's owner")
        return None

    bus.add_message_handler(guard)
    spoofer = await MessageBus(bus_type=BusType.SYSTEM).connect()
    await bus.request_name("org.freedesktop.GeoClue2")
    emit({"event": "ready", "unique_name": bus.unique_name})

    locations = 0
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = await reader.readline()
        if not line:
            break
        command = json.loads(line)
        if "fix" in command:
            locations += 1
            path = "/org/freedesktop/GeoClue2/Location/%d" % locations
            bus.export(path, Location(*command["fix"]))
            for client in manager.clients.values():
                if client.active:
                    old, client.location = client.location, path
                    client.LocationUpdated(old, path)
        elif "stale" in command:
            locations += 1
            path = "/org/freedesktop/GeoClue2/Location/%d" % locations
            bus.export(path, Location(*command["stale"]))
            for client_path in (made for made in manager.made if made not in manager.clients):
                await bus.send(Message.new_signal(client_path, CLIENT_INTERFACE, "LocationUpdated", "oo", ["/", path]))
        elif "spoof" in command:
            locations += 1
            path = "/org/freedesktop/GeoClue2/Location/%d" % locations
            bus.export(path, Location(*command["spoof"]))
            for client in manager.clients.values():
                if client.active:
                    await spoofer.send(Message.new_signal(client.path, CLIENT_INTERFACE, "LocationUpdated", "oo", [client.location, path]))
            await spoofer.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                                       interface="org.freedesktop.DBus", member="GetId"))
        await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                               interface="org.freedesktop.DBus", member="GetId"))
        emit({"event": "done", "command": command})


if __name__ == "__main__":
    asyncio.run(main())
