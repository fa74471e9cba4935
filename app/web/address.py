"""This machine's address on the local network, for the QR code a phone scans."""

from __future__ import annotations

import socket

# Where a datagram socket would go to find the outgoing interface: TEST-NET-1 (RFC 5737, never routed
# anywhere) by the default route, then private ranges for a LAN without one. connect() on UDP only
# picks the route and the source address: nothing is sent.
ROUTE_PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")


def lan_address() -> str:
    """This machine's IPv4 address on the local network, for the QR code (no packet is sent).

    The outgoing interface's address first: on Raspberry Pi OS the hostname maps to 127.0.1.1 in
    /etc/hosts, so asking for the hostname's address gives nothing a phone can use, and many
    Android phones cannot resolve ``raspberrypi.local`` (a longer address, a bigger QR code, too).
    Then the hostname's addresses, then ``HOSTNAME.local`` (mDNS) as the last resort."""
    for probe in ROUTE_PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                address = str(udp.getsockname()[0])
        except OSError:
            continue
        if address and not address.startswith(("127.", "0.")):
            return address
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        for info in infos:
            address = str(info[4][0])
            if not address.startswith("127."):
                return address
    except OSError:
        pass
    return socket.gethostname() + ".local"
