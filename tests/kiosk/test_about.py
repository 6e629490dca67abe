"""What the kiosk tells the hub about itself, and the shell's alert lines on its screen."""

from __future__ import annotations

import queue
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from dipclock import __version__
from dipclock.events import BUILTIN
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from hardware.serialbox import SerialButtonBox
from kiosk.about import BOX_UNPLUGGED, IN_MEMORY, About, kiosk_id
from kiosk.app import FixedRound, Kiosk
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from kiosk.round import Round, round_key
from kiosk.state import hub_line
from machine import storage
from machine.power import Throttling
from tests.doubles import FakeMonotonic, FixedTime


@dataclass
class Hub:
    synced: bool = True
    claims: tuple[str, ...] = ()

    def trusted(self) -> bool:
        return self.synced

    def others(self) -> tuple[str, ...]:
        return self.claims


def said(about: About) -> tuple[str, ...]:
    """The alert lines in English (each a sentence the screen says in its language)."""
    return tuple(str(line) for line in about.alerts())


def test_the_kiosk_id_is_drawn_once_and_kept(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.sqlite")
    first = kiosk_id(outbox)
    assert kiosk_id(outbox) == first and len(first) == 36
    outbox.close()
    again = Outbox(tmp_path / "o.sqlite")  # the kiosk restarted
    assert kiosk_id(again) == first
    again.close()
    other = Outbox(tmp_path / "other.sqlite")  # another card
    assert kiosk_id(other) != first
    other.close()


def test_the_report_follows_contract_one() -> None:
    events: queue.Queue = queue.Queue()
    box = SerialButtonBox("loop://", events)  # a real pyserial port, open
    t = [100.0]
    try:
        about = About("card-1", 7, ["gpio", "serial"], "lgpio", box, Hub(synced=False),
                      mono=lambda: t[0], started=40.0,
                      power=lambda: Throttling(1 << 16).summary(), synchronised=lambda: True)
        assert about() == {
            "id": "card-1", "version": __version__, "uptime": 60.0,
            "buttons": ["gpio", "serial"], "pin_factory": "lgpio", "box": "connected",
            "power": "under-voltage since boot", "clock": "system",
        }
        box.close()  # the reader stops and drops the port: as unplugged
        about.hub, about.synchronised = None, lambda: False
        said = about()
        assert (said["box"], said["clock"]) == ("disconnected", "unverified")
        about.hub = Hub(synced=True)
        assert about()["clock"] == "hub"
        assert About("x", 1, ["keyboard"], power=lambda: None)()["box"] is None
    finally:
        box.close()


def test_alerts_say_the_box_is_unplugged_and_who_else_claims_the_table() -> None:
    events: queue.Queue = queue.Queue()
    box = SerialButtonBox("loop://", events)
    try:
        about = About("me", 7, ["serial"], box=box, hub=Hub(claims=("10.0.0.31",)))
        assert said(about) == ("Another kiosk (10.0.0.31) also says it is table 7",)
    finally:
        box.close()
    assert said(about) == (BOX_UNPLUGGED, "Another kiosk (10.0.0.31) also says it is table 7")
    assert About("me", 7, ["keyboard"]).alerts() == ()


def test_before_the_round_the_kiosk_names_its_table_and_hub(tmp_path: Path) -> None:
    profile = BUILTIN["wdc2019"]
    sched = Schedule(start=datetime(2019, 9, 6, 10, 0))
    rnd = Round(profile, sched, 3, round_key(profile, sched, 3))
    outbox = Outbox(tmp_path / "o.sqlite")
    hub = hub_line("http://10.0.0.1:8000", discovered=True)
    kiosk = Kiosk(FixedRound(rnd), outbox, FixedTime(0.0), log=lambda _: None,
                            table=3, hub_text=hub)
    before = kiosk.frame(to_seconds(datetime(2019, 9, 6, 9, 50))).screen
    assert before.look == "before_start" and "Table 3" in before.heading
    assert hub in before.notes
    during = kiosk.frame(to_seconds(datetime(2019, 9, 6, 10, 5))).screen
    assert during.look == "negotiating" and hub not in during.notes
    # a hub client that has had no snapshot yet (never started: nothing goes on the wire)
    client = HubClient("http://127.0.0.1:9", 3, "K", outbox)
    waiting = Kiosk(client, outbox, FixedTime(0.0), log=lambda _: None,
                              table=3, hub_text=hub_line("http://127.0.0.1:9"))
    screen = waiting.frame(1000.0).screen
    assert (screen.look, screen.heading, screen.notes) == ("connecting", "Table 3",
                                                           ("Hub 127.0.0.1:9",))
    client.close()
    outbox.close()


CARD_ROOT = ("25 1 0:30 / / rw,noatime - overlay dipclock-root rw,lowerdir=/run/dipclock-root/"
             "lower,upperdir=/run/dipclock-root/rw/upper,workdir=/run/dipclock-root/rw/work\n"
             "26 25 0:31 / /run rw - tmpfs tmpfs rw\n"
             "27 26 0:32 / /run/dipclock-root/rw rw - tmpfs dipclock-overlay rw\n")


def test_a_card_whose_data_partition_did_not_mount_says_presses_are_in_memory(
        tmp_path: Path) -> None:
    """The data partition is nofail (a dark table is worse): the table counts on, and says
    that a power cut would lose its presses; once the partition is there the alert goes."""
    data = tmp_path / "var/lib/dipclock"
    data.mkdir(parents=True)
    info = tmp_path / "mountinfo"
    info.write_text(CARD_ROOT)
    clock = FakeMonotonic()
    about = About("k", 7, ["keyboard"], data=data, mountinfo=info, mono=clock)
    assert said(about) == (IN_MEMORY,)
    assert "data partition" in storage.check_filesystem(data, info).detail
    info.write_text(info.read_text() + f"40 25 179:3 / {data} rw - ext4 /dev/mmcblk0p3 rw\n")
    assert said(about) == (IN_MEMORY,)  # looked at again a minute on, not every frame
    clock.advance(60)
    assert about.alerts() == ()
