"""The hall of Pis: which kiosks say they are which table, and what each says about itself.

A kiosk names itself (a stable id per SD card) in its status reports; the hub keeps, per
table, every kiosk heard from and the address its reports came from. Two ids heard from
for one table at once is a *claim conflict*: two cards set up as the same table (a cloned
card whose boot file nobody edited), so one table's presses are really another's.

"Heard from" is a status report within the online window, or, for a kiosk that reported
within ``REPORT_SECONDS``, any request for the table from its address (an open WebSocket,
a snapshot poll): kiosks report their status only every 30 s or so, and a kiosk that is
plainly still there must not flicker in and out of the list.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from server.presslimit import Refusals
from server.schemas import KioskInfo

#: A kiosk whose last report is older than this is gone, whatever else its address sends
#: (two kiosks behind one address must not keep each other listed).
REPORT_SECONDS = 90.0
#: Ids kept per table: the newest reports win, so a flood of made-up ids costs nothing.
MAX_KIOSKS = 8
MAX_ADDRESSES = 32


@dataclass
class KioskSeen:
    """One kiosk's last report: its address (from the request) and when (mono seconds)."""

    info: KioskInfo
    address: str
    reported: float


@dataclass
class TableStatus:
    """What the kiosks of one table last told us, and when we last heard from them."""

    offset: float | None = None
    rtt: float | None = None
    seen: float | None = None  # mono s of the last request for this table
    kiosks: dict[str, KioskSeen] = field(default_factory=dict)
    heard: dict[str, float] = field(default_factory=dict)  # address -> mono s
    #: the claims as last sent to the table's kiosks, to publish only on a change
    claims: tuple[tuple[str, str], ...] = ()
    #: the presses the hub refused from the table's clock (for the TD's grid)
    refusals: Refusals = field(default_factory=Refusals)

    def hear(self, address: str | None, mono: float) -> None:
        self.seen = mono
        if address:
            self.heard[address] = mono
            if len(self.heard) > MAX_ADDRESSES:
                oldest = min(self.heard, key=self.heard.__getitem__)
                del self.heard[oldest]

    def report(self, info: KioskInfo, address: str, mono: float) -> None:
        self.kiosks[info.id] = KioskSeen(info, address, mono)
        if len(self.kiosks) > MAX_KIOSKS:
            oldest = min(self.kiosks.values(), key=lambda k: k.reported)
            del self.kiosks[oldest.info.id]

    def latest(self) -> KioskSeen | None:
        """The kiosk that reported last: the one the grid's tile describes."""
        return max(self.kiosks.values(), key=lambda k: k.reported, default=None)

    def present(
        self, mono: float, window: float, open_addresses: Collection[str] = ()
    ) -> list[KioskSeen]:
        """The kiosks heard from within ``window`` seconds (see the module's docstring)."""
        out = []
        for k in self.kiosks.values():
            age = mono - k.reported
            if age <= window:
                out.append(k)
            elif age <= REPORT_SECONDS and (
                k.address in open_addresses
                or mono - self.heard.get(k.address, float("-inf")) <= window
            ):
                out.append(k)
        return sorted(out, key=lambda k: (k.address, k.info.id))

    def conflict(
        self, mono: float, window: float, open_addresses: Collection[str] = ()
    ) -> tuple[tuple[str, str], ...]:
        """(id, address) of every kiosk present when two or more are, else ()."""
        here = self.present(mono, window, open_addresses)
        return tuple((k.info.id, k.address) for k in here) if len(here) >= 2 else ()
