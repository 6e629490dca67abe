"""The hub announces itself on the LAN (mDNS/DNS-SD), so a kiosk needs no typed address.

Service ``_dipclock._tcp.local.``, instance ``dipclock hub <hub_id>``, on the hub's port, with
TXT ``id`` (the hub's id), ``s`` (``https``, or ``http`` for a hub serving plain HTTP) and
``v`` (dipclock's version). A clock not yet paired takes the first hub it finds and shows
its name with the pairing code; a paired clock takes only the hub whose ``id`` it was
paired with, so two hubs on one network (a second room, a TD's test laptop) never mix. The
announcement goes out on the interfaces the hub listens on: all of them for 0.0.0.0, that
one for one address. A hub on a loopback address (127.0.0.1, ::1) is not announced at all
(``announced``): no other machine can reach it, and a kiosk that took it from the network
would fail to connect. mDNS is a convenience: if it cannot start (no multicast, a firewall),
the hub says so once and serves as ever; kiosks fall back on a typed address.

The service's host (its SRV target, answered for A queries by zeroconf itself) is the
machine's own name, ``dipclock-hub.local`` on the hub card (machine/cardsetup.py names it),
so the TD's phone reaches the dashboard as ``https://dipclock-hub.local:8000/`` with no
router DNS (``host_name``). Not where that name is no DNS label, nor where avahi runs: avahi
already answers for ``<name>.local``, and a second responder with other addresses (a
docker bridge) would make it rename the machine; there the name stays
``dipclock-hub-<hub_id>.local``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import socket
from pathlib import Path

from zeroconf import InterfaceChoice, IPVersion, ServiceInfo, get_all_addresses
from zeroconf.asyncio import AsyncZeroconf

from dipclock import __version__

SERVICE = "_dipclock._tcp.local."
log = logging.getLogger("uvicorn.error")
#: avahi-daemon's socket: where it runs, it answers for this machine's ``.local`` name
AVAHI_SOCKET = Path("/run/avahi-daemon/socket")
#: a DNS label (RFC 1123): letters, digits and inner hyphens, at most 63
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?", re.IGNORECASE)


def instance(hub_id: str) -> str:
    return f"dipclock hub {hub_id}.{SERVICE}"


def announced(host: str) -> bool:
    """Whether a hub listening on ``host`` announces itself: not on a loopback address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # a host name: what it resolves to
        try:
            address = ipaddress.ip_address(socket.gethostbyname(host))
        except OSError:
            return True  # unknown here: the announcement says so if it cannot start
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not address.is_loopback


def where(host: str) -> tuple[list[str], list[str] | InterfaceChoice]:
    """The addresses to announce and the interfaces to announce them on, for ``host``."""
    if host in ("", "0.0.0.0", "::"):
        found = [a for a in get_all_addresses() if not ipaddress.ip_address(a).is_loopback]
        return found or ["127.0.0.1"], InterfaceChoice.All
    try:
        address = str(ipaddress.ip_address(host))
    except ValueError:  # a host name: announce what it resolves to
        address = socket.gethostbyname(host)
    return [address], [address]


def host_name(hub_id: str, machine: str | None = None, avahi: Path = AVAHI_SOCKET) -> str:
    """The ``.local`` name the hub answers for: ``machine`` (default: this machine's host
    name) when it is one DNS label and no avahi answers for it already; else one of the
    hub's own."""
    name = socket.gethostname() if machine is None else machine
    if _LABEL.fullmatch(name) and name.lower() != "localhost" and not avahi.exists():
        return f"{name.lower()}.local."
    return f"dipclock-hub-{hub_id}.local."


def service_info(hub_id: str, scheme: str, port: int, addresses: list[str],
                 server: str | None = None) -> ServiceInfo:
    """The announcement; ``server``: the host name it names (default ``host_name``)."""
    return ServiceInfo(
        SERVICE,
        instance(hub_id),
        port=port,
        properties={"id": hub_id, "s": scheme, "v": __version__},
        server=server or host_name(hub_id),
        parsed_addresses=addresses,
    )


class Announcement:
    """The hub's mDNS announcement, from ``start`` until ``stop``."""

    def __init__(self, hub_id: str, scheme: str, host: str, port: int) -> None:
        self.hub_id, self.scheme, self.host, self.port = hub_id, scheme, host, port
        self.zc: AsyncZeroconf | None = None
        self.info: ServiceInfo | None = None

    async def start(self) -> bool:
        """Announce; False (and one warning) if this machine cannot."""
        try:
            addresses, interfaces = where(self.host)
            self.info = service_info(self.hub_id, self.scheme, self.port, addresses)
            self.zc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
            done = asyncio.ensure_future(await self.zc.async_register_service(self.info))
        except (OSError, ValueError, RuntimeError) as exc:
            log.warning("mDNS: cannot announce the hub (%s); kiosks need its address typed",
                        exc)
            await self.stop()
            return False
        done.add_done_callback(self._registered)  # probing takes a second or two: no wait
        return True

    def _registered(self, task: asyncio.Future) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.warning("mDNS: the announcement failed (%s); kiosks need its address typed",
                        task.exception())

    async def stop(self) -> None:
        """Say goodbye on the network (kiosks forget the hub at once) and close."""
        if self.zc is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.zc.async_unregister_all_services(), timeout=3)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.zc.async_close(), timeout=3)
        self.zc = None
