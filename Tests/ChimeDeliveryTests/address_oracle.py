"""Which addresses a webhook may not be sent to, decided by Python's own ipaddress module (Debian's 3.11,
which judges an IPv4-mapped address by the IPv4 address it maps, as CPython 3.12.4 and later do).

Reads one address per line (from the file named as its argument, else standard input) and prints "refuse" or "allow" for each. The rule: refuse what Python does not
call global (its tables of IANA's special-purpose blocks), multicast, the special-purpose blocks IANA lists
that Python 3.11 still calls global (below, from the registries), and an IPv6 address that reaches a
refused IPv4 one (mapped, compatible, NAT64, 6to4).
"""
import ipaddress
import sys

# IANA special-purpose blocks that Python's is_global does not cover, and blocks refused whole although
# a few addresses inside are globally reachable (192.0.0.9 and .10; AMT, AS112, ORCHIDv2 and drone
# identifiers inside 2001::/23): nothing there is a webhook receiver.
LATER = [ipaddress.ip_network(n) for n in [
    "192.0.0.0/24", "2001::/23", "192.31.196.0/24", "192.52.193.0/24", "192.88.99.0/24", "192.175.48.0/24",
    "64:ff9b:1::/48", "2620:4f:8000::/48", "3fff::/20", "5f00::/16", "fec0::/10", "::/96",
]]
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def refused(address):
    if not address.is_global or address.is_multicast:
        return True
    if any(address.version == n.version and address in n for n in LATER):
        return True
    if address.version == 6:
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None and refused(embedded):
            return True
    return False


source = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
for line in source:
    text = line.strip()
    if text:
        print("refuse" if refused(ipaddress.ip_address(text)) else "allow")
