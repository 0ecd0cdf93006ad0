#!/usr/bin/env python3
"""Reads store records by the layout StoreRecordFormat documents, and compares each with the JSON that
JSONEncoder wrote for the same value.

Input: a file of lines "<kind>\t<record hex>\t<JSON text>", the kind being request, delivered (a
delivered notification, which holds a request), pending:<key hex> (a request's record from a pending row
whose key is that identifier: it may leave out its identifier, which is then the key's, and any it holds
must be the key's) or other. Written independently of the Swift reader, from the
format's description: the two markers, the value tags, wide and compact container sizes, and the
compact form's key numbers. A compact request record may leave out fields at the defaults
NotificationContent's and NotificationRequest's init(from:) give an absent key, and a compact delivered
record a false isLate (DeliveredNotification's init(from:) default); those defaults are filled in before
comparing. Beyond equal values, each numeric field of Chime's types must carry the tag
its type writes (a double, a signed integer), a zero its sign, a Float field a value a Float holds, and
no object a key twice. Prints "ok <count>", or the first difference and exits 1.
"""
import json
import math
import struct
import sys

# StoreRecordKnownKey, in its order: a record holds the positions.
KNOWN_KEYS = [
    "identifier", "content", "trigger", "misfirePolicy",
    "title", "subtitle", "body", "badge", "sound", "attachments", "userInfo", "categoryIdentifier", "threadIdentifier",
    "targetContentIdentifier", "interruptionLevel", "relevanceScore", "filterCriteria", "launchImageName", "summaryArgument",
    "summaryArgumentCount",
    "key", "arguments",
    "type", "timeInterval", "repeats", "dateComponents",
    "era", "year", "month", "day", "hour", "minute", "second", "nanosecond", "weekday", "weekdayOrdinal", "quarter", "weekOfMonth",
    "weekOfYear", "yearForWeekOfYear", "calendar", "timeZone",
    "request", "date", "scheduledDate", "isLate", "actionsOverride",
    "kind", "name", "volume",
    "latitude", "longitude", "radius", "notifyOnEntry", "notifyOnExit",
    "url", "fileSize", "options",
    "requestIdentifier", "firstMissedDate", "lastMissedDate", "count", "outcome", "detectedDate",
    "dayOfYear", "isLeapMonth",
]


class Damaged(Exception):
    pass


# Numbers keep their tag, so the comparison can check that each field has the one its type writes.
class Signed(int):
    pass


class Unsigned(int):
    pass


class Double(float):
    pass


# Fields of Chime's types and the tag their values have (inside userInfo, any key may hold anything).
DOUBLE_KEYS = {"relevanceScore", "timeInterval", "date", "scheduledDate", "volume", "latitude", "longitude", "radius",
               "firstMissedDate", "lastMissedDate", "detectedDate"}
SIGNED_KEYS = {"badge", "summaryArgumentCount", "era", "year", "month", "day", "hour", "minute", "second", "nanosecond", "weekday",
               "weekdayOrdinal", "quarter", "weekOfMonth", "weekOfYear", "yearForWeekOfYear", "count", "fileSize", "badgeCount"}

CONTENT_DEFAULTS = {
    "title": "", "subtitle": "", "body": "", "attachments": [], "userInfo": {}, "categoryIdentifier": "", "threadIdentifier": "",
    "interruptionLevel": "active", "relevanceScore": Double(0), "launchImageName": "", "summaryArgument": "", "summaryArgumentCount": Signed(0),
}
REQUEST_DEFAULTS = {"misfirePolicy": "deliverLate"}
DELIVERED_DEFAULTS = {"isLate": False}


class Reader:
    def __init__(self, data):
        self.data = data
        if data[0] == 0xC1:
            self.compact = False
        elif data[0] == 0xC2:
            self.compact = True
        else:
            raise Damaged("no marker")
        self.at = 1

    def byte(self):
        if self.at >= len(self.data):
            raise Damaged("cut short")
        value = self.data[self.at]
        self.at += 1
        return value

    def varint(self):
        value, shift = 0, 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7

    def take(self, count):
        if self.at + count > len(self.data):
            raise Damaged("cut short")
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk

    def size(self):
        if self.compact:
            return self.varint(), self.varint()
        return struct.unpack("<II", self.take(8))

    def key(self):
        if not self.compact:
            return self.take(self.varint()).decode("utf-8")
        n = self.varint()
        if n & 1:
            return KNOWN_KEYS[n >> 1]
        return self.take(n >> 1).decode("utf-8")

    def value(self):
        tag = self.byte()
        if tag == 0x00:
            return None
        if tag in (0x01, 0x02):
            return tag == 0x02
        if tag == 0x03:
            z = self.varint()
            return Signed((z >> 1) ^ -(z & 1))
        if tag == 0x04:
            return Unsigned(self.varint())
        if tag == 0x05:
            return Double(struct.unpack("<d", self.take(8))[0])
        if tag == 0x06:
            return self.take(self.varint()).decode("utf-8")
        if tag in (0x07, 0x08):
            length, count = self.size()
            end = self.at + length
            if tag == 0x07:
                items = [self.value() for _ in range(count)]
            else:
                items = {}
                for _ in range(count):
                    k = self.key()
                    if k in items:
                        raise Damaged("the key %r twice in one object" % k)
                    items[k] = self.value()
            if self.at != end:
                raise Damaged("a container's length does not match its content")
            return items
        raise Damaged("unknown tag %d" % tag)


def request_with_defaults(value):
    """A request's JSON with the fields an absent key defaults to filled in."""
    value = dict(REQUEST_DEFAULTS, **value)
    value["content"] = dict(CONTENT_DEFAULTS, **value.get("content", {}))
    return value


def with_defaults(kind, value):
    if kind == "request":
        return request_with_defaults(value)
    if kind == "delivered":
        return dict(DELIVERED_DEFAULTS, **dict(value, request=request_with_defaults(value["request"])))
    return value


# Values Swift keeps as Float: a record holds the Double the Float widens to, JSON text the Float's
# shortest digits; both must be the same Float.
FLOAT_KEYS = {"volume"}


def as_float32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def same_number(a, b):
    """Equal values, and zeros of the same sign (JSON's "-0" is read as -0.0 below)."""
    return a == b and (a != 0 or math.copysign(1, a) == math.copysign(1, b))


def same(a, b, key=None, in_user_info=False):
    """Whether `a`, read from a record, is `b`, read from JSON text."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if not in_user_info and key in DOUBLE_KEYS and not isinstance(a, Double):
            return False
        if not in_user_info and key in SIGNED_KEYS and not isinstance(a, Signed):
            return False
        if key in FLOAT_KEYS and not in_user_info:
            return as_float32(a) == as_float32(b) and as_float32(a) == a
        # JSONValue writes a whole double as the integer it is, so a user info -0.0 is 0 in JSON text
        # (and reads back as the integer 0 from either).
        return a == b if in_user_info else same_number(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        inside = in_user_info or key == "userInfo"
        return a.keys() == b.keys() and all(same(a[k], b[k], k, inside) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, key, in_user_info) for x, y in zip(a, b))
    return a == b


def main():
    count = 0
    with open(sys.argv[1]) as lines:
        for number, line in enumerate(lines, 1):
            kind, record_hex, text = line.rstrip("\n").split("\t", 2)
            data = bytes.fromhex(record_hex)
            reader = Reader(data)
            read = reader.value()
            if reader.at != len(data):
                print("line %d: bytes left over after the record's value" % number)
                sys.exit(1)
            expected = json.loads(text, parse_int=lambda digits: -0.0 if digits == "-0" else int(digits))
            if kind.startswith("pending:"):
                key = bytes.fromhex(kind[len("pending:"):]).decode("utf-8")
                if not isinstance(read, dict) or read.get("identifier", key) != key:
                    print("line %d: the record is not a request kept under the key %r" % (number, key))
                    sys.exit(1)
                kind, read = "request", dict(read, identifier=key)
            if reader.compact:
                read, expected = with_defaults(kind, read), with_defaults(kind, expected)
            if not same(read, expected):
                print("line %d (%s): the record reads\n%s\nJSONEncoder wrote\n%s" % (
                    number, "compact" if reader.compact else "wide", json.dumps(read, sort_keys=True), json.dumps(expected, sort_keys=True)))
                sys.exit(1)
            count += 1
    print("ok %d" % count)


if __name__ == "__main__":
    main()
