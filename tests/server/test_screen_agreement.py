"""The hall clock in Chromium says what a table's kiosk says, at every stage of a round.

A real uvicorn serves the hub on a clock the test sets (``FakeClock``: hub time stands
still until the test moves it); Debian's headless Chromium shows ``/hall``. For each stage
the test reads the page's label and big number, and how much hub time the page has ticked
since its last answer, in one script run; the kiosk's own ``kiosk.state.build`` (for no
table) is asked for that same moment, from the schedule the hub sends the kiosks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import EventProfile
from dipclock.late import Press
from dipclock.powers import LETTERS
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from kiosk import state
from tests.doubles import FakeClock
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub, clocks_of

pytestmark = [pytest.mark.browser]

DAY = "2024-05-04"


def at(hms: str) -> datetime:
    return datetime.fromisoformat(f"{DAY}T{hms}")


def frozen_hub(data: Path) -> ThreadHub:
    """The hub app on a real uvicorn whose time the test sets (``hub.clock.t``)."""
    return ThreadHub(data, synced=lambda: True, clock=FakeClock(to_seconds(at("08:00:00"))))


@dataclass(frozen=True)
class Scene:
    """A round set up (``round`` with ``start``/``call``/``last_year``), hub time moved to
    ``moment`` and the TD's actions done there; then what the hall clock must look like."""

    name: str
    moment: str
    look: str
    big: str  # the kiosk's big number at ``moment`` (the page may have ticked on since)
    round: int = 1
    call: str | None = None
    last_year: int | None = None
    actions: tuple[tuple[str, str, str, dict[str, Any]], ...] = ()  # (at, method, path, body)
    all_in: str | None = None  # the kiosk's seven powers pressed then (its orders are in)


SCENES = (
    Scene("before the start", "08:55:00.900", "before_start", "5:00"),
    Scene("negotiating", "09:04:59.900", "negotiating", "13:01"),
    Scene("writing", "09:17:24.900", "writing", "0:36"),
    Scene("meal break with a restart time", "09:10:00.900", "paused", "50:00", round=2,
          actions=(("09:10:00", "POST", "/api/td/pauses",
                    {"reason": "Lunch", "until": f"{DAY}T10:00:00"}),)),
    Scene("break with no restart time", "09:10:00", "paused", "Break", round=3,
          actions=(("09:10:00", "POST", "/api/td/pauses", {}),)),
    Scene("5-minute break at a deadline", "09:18:08.900", "paused", "4:52", round=4,
          actions=(("09:05:00", "POST", "/api/td/pauses", {"deadline": "S1901", "minutes": 5}),)),
    Scene("a held table is that table's alone", "09:10:00", "negotiating", "8:00", round=5,
          actions=(("09:10:00", "POST", "/api/td/pauses", {"table": 3, "reason": "ruling"}),)),
    Scene("round called", "09:25:00", "game_over", "Game over", round=6,
          actions=(("09:25:00", "POST", "/api/td/call", {}),)),
    Scene("no deadline left before the call", "09:36:00.900", "game_over", "4:00", round=7,
          call="09:40:00"),
    Scene("over", "09:40:00", "game_over", "Game over", round=8, last_year=1901),
    # the hall has no buttons: after a deadline it shows what a table whose orders are in
    # shows, never "orders late" (only a table knows who is late)
    Scene("after a deadline", "09:18:30.900", "negotiating", "15:30", round=9,
          all_in="09:17:00"),
)

SHOWN = """() => {
    renderClock(last.data.clock);  // the page's own renderer, as its timer runs it
    return {label: document.getElementById("stage").textContent,
            big: document.getElementById("remaining").textContent,
            look: document.body.dataset.look,
            gone: hubNow() - last.data.hub_time};
}"""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with frozen_hub(tmp_path / "hub") as h:
        yield h


def test_the_hall_page_shows_what_the_kiosk_shows_at_every_stage(
    browser: Any, hub: ThreadHub
) -> None:
    td = httpx.Client(base_url=hub.url, timeout=30)
    r = td.post("/api/login", json={"password": PASSWORD})
    r.raise_for_status()
    td.headers["X-CSRF-Token"] = r.json()["csrf"]
    td.put("/api/td/event", json={"builtin": "wdc2019"}).raise_for_status()  # a writing time
    td.put("/api/td/round", json={"number": 1, "start": f"{DAY}T09:00:00"}).raise_for_status()
    td.put("/api/td/tables", json={"count": 4}).raise_for_status()
    kiosk = clocks_of(td)[1]
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 720})
    page.goto(hub.url + "/hall")

    for scene in SCENES:
        round_body: dict[str, Any] = {"number": scene.round, "start": f"{DAY}T09:00:00"}
        if scene.call:
            round_body["call"] = f"{DAY}T{scene.call}"
        if scene.last_year:
            round_body["last_year"] = scene.last_year
        td.put("/api/td/round", json=round_body).raise_for_status()
        for when, method, path, body in scene.actions:
            hub.clock.t = to_seconds(at(when))
            td.request(method, path, json=body).raise_for_status()
        hub.clock.t = to_seconds(at(scene.moment))
        hall = httpx.get(hub.url + "/api/hall").json()
        # the page's next answers carry this state: wait for one (a poll is once a second),
        # and for the page to have ticked a little: a countdown at x.1 s shows one second less
        # after 0.1 s, so a page that stopped ticking would show the hub's number, a second off
        page.wait_for_function(
            f"last && last.data.seq === {hall['seq']} && last.data.hub_time === {hall['hub_time']}"
            " && hubNow() - last.data.hub_time > 0.3",
            timeout=30_000,
        )
        shown = page.evaluate(SHOWN)

        snap = httpx.get(f"{hub.url}/api/tables/1/snapshot", headers=kiosk).json()
        profile = EventProfile.model_validate(snap["event"])
        schedule = Schedule.model_validate(snap["schedule"])
        presses = [Press(p, at(scene.all_in)) for p in LETTERS] if scene.all_in else []
        moment = at(scene.moment) + timedelta(seconds=shown["gone"])
        screen = state.build(profile, schedule, moment, presses, table=None).screen
        # the page puts the phase beside the label unless a note names it already
        named = not screen.phase or any(screen.phase in x for x in (screen.label, *screen.notes))
        label = screen.label if named else f"{screen.label} · {screen.phase}"
        assert (shown["label"], shown["big"], shown["look"]) == (label, screen.big, screen.look), (
            scene.name)
        # and what the scene is about, at the scene's own moment
        still = state.build(profile, schedule, at(scene.moment), presses, table=None).screen
        assert (still.look, still.big) == (scene.look, scene.big), scene.name
        if scene.all_in:
            nobody = state.build(profile, schedule, at(scene.moment), table=None).screen
            assert nobody.look == "late" and nobody.big == scene.big
        if scene.name.startswith("a held table"):
            held = state.build(profile, schedule, at(scene.moment), table=3).screen
            assert held.look == "held" and held.big == "8:00"
    page.close()
