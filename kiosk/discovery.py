"""Find the hub on the hall's network without a typed address (mDNS / DNS-SD, zeroconf).

The hub announces ``_dipclock._tcp.local.`` with TXT ``id`` (the hub's id) and ``s`` (its
scheme, ``https`` or ``http``). A clock paired with a hub takes only the hub with that id, so
two hubs on one network (two tournaments in one venue, or two test runs) never mix; a clock
not yet paired takes the first hub that answers, and shows which with its pairing code (the
TD's approval is what makes it that hub's). A typed address is always used as it is: mDNS
is the convenience, the address the fallback for a network that drops multicast.

zeroconf listens and asks on the addresses the machine has when it starts. A Pi's Wi-Fi
often gets its address after the kiosk has started, so the finder looks at the machine's
IPv4 addresses every ``WATCH_SECONDS`` and, when they have changed, browses again on the new
set (a new ``Zeroconf``, the old one closed once the new one runs).
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable
from typing import Any

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

log = logging.getLogger(__name__)

SERVICE = "_dipclock._tcp.local."
#: Milliseconds to wait for a service's address and TXT once its name is seen.
RESOLVE_MS = 3000
#: Seconds between two looks at this machine's addresses (an interface come or gone).
WATCH_SECONDS = 3.0


def ipv4_addresses() -> frozenset[str]:
    """This machine's IPv4 addresses now, as zeroconf reads them for ``InterfaceChoice.All``."""
    return frozenset(str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips
                     if ip.is_IPv4)


def _url(scheme: str, address: str, port: int) -> str:
    host = f"[{address}]" if ipaddress.ip_address(address).version == 6 else address
    return f"{scheme}://{host}:{port}"


class HubFinder:
    """Browses for the hub in the background from construction until :meth:`close`.

    ``found()`` is the hub's URL once one with the id ``hub`` has answered (any hub, for
    ``hub=None``), else None; the screen loop asks it without waiting. ``on_found`` is
    called (from zeroconf's thread) when that happens, to wake the loop. With every
    interface (the default), the browsing follows the machine's IPv4 addresses (read by
    ``addresses`` every ``every`` seconds) until a hub is found; a hub found stays found.
    """

    def __init__(
        self,
        hub: str | None,
        on_found: Callable[[], None] = lambda: None,
        interfaces: InterfaceChoice | list[str] = InterfaceChoice.All,
        addresses: Callable[[], frozenset[str]] = ipv4_addresses,
        every: float = WATCH_SECONDS,
    ) -> None:
        self._want = hub
        self._on_found = on_found
        self._interfaces = interfaces
        self._addresses, self._every = addresses, every
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._found: str | None = None
        self._seen = addresses()
        self._zeroconf, self._browser = self._browse()
        self._watch: threading.Thread | None = None
        if interfaces is InterfaceChoice.All:
            self._watch = threading.Thread(target=self._follow, name="hub finder",
                                           daemon=True)
            self._watch.start()

    def _browse(self) -> tuple[Zeroconf, ServiceBrowser]:
        zeroconf = Zeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
        return zeroconf, ServiceBrowser(zeroconf, SERVICE, handlers=[self._changed])

    def _follow(self) -> None:
        """Browse again whenever the machine's addresses change, until found or closed."""
        while not self._stop.wait(self._every) and self.found() is None:
            try:
                now = self._addresses()
            except OSError as exc:  # getifaddrs failing: look again next time
                log.debug("mDNS: cannot read this machine's addresses: %s", exc)
                continue
            if now == self._seen:
                continue
            log.info("mDNS: this machine's addresses are now %s: browsing on them",
                     ", ".join(sorted(now)) or "none")
            try:
                fresh = self._browse()
            except Exception as exc:  # an interface gone as it came: the next look retries
                log.warning("mDNS: cannot browse on the new addresses: %s", exc)
                continue
            with self._lock:
                if self._stop.is_set():  # closed meanwhile: this one is ours to close
                    old = fresh
                else:
                    old, self._seen = (self._zeroconf, self._browser), now
                    self._zeroconf, self._browser = fresh
            _close(*old)

    def _changed(self, zeroconf: Zeroconf, service_type: str, name: str,
                 state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed or self.found() is not None:
            return
        try:
            info = zeroconf.get_service_info(service_type, name, RESOLVE_MS)
        except Exception as exc:  # a malformed answer from some other device: ignore it
            log.debug("mDNS: cannot resolve %s: %s", name, exc)
            return
        if info is None or info.port is None:
            return
        props: dict[Any, Any] = info.properties or {}
        if self._want is not None and props.get(b"id") != self._want.encode():
            log.info("mDNS: %s is not the hub this clock is paired with", name)
            return
        addresses = info.parsed_addresses()
        if not addresses:
            return
        scheme = "http" if props.get(b"s") == b"http" else "https"
        url = _url(scheme, addresses[0], info.port)
        with self._lock:
            if self._found is not None:
                return
            self._found = url
        log.info("mDNS: found the hub %s at %s", name, url)
        self._on_found()

    def found(self) -> str | None:
        with self._lock:
            return self._found

    def close(self) -> None:
        with self._lock:
            self._stop.set()
            current = self._zeroconf, self._browser
        if self._watch is not None:
            self._watch.join(timeout=10)
        _close(*current)


def _close(zeroconf: Zeroconf, browser: ServiceBrowser) -> None:
    browser.cancel()
    zeroconf.close()


def find_hub(
    hub: str | None,
    wait: float,
    interfaces: InterfaceChoice | list[str] = InterfaceChoice.All,
) -> str | None:
    """The URL of the hub with the id ``hub`` (any, for None) on this network, waiting at
    most ``wait`` seconds (``dipclock doctor``; the kiosk uses :class:`HubFinder` so its
    screen stays live)."""
    done = threading.Event()
    finder = HubFinder(hub, done.set, interfaces)
    try:
        done.wait(wait)
        return finder.found()
    finally:
        finder.close()


__all__ = ["SERVICE", "WATCH_SECONDS", "HubFinder", "find_hub", "ipv4_addresses"]
