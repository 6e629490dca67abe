"""The card's network as a person at the table needs it told: which of the few states it is
in, in words, with the fix (docs/card.md). Read from NetworkManager (``nmcli``) and the
kernel; shown on the table's and the hub card's screens and checked by ``dipclock doctor``.

(Contract shared by the kiosk, the hub's screen and the doctor; ``read_state`` is filled in
by the network part of issue 35.)

``read_state`` asks NetworkManager in terse mode (``nmcli -t``: untranslated, ``:`` between
fields) for its devices, then for the one that matters its ``GENERAL.STATE`` and
``GENERAL.REASON``. NetworkManager forgets why an attempt failed as soon as it is over (a
failed device goes back to "disconnected", reason "none"; a refused password also stops it
trying that profile again), so the last failure of the device is read from its journal
when that is readable, and otherwise told by what is left: the named network in range, the
device not joining it long after boot. Addresses come from ``ip -j -4 addr``. Where there
is no NetworkManager (a PC, a Pi on dhcpcd) the kernel says what it can: the interfaces
(``socket.if_nameindex``, this network namespace's), which are Wi-Fi and which have a cable
in (``/sys/class/net``). Every command has a timeout; ``NetworkWatch`` reads on a thread of
its own, so a slow ``nmcli`` never holds a screen's draw loop.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from dipclock.i18n import ENGLISH, Said, Words, said
from machine.check import Check, fail, ok, warn

log = logging.getLogger(__name__)

#: The states, worst first. ``no_device``: no network interface but loopback (a Pi without
#: Wi-Fi and no cable, or a driver missing); ``no_wifi_settings``: a Wi-Fi radio, no cable,
#: and dipclock.txt names no network; ``wifi_not_found``: the named network is not in range;
#: ``wifi_wrong_password``: the network refused the password; ``connecting``: joining or
#: asking for an address, for now; ``no_address``: joined, but no DHCP address came;
#: ``connected``: an address (``addresses``); ``hostname`` is the name the router lists (only
#: the hub answers mDNS for it, as ``hostname``.local: server/mdns.py).
KINDS = ("no_device", "no_wifi_settings", "wifi_not_found", "wifi_wrong_password",
         "connecting", "no_address", "connected")


@dataclass(frozen=True)
class NetworkState:
    """What the network is now, for a screen: ``words()`` and ``fix()``."""

    kind: str  # one of KINDS
    addresses: tuple[str, ...] = ()  # IPv4 addresses, not loopback
    hostname: str = ""  # this machine's name (dipclock-table-7), as the router lists it
    wifi_name: str | None = None  # the network dipclock.txt names, if any
    device: str | None = None  # the interface it is about (wlan0, end0)

    def _wifi(self, words: Words = ENGLISH) -> str:
        return (words("Wi-Fi '{name}'", name=self.wifi_name) if self.wifi_name
                else words("Wi-Fi"))

    def _wired(self) -> bool:
        return self.device is not None and not _is_wifi_name(self.device)

    def words(self, words: Words = ENGLISH) -> str:
        """One short line for a screen: what the network is now (in ``words``' language:
        a table's screen before the hub has said the event's)."""
        if self.kind == "connected":
            shown = ", ".join(self.addresses[:2]) or words("connected")
            return (words("Network: {addresses}, {hostname}", addresses=shown,
                          hostname=self.hostname) if self.hostname
                    else words("Network: {addresses}", addresses=shown))
        if self.kind == "no_device":
            return words("No network: no cable, and no Wi-Fi on this Pi")
        if self.kind == "no_wifi_settings":
            return words("No network: no cable and no Wi-Fi set in dipclock.txt")
        if self.kind == "wifi_not_found":
            return words("{wifi}: not found (not in range, or not that name)",
                         wifi=self._wifi(words))
        if self.kind == "wifi_wrong_password":
            return words("{wifi}: the password was refused", wifi=self._wifi(words))
        if self.kind == "no_address":
            if self._wired():
                return words("Network cable in, but the router gave no address")
            return words("{wifi}: joined, but the router gave no address",
                         wifi=self._wifi(words))
        if self._wired():
            return words("Network: asking the router for an address (cable)")
        return words("Joining {wifi}...", wifi=self._wifi(words))

    def fix(self, words: Words = ENGLISH) -> str:
        """The advice that works on a card (its root is read-only: dipclock.txt is edited
        from a laptop, on the card's DIPCLOCK drive); "" when there is nothing to fix."""
        if self.kind == "connected":
            return ""
        if self.kind == "no_device":
            return words("This Pi has no Wi-Fi chip (or no driver for it): use a cable from "
                         "the hall's router")
        if self.kind == "no_wifi_settings":
            return words("Plug a network cable in, or add wifi_name and wifi_password to "
                         "dipclock.txt on this card's DIPCLOCK drive (from a laptop), then "
                         "restart the Pi")
        if self.kind == "wifi_not_found":
            return words("Check wifi_name (exactly, capitals count) and wifi_country in "
                         "dipclock.txt on this card's DIPCLOCK drive (from a laptop), then "
                         "restart the Pi; or plug a network cable in")
        if self.kind == "wifi_wrong_password":
            return words("Correct wifi_password (capitals count) in dipclock.txt on this "
                         "card's DIPCLOCK drive (from a laptop), then restart the Pi; or plug "
                         "a network cable in")
        if self.kind == "no_address":
            return words("The router gave no address: check the router's DHCP is on and has "
                         "addresses free")
        if self._wired():
            return words("Wait a minute; if this stays, check the router's DHCP is on")
        return words("Wait a minute; if this stays, check wifi_name and wifi_password in "
                     "dipclock.txt on this card's DIPCLOCK drive (from a laptop), then "
                     "restart the Pi")


def _is_wifi_name(device: str) -> bool:
    """A Wi-Fi interface by its name, for the words only (wlan0, wlp2s0, wlx...)."""
    return device.startswith("wl")


# --- reading it ---------------------------------------------------------------------------

#: Seconds any one command may take: a hung nmcli (NetworkManager restarting) is no state.
COMMAND_SECONDS = 3.0
#: Seconds after boot by which NetworkManager has tried every profile once (a DHCP attempt
#: gives up after 45 s): after that, a network still not joined is not "joining" any more.
SETTLED_SECONDS = 90.0
#: The profile ``machine.cardsetup`` writes from dipclock.txt's wifi_name.
CARD_PROFILE = "dipclock-wifi"
NETWORK_CHECK = "network"
SYS_NET = Path("/sys/class/net")
UPTIME = Path("/proc/uptime")

#: NetworkManager's reasons for a state change (NMDeviceStateReason), by number as
#: ``GENERAL.REASON`` gives them ("7 (Secrets were required, but not provided)") and by
#: name as its journal does ("reason 'no-secrets'"), sorted into what a person can fix.
PASSWORD_REASONS = {7: "no-secrets", 8: "supplicant-disconnect", 9: "supplicant-config-failed",
                    10: "supplicant-failed", 11: "supplicant-timeout"}
NOT_FOUND_REASONS = {53: "ssid-not-found"}
ADDRESS_REASONS = {5: "ip-config-unavailable", 6: "ip-config-expired", 15: "dhcp-start-failed",
                   16: "dhcp-error", 17: "dhcp-failed"}
_REASON_KIND = {**dict.fromkeys(PASSWORD_REASONS.values(), "wifi_wrong_password"),
                **dict.fromkeys(NOT_FOUND_REASONS.values(), "wifi_not_found"),
                **dict.fromkeys(ADDRESS_REASONS.values(), "no_address")}
_NUMBERED = {**PASSWORD_REASONS, **NOT_FOUND_REASONS, **ADDRESS_REASONS}
_STATE_CHANGE = re.compile(r"device \((?P<dev>[^)]+)\): state change: \S+ -> (?P<new>\S+) "
                           r"\(reason '(?P<reason>[^']*)'")

#: Runs a command with a timeout: its standard output, or None when it is missing, fails
#: or takes too long (tests hand in recorded outputs).
Runner = Callable[[Sequence[str], float], "str | None"]


def run_command(argv: Sequence[str], timeout: float = COMMAND_SECONDS) -> str | None:
    """``argv``'s output in the C locale, or None (missing, failed, timed out)."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def terse_fields(line: str) -> list[str]:
    """One line of ``nmcli -t`` split at its unescaped colons (``\\:`` is a colon in a
    value, ``\\\\`` a backslash)."""
    fields, current, escaped = [], [], False
    for ch in line:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
    fields.append("".join(current))
    return fields


def parse_addresses(text: str | None) -> list[tuple[str, str]]:
    """(interface, address) of every IPv4 address from ``ip -j -4 addr`` but loopback's and
    link-local ones (169.254.x.x: what a machine gives itself when no DHCP answered)."""
    try:
        links = json.loads(text) if text else []
    except ValueError:
        return []
    out = []
    for link in links if isinstance(links, list) else []:
        name = str(link.get("ifname", ""))
        for info in link.get("addr_info") or []:
            local = str(info.get("local", ""))
            if info.get("family", "inet") == "inet" and local and name != "lo" \
                    and not local.startswith(("127.", "169.254.")):
                out.append((name, local))
    return out


def _route_address() -> list[tuple[str, str]]:
    """Without ``ip``: the address a packet out would leave from (a UDP socket "connected"
    sends nothing), or none where there is no route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            address = str(s.getsockname()[0])
    except OSError:
        return []
    return [] if address.startswith(("127.", "0.", "169.254.")) else [("", address)]


def _uptime(path: Path = UPTIME) -> float:
    try:
        return float(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return SETTLED_SECONDS  # cannot tell: as if long up (say what is, not "joining")


def _hostname() -> str:
    try:
        return socket.gethostname().split(".")[0]
    except OSError:
        return ""


@dataclass(frozen=True)
class _Device:
    name: str
    type: str  # nmcli's: ethernet, wifi, loopback, wifi-p2p, bridge, ...
    state: str  # nmcli's: connected, disconnected, unavailable, connecting (...), ...


def parse_devices(text: str) -> list[_Device]:
    """The Ethernet and Wi-Fi devices of ``nmcli -t -f DEVICE,TYPE,STATE,CONNECTION device``."""
    out = []
    for line in text.splitlines():
        fields = terse_fields(line)
        if len(fields) >= 3 and fields[1] in ("ethernet", "wifi"):
            out.append(_Device(fields[0], fields[1], fields[2]))
    return out


def parse_reason(text: str | None) -> str | None:
    """The reason's name from ``nmcli -t -f GENERAL.STATE,GENERAL.REASON device show DEV``
    (``GENERAL.REASON:7 (Secrets were required, but not provided)`` -> ``no-secrets``), for
    the reasons a person can fix; None for any other."""
    for line in (text or "").splitlines():
        key, _, value = line.partition(":")
        if key == "GENERAL.REASON":
            number = value.split(" ", 1)[0]
            return _NUMBERED.get(int(number)) if number.isdigit() else None
    return None


def last_failure(journal: str | None, device: str) -> str | None:
    """The reason of ``device``'s last failed attempt in NetworkManager's journal (``device
    (wlan0): state change: need-auth -> failed (reason 'no-secrets', ...)``), None when it
    has none since it last joined."""
    found = None
    for line in (journal or "").splitlines():
        m = _STATE_CHANGE.search(line)
        if m is None or m["dev"] != device:
            continue
        if m["new"] == "activated":
            found = None
        elif m["new"] == "failed":
            found = m["reason"]
    return found


def read_state(run: Runner = run_command, net: Path = SYS_NET,
               hostname: Callable[[], str] = _hostname, wifi_name: str | None = None,
               uptime: Callable[[], float] = _uptime,
               interfaces: Callable[[], list[tuple[int, str]]] = socket.if_nameindex,
               ) -> NetworkState:
    """The network now, from NetworkManager or else the kernel. ``wifi_name``: the network
    dipclock.txt names (None: NetworkManager's Wi-Fi profile says). Never raises for a
    missing or failing command: that is a fact about the machine, read past."""
    addresses = parse_addresses(run(["ip", "-j", "-4", "addr"], COMMAND_SECONDS))
    if not addresses and run(["ip", "-V"], COMMAND_SECONDS) is None:
        addresses = _route_address()  # no ip(8) at all
    name = hostname()
    settled = uptime() >= SETTLED_SECONDS
    listed = run(["nmcli", "-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device"],
                 COMMAND_SECONDS)
    if listed is not None:
        return _from_nm(parse_devices(listed), addresses, run, name, wifi_name, settled)
    return _from_kernel(net, interfaces, addresses, name, wifi_name, settled)


def _state(kind: str, name: str, addresses: Sequence[tuple[str, str]] = (),
           wifi_name: str | None = None, device: str | None = None) -> NetworkState:
    return NetworkState(kind, tuple(a for _, a in addresses), name, wifi_name, device)


def _connected(addresses: Sequence[tuple[str, str]], name: str, wifi_name: str | None
               ) -> NetworkState:
    return _state("connected", name, addresses, wifi_name, addresses[0][0] or None)


def _nm_wifi_name(run: Runner) -> str | None:
    """The network of NetworkManager's Wi-Fi profile: the card's own (``dipclock-wifi``),
    else the first; its profile name where its SSID cannot be read."""
    listed = run(["nmcli", "-t", "-f", "NAME,TYPE", "connection", "show"], COMMAND_SECONDS)
    profiles = [f[0] for f in map(terse_fields, (listed or "").splitlines())
                if len(f) >= 2 and f[1] == "802-11-wireless"]
    if not profiles:
        return None
    profile = CARD_PROFILE if CARD_PROFILE in profiles else profiles[0]
    ssid = run(["nmcli", "-t", "-g", "802-11-wireless.ssid", "connection", "show", "id",
                profile], COMMAND_SECONDS)
    text = "".join(terse_fields(ssid.strip())) if ssid and ssid.strip() else ""
    return text or profile


def _in_range(run: Runner, device: str, wifi_name: str) -> bool | None:
    """Whether the device's last scan saw ``wifi_name`` (no new scan: that needs rights and
    time); None when the list cannot be read."""
    listed = run(["nmcli", "-t", "-f", "SSID", "device", "wifi", "list", "ifname", device,
                  "--rescan", "no"], COMMAND_SECONDS)
    if listed is None:
        return None
    return wifi_name in {"".join(terse_fields(line)) for line in listed.splitlines()}


def _from_nm(devices: list[_Device], addresses: list[tuple[str, str]], run: Runner,
             name: str, wifi_name: str | None, settled: bool) -> NetworkState:
    if addresses:
        return _connected(addresses, name, wifi_name)
    wifi = next((d for d in devices if d.type == "wifi"), None)
    wired = [d for d in devices if d.type == "ethernet"]
    joined = next((d for d in devices if d.state.startswith("connected")), None)
    if joined is not None:  # joined, and no IPv4 address
        return _state("no_address", name, (), wifi_name, joined.name)
    if wifi is not None and wifi_name is None:
        wifi_name = _nm_wifi_name(run)
    if wifi is not None and wifi_name is not None:
        told = _wifi_trouble(run, wifi, wifi_name, settled)
        if told is not None:
            return _state(told, name, (), wifi_name, wifi.name)
    busy = next((d for d in devices if d.state.startswith("connecting")), None)
    if busy is not None:
        return _state("connecting", name, (), wifi_name, busy.name)
    plugged = next((d for d in wired if d.state == "disconnected"), None)
    if plugged is not None:  # a cable in (NetworkManager says "unavailable" without one)
        return _state("no_address" if settled else "connecting", name, (), wifi_name,
                      plugged.name)
    if wifi is None:
        return _state("no_device", name)
    if wifi_name is None:
        return _state("no_wifi_settings", name, (), None, wifi.name)
    return _state("wifi_not_found" if settled else "connecting", name, (), wifi_name,
                  wifi.name)


def _wifi_trouble(run: Runner, wifi: _Device, wifi_name: str, settled: bool) -> str | None:
    """What is wrong with joining ``wifi_name``, when something is: NetworkManager asking
    for the password again, the reason of its last failure (now, else in its journal), or
    the network in range and still not joined long after boot (a refused password stops
    NetworkManager trying the profile: nothing else leaves a network in range alone)."""
    if wifi.state == "connecting (need authentication)":
        return "wifi_wrong_password"
    if wifi.state.startswith(("connecting", "connected")):
        return None
    reason = parse_reason(run(["nmcli", "-t", "-f", "GENERAL.STATE,GENERAL.REASON", "device",
                               "show", wifi.name], COMMAND_SECONDS))
    if reason is None:
        reason = last_failure(run(["journalctl", "-b", "-u", "NetworkManager", "-o", "cat",
                                   "--no-pager", "-n", "400"], COMMAND_SECONDS), wifi.name)
    if reason in _REASON_KIND:
        return _REASON_KIND[reason]
    if wifi.state == "unavailable":  # the radio off (no country set?), or no supplicant
        return "wifi_not_found" if settled else None
    seen = _in_range(run, wifi.name, wifi_name)
    if seen is False:
        return "wifi_not_found" if settled else None
    if seen and settled:
        return "wifi_wrong_password"
    return None


def _from_kernel(net: Path, interfaces: Callable[[], list[tuple[int, str]]],
                 addresses: list[tuple[str, str]], name: str, wifi_name: str | None,
                 settled: bool) -> NetworkState:
    """No NetworkManager: the interfaces this network namespace has, and what /sys says of
    each (Wi-Fi or not, a cable in); it cannot tell a refused password from a far network."""
    if addresses:
        return _connected(addresses, name, wifi_name)
    try:
        names = [n for _, n in interfaces() if n != "lo"]
    except OSError:
        names = []
    wifi = [n for n in names if (net / n / "wireless").exists() or (net / n / "phy80211").exists()]
    wired = [n for n in names if n not in wifi and (net / n / "device").exists()]
    plugged = next((n for n in wired if _read(net / n / "carrier") == "1"), None)
    if plugged is not None:
        return _state("no_address" if settled else "connecting", name, (), wifi_name, plugged)
    if not wifi:
        return _state("no_device", name, (), wifi_name, wired[0] if wired else None)
    if wifi_name is None:
        return _state("no_wifi_settings", name, (), None, wifi[0])
    if _read(net / wifi[0] / "operstate") == "up":  # associated, and no address
        return _state("no_address" if settled else "connecting", name, (), wifi_name, wifi[0])
    return _state("connecting", name, (), wifi_name, wifi[0])


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:  # carrier of an interface that is down: EINVAL
        return ""


def check_network(network: NetworkState) -> Check:
    """``dipclock doctor``'s line: the address and name, or what is wrong and the fix
    (joining: a warning, run it again in a minute)."""
    if network.kind == "connected":
        addresses = ", ".join(network.addresses)
        return ok(NETWORK_CHECK, said("{addresses} on {device}; this machine is {hostname} on "
                                      "the network", addresses=addresses,
                                      device=network.device, hostname=network.hostname)
                  if network.device else
                  said("{addresses}; this machine is {hostname} on the network",
                       addresses=addresses, hostname=network.hostname))
    line, fix = _Told(network.words(), state=network), _Told(network.fix(), state=network,
                                                             fix=True)
    if network.kind == "connecting":
        return warn(NETWORK_CHECK, line, fix)
    return fail(NETWORK_CHECK, line, fix)


@dataclass(frozen=True)
class _Told(Said):
    """The network's line (or its fix) as a sentence for the doctor: said in the reader's
    language by the state itself (``NetworkState.words``, ``fix``); its text the English."""

    state: NetworkState | None = None
    fix: bool = False

    def in_(self, words: Words) -> str:
        if self.state is None:
            return self.text
        return self.state.fix(words) if self.fix else self.state.words(words)


class NetworkWatch:
    """``read`` every ``every`` seconds on a thread of its own; ``state()`` is the last
    reading (None before the first), so a screen's loop asks without waiting. It reads only
    while someone asks: a table in its round, its hub answering, runs no nmcli."""

    def __init__(self, read: Callable[[], NetworkState] = read_state,
                 every: float = 5.0) -> None:
        self._read, self.every = read, every
        self._last: NetworkState | None = None
        self._asked = True  # the first reading is made at once
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> NetworkWatch:
        self._thread = threading.Thread(target=self._loop, name="network-watch", daemon=True)
        self._thread.start()
        return self

    def poll(self) -> NetworkState | None:
        """One reading now (the thread's step); a reading that breaks keeps the last."""
        try:
            self._last = self._read()
        except Exception:  # a probe nobody foresaw breaking: the screen keeps what it had
            log.debug("reading the network failed", exc_info=True)
        return self._last

    def state(self) -> NetworkState | None:
        self._asked = True
        return self._last

    def _loop(self) -> None:
        while not self._stop.is_set():
            if self._asked:
                self._asked = False
                self.poll()
            self._stop.wait(self.every)

    def close(self) -> None:
        """Stop reading; a reading under way is not waited for long (the thread is a
        daemon: it ends with the process)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)


__all__ = ["KINDS", "NetworkState", "NetworkWatch", "check_network", "last_failure",
           "parse_addresses", "parse_devices", "parse_reason", "read_state", "run_command",
           "terse_fields"]
