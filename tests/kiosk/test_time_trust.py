"""Time you can trust: presses made on an unverified clock reach the hub at the right second.

The hub is the real app (``create_app``) on a data dir under ``tmp_path``, reached through
the TestClient's transport, with a ``FakeClock`` the test sets; the kiosk is the real
``HubClient`` + ``Kiosk`` on an outbox file, with injected ``mono`` and ``wall`` readings.
The network between them is a ``Cable`` the test unplugs. Nothing sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest

from dipclock.sync import to_seconds
from hardware.events import ButtonEvent
from kiosk.app import CLOCK_ALERT, FixedRound, Kiosk, WallTime, this_boot
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from machine.passwords import hash_password
from machine.timesync import TIME_ERROR, _adjtimex, boot_id, clock_synchronised
from tests.doubles import FakeClock, FixedTime
from tests.kiosk.conftest import make_table
from tests.server.conftest import PASSWORD, START, Hub

S1901 = START + timedelta(minutes=17)  # wdc2006, the hub fixture's round: orders by 09:17
PRESSED = S1901 - timedelta(seconds=10)  # 09:16:50, orders in with 10 s to spare
HOUR = 3600.0


class Cable(httpx.BaseTransport):
    """The network between a kiosk and the hub: unplugged, a request fails as on a dead LAN."""

    def __init__(self, hub: Hub) -> None:
        self.inner = hub.client._transport  # the TestClient's own transport into the app
        self.plugged = True

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self.plugged:
            raise httpx.ConnectError("no route to the hub", request=request)
        return self.inner.handle_request(request)

    def close(self) -> None:  # the hub's app outlives every kiosk process
        pass


class Hall:
    """One table's world: the hub's clock, the kiosk's monotonic and wall clocks.

    ``mono`` is seconds since the kiosk's boot; the true time is ``mono + shift`` in the
    current boot; the kiosk's wall clock is off it by ``wall_error``. The hub's clock runs at
    the same rate (its own time may be set by the TD).
    """

    def __init__(self, hub: Hub, outbox: Path) -> None:
        self.hub, self.outbox_path = hub, outbox
        self.csrf = hub.sign_in()
        self.cable = Cable(hub)
        self.mono = 0.0
        self.shift = 0.0
        self.wall_error = 0.0
        self.boot = "boot-1"

    def boot_up(self, boot: str, at: datetime, uptime: float) -> None:
        """The Pi (re)boots: its monotonic clock reads ``uptime`` at hub time ``at``."""
        self.boot, self.mono = boot, uptime
        self.shift = to_seconds(at) - uptime
        self.hub.clock.t += to_seconds(at) - self.hub.clock.now()

    def go_to(self, moment: datetime) -> float:
        """Time passes on every clock in the hall alike, until the hub's reads ``moment``."""
        step = to_seconds(moment) - self.hub.clock.now()
        assert step >= 0, "clocks only run forwards"
        self.mono += step
        self.hub.clock.t += step
        return self.mono

    def kiosk(self) -> tuple[HubClient, Kiosk, Outbox, list[str]]:
        """A kiosk process started now: a fresh HubClient and Kiosk on the same outbox file."""
        outbox = Outbox(self.outbox_path)
        client = HubClient("http://testserver", 1, self.hub.token(1), outbox,
                           mono=lambda: self.mono,
                           wall=lambda: self.mono + self.shift + self.wall_error,
                           transport=self.cable)
        printed: list[str] = []
        return client, Kiosk(client, outbox, client, log=printed.append, boot=self.boot), \
            outbox, printed

    def press(self, kiosk: Kiosk, power: str) -> None:
        kiosk.handle(ButtonEvent(power, "press", self.mono, "gpio"))

    def on_hub(self) -> dict[str, str]:
        """The presses the hub stored for table 1: id -> its ``at``."""
        snap = self.hub.client.get("/api/tables/1/snapshot",
                                   headers=self.hub.kiosk_headers(1)).json()
        return {p["id"]: p["at"] for p in snap["presses"]}

    def orders_in(self) -> set[str]:
        """The powers the hub counts as in for the phase now running at table 1."""
        state = self.hub.client.get("/api/td/state").json()
        tile = next(t for t in state["tables"] if t["table"] == 1)
        return {p["power"] for p in tile["powers"] if p["in"]}


@pytest.fixture(scope="module")
def password_hash() -> str:
    return hash_password(PASSWORD)


@pytest.fixture
def hall(tmp_path: Path, password_hash: str) -> Iterator[Hall]:
    hub = Hub(tmp_path / "hub", password_hash, FakeClock(to_seconds(START) - 600))
    hall = Hall(hub, tmp_path / "kiosk" / "outbox.sqlite")
    hub.set_up(hall.csrf)
    yield hall
    hub.close()


def test_a_press_made_offline_after_a_restart_on_a_wall_clock_an_hour_back_counts(
        hall: Hall) -> None:
    """The issue's measurement, replayed: the press now lands at the right second."""
    # The kiosk has run before, with a right wall clock: it knows the round and the offset.
    hall.boot_up("boot-1", START - timedelta(minutes=10), uptime=300.0)
    client, kiosk, outbox, _ = hall.kiosk()
    assert client.sync_once() and client.fetch_snapshot()
    client.close()
    outbox.close()
    # The wall clock is now an hour back, the hub out of reach, and the kiosk restarts.
    hall.wall_error = -HOUR
    hall.cable.plugged = False
    hall.go_to(S1901 - timedelta(minutes=1))
    client, kiosk, outbox, printed = hall.kiosk()
    try:
        assert not client.sync_once() and not client.trusted()
        assert CLOCK_ALERT in kiosk.frame(hall.mono).screen.alerts
        hall.go_to(PRESSED)
        hall.press(kiosk, "I")
        [guess] = outbox.presses()
        assert guess.at == PRESSED - timedelta(hours=1)  # the stamp the old code sent
        assert not guess.trusted and guess.mono == hall.mono and guess.boot == "boot-1"
        assert printed[-1].endswith(" unverified")
        # The hub answers again, but the kiosk has not synced yet: the guess is held back.
        hall.go_to(PRESSED + timedelta(seconds=3))
        hall.cable.plugged = True
        assert client.upload_once()
        assert hall.on_hub() == {}
        assert CLOCK_ALERT in kiosk.frame(hall.mono).screen.alerts
        # One sync: the kiosk re-stamps the press from its monotonic reading, then uploads.
        hall.go_to(PRESSED + timedelta(seconds=5))
        assert client.sync_once() and client.trusted()
        frame = kiosk.frame(hall.mono)
        assert CLOCK_ALERT not in frame.screen.alerts
        [fixed] = outbox.presses()
        assert (fixed.id, fixed.at, fixed.trusted) == (guess.id, PRESSED, True)
        assert outbox.guessed_at(guess.id) == guess.at  # the guess is kept, not lost
        assert printed[-1] == f"RESTAMP {guess.id} I press {PRESSED.isoformat()}"
        assert [c.note for c in frame.screen.chips if c.letter == "I"] == ["IN"]
        assert client.upload_once()
        assert hall.on_hub() == {guess.id: PRESSED.isoformat()}
        assert hall.orders_in() == {"I"}  # it counts for the round
    finally:
        client.close()
        outbox.close()


def test_after_a_reboot_this_boots_guesses_are_converted_and_earlier_ones_flagged(
        hall: Hall, caplog: pytest.LogCaptureFixture) -> None:
    # Boot 1 never reaches the hub: the press it takes stays a guess.
    hall.boot_up("boot-1", START - timedelta(minutes=20), uptime=30.0)
    hall.wall_error = -HOUR
    hall.cable.plugged = False
    client, kiosk, outbox, _ = hall.kiosk()
    hall.go_to(START + timedelta(minutes=5))
    hall.press(kiosk, "F")
    [lost_cause] = outbox.presses()
    client.close()
    outbox.close()
    # The Pi reboots on fake-hwclock's time, an hour back; its monotonic clock starts again.
    hall.boot_up("boot-2", START + timedelta(minutes=10), uptime=25.0)
    client, kiosk, outbox, printed = hall.kiosk()
    try:
        assert not client.trusted()
        hall.go_to(PRESSED)
        hall.press(kiosk, "I")
        assert client.upload_once() and hall.on_hub() == {}  # guesses only: nothing to send
        hall.cable.plugged = True
        hall.go_to(PRESSED + timedelta(seconds=4))
        assert client.sync_once()
        with caplog.at_level("WARNING", logger="kiosk.app"):
            kiosk.frame(hall.mono)
        stamps = {p.power: p for p in outbox.presses()}
        assert stamps["I"].at == PRESSED and stamps["I"].trusted
        # boot 1's monotonic clock is gone: its press goes as guessed, flagged and logged
        assert stamps["F"].at == lost_cause.at and stamps["F"].uncorrected
        assert not stamps["F"].trusted
        [warning] = [r.getMessage() for r in caplog.records if lost_cause.id in r.getMessage()]
        assert "earlier boot" in warning and lost_cause.at.isoformat() in warning
        assert client.upload_once()
        # stamped an hour back, before the round: the hub refuses it with its reason
        # (``dipclock.stamps``), and the outbox keeps it flagged, never sent again
        assert hall.on_hub() == {stamps["I"].id: PRESSED.isoformat()}
        assert hall.orders_in() == {"I"}
        assert outbox.unsent() == [] and outbox.rejected() == [lost_cause.id]
    finally:
        client.close()
        outbox.close()


def test_the_td_setting_the_hubs_time_makes_presses_guesses_until_the_next_sample(
        hall: Hall) -> None:
    """The TD sets the hub's time (clock epoch +1): a press before the resync is re-stamped."""
    hall.boot_up("boot-1", START, uptime=100.0)
    client, kiosk, outbox, _ = hall.kiosk()
    try:
        assert client.sync_once() and client.fetch_snapshot() and client.trusted()
        assert CLOCK_ALERT not in kiosk.frame(hall.mono).screen.alerts  # settled: none waiting
        # The TD finds the hub two minutes slow and sets it from the phone.
        hall.go_to(PRESSED - timedelta(minutes=2, seconds=30))
        phone = (PRESSED - timedelta(seconds=30)).isoformat(timespec="milliseconds")
        r = hall.hub.client.post("/api/clock", json={"time": phone}, headers=hall.csrf)
        assert r.status_code == 200, r.text
        assert client.fetch_snapshot()  # the new epoch's snapshot (pushed, or polled)
        assert not client.trusted()
        hall.go_to(PRESSED)
        hall.press(kiosk, "A")  # shown on the old offset, two minutes slow, and held back
        assert kiosk.presses(client.current().key)[-1].at == PRESSED - timedelta(minutes=2)
        assert CLOCK_ALERT in kiosk.frame(hall.mono).screen.alerts
        assert client.upload_once() and hall.on_hub() == {}
        hall.go_to(PRESSED + timedelta(seconds=2))
        assert client.sync_once() and client.trusted()
        kiosk.frame(hall.mono)
        assert client.upload_once()
        assert list(hall.on_hub().values()) == [PRESSED.isoformat()]
        assert hall.orders_in() == {"A"}
    finally:
        client.close()
        outbox.close()


# --- the standalone kiosk: the system clock's word -------------------------------------------


class SystemClock:
    """What the kernel says of the clock, and how often it was asked."""

    def __init__(self, synced: bool | None) -> None:
        self.synced, self.asked = synced, 0

    def __call__(self) -> bool | None:
        self.asked += 1
        return self.synced


def test_wall_time_is_trusted_while_the_system_clock_is_synchronised() -> None:
    mono = [100.0]
    kernel = SystemClock(False)
    wall = WallTime(wall=lambda: mono[0] + 5e8, mono=lambda: mono[0], synchronised=kernel)
    assert not wall.trusted()
    kernel.synced = True
    mono[0] += 9.0
    assert not wall.trusted()  # read at most every 10 s: the screen loop asks 20 times a second
    assert kernel.asked == 1
    mono[0] += 1.0
    assert wall.trusted() and kernel.asked == 2
    kernel.synced = False  # the time daemon lost its servers long enough for the kernel to say
    mono[0] += 10.0
    assert not wall.trusted()
    kernel.synced = None  # a machine that cannot tell (not Linux): no false alarm
    mono[0] += 10.0
    assert wall.trusted()


def test_standalone_presses_made_before_ntp_are_restamped_when_it_steps_the_clock(
        tmp_path: Path) -> None:
    table = make_table(tmp_path, "wdc2006", "2024-05-04T09:00")
    mono = [1000.0]
    truth = to_seconds(START) - 1000.0  # the right time is mono + truth
    error = [-HOUR]  # fake-hwclock's time, an hour old
    kernel = SystemClock(False)
    wall = WallTime(wall=lambda: mono[0] + truth + error[0], mono=lambda: mono[0],
                    synchronised=kernel)
    rnd = table.kiosk.source.current()
    kiosk = Kiosk(FixedRound(rnd), table.outbox, wall, log=lambda line: None, boot="b")
    mono[0] = to_seconds(PRESSED) - truth
    assert kiosk.frame(mono[0]).screen.alerts == (CLOCK_ALERT,)
    kiosk.handle(ButtonEvent("G", "press", mono[0], "keyboard"))
    assert [p.at for p in kiosk.presses(rnd.key)] == [PRESSED - timedelta(hours=1)]
    error[0] = 0.0  # NTP steps the clock
    kernel.synced = True
    mono[0] += 12.0
    assert kiosk.frame(mono[0]).screen.alerts == ()
    assert [p.at for p in kiosk.presses(rnd.key)] == [PRESSED]  # the screen's copy too
    assert [p.at for p in table.outbox.presses()] == [PRESSED]
    table.outbox.close()


def test_the_clock_alert_comes_before_the_shells_and_a_change_redraws(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    shell: list[str] = []
    base = table.kiosk.timebase
    kiosk = Kiosk(table.kiosk.source, table.outbox, FixedTime(base.offset, verified=False),  # type: ignore[attr-defined]
                  log=lambda line: None, alerts=lambda: tuple(shell), boot="b")
    mono = 1500.0
    assert kiosk.frame(mono).screen.alerts == (CLOCK_ALERT,)
    shell.append("Button box unplugged")
    assert kiosk.frame(mono).screen.alerts == (CLOCK_ALERT, "Button box unplugged")
    kiosk.timebase = FixedTime(base.offset)  # type: ignore[attr-defined]
    assert kiosk.frame(mono).screen.alerts == ("Button box unplugged",)
    table.outbox.close()


# --- what the machine says -------------------------------------------------------------------


def test_clock_synchronised_reads_timesyncd_then_the_kernel(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    assert clock_synchronised(lambda: TIME_ERROR, flag) is False
    assert clock_synchronised(lambda: 0, flag) is True  # TIME_OK
    assert clock_synchronised(lambda: -1, flag) is None

    def no_adjtimex() -> int:
        raise OSError("not Linux")

    assert clock_synchronised(no_adjtimex, flag) is None
    flag.touch()
    assert clock_synchronised(lambda: TIME_ERROR, flag) is True
    assert _adjtimex() in range(6)  # this machine's kernel answers with a clock state


def test_the_boot_id_is_the_kernels_and_none_where_it_does_not_say(tmp_path: Path) -> None:
    assert uuid.UUID(boot_id()) and boot_id() == boot_id() == this_boot()
    missing = tmp_path / "boot_id"
    assert boot_id(missing) is None
