"""The grid tells the truth per table (issue 9, item 5).

A real uvicorn serves the hub on a clock the test sets (``FakeClock``); the TD's dashboard
runs in Debian's headless Chromium. Table 2 is given +90 s and table 1 held for a ruling:
each tile shows its own table's screen (``dipclock.screen.build`` for that table), and
table 1's kiosk, asked from the snapshot the hub sends it, shows the hold's reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import EventProfile
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from kiosk import state
from tests.chromium import SHOTS, signed_in
from tests.doubles import FakeClock
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub, clocks_of

pytestmark = [pytest.mark.browser]

DAY = "2024-05-04"

TILES = """() => Object.fromEntries([1, 2, 3].map((n) => {
    const tile = document.querySelector(`.tile[data-table="${n}"]`);
    const text = (sel) => (tile.querySelector(sel) || {}).textContent || "";
    return [n, {big: text(".tile-big"), label: text(".tile-label"),
                deadline: text(".tile-deadline"), own: text(".tile-own")}];
}))"""


def at(hms: str) -> datetime:
    return datetime.fromisoformat(f"{DAY}T{hms}")


def seconds(big: str) -> int:
    m, s = big.split(":")
    return int(m) * 60 + int(s)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[ThreadHub]:
    with ThreadHub(tmp_path / "hub", synced=lambda: True,
                   clock=FakeClock(to_seconds(at("08:00:00")))) as h:
        yield h


def test_each_tile_shows_its_own_table_s_time_extra_time_and_hold_with_its_reason(
    browser: Any, live: ThreadHub
) -> None:
    td = live.td()
    td.put("/api/td/event", json={"builtin": "wdc2006"}).raise_for_status()
    td.put("/api/td/round", json={"number": 1, "start": f"{DAY}T09:00:00"}).raise_for_status()
    td.put("/api/td/tables", json={"count": 3}).raise_for_status()
    live.clock.t = to_seconds(at("09:05:00"))
    td.post("/api/td/adjustments", json={"seconds": 90, "table": 2}).raise_for_status()
    live.clock.t = to_seconds(at("09:06:00"))
    td.post("/api/td/pauses", json={"table": 1, "reason": "Rules question"}).raise_for_status()
    live.clock.t = to_seconds(at("09:07:00"))

    # the payload: each row carries its own table's screen
    rows = {t["table"]: t for t in td.get("/api/td/state").json()["tables"]}
    assert [rows[n]["clock"]["big"] for n in (1, 2, 3)] == ["11:00", "11:30", "10:00"]
    assert rows[1]["clock"]["label"] == "Table held by the TD: Rules question"
    assert [h["reason"] for h in rows[1]["holds"]] == ["Rules question"]
    assert rows[2]["adjustments"] == [{"seconds": 90, "at": f"{DAY}T09:05:00"}]
    assert rows[3]["holds"] == [] and rows[3]["adjustments"] == []

    page, _ = signed_in(browser, live.url, PASSWORD)
    page.wait_for_selector(".tile[data-table='3'] .tile-big")
    tiles = page.evaluate(TILES)
    page.locator("#grid").screenshot(path=f"{SHOTS}/dipclock-grid-per-table.png")
    assert tiles["1"] == {"big": "11:00", "label": "Table held by the TD: Rules question",
                        "deadline": "Spring 1901", "own": ""}  # the reason is in the label
    assert (tiles["2"]["label"], tiles["2"]["deadline"], tiles["2"]["own"]) == (
        "Negotiating", "Spring 1901 · Deadline 09:18:30", "+90 s at 09:05")
    assert (tiles["3"]["label"], tiles["3"]["deadline"], tiles["3"]["own"]) == (
        "Negotiating", "Spring 1901 · Deadline 09:17", "")
    # both tick between polls, read in one go: table 2 is always 90 s behind table 3
    assert seconds(tiles["2"]["big"]) - seconds(tiles["3"]["big"]) == 90
    assert 0 <= 600 - seconds(tiles["3"]["big"]) < 60  # ticked down from 10:00, not reset
    page.context.close()

    # table 1's kiosk, from the snapshot the hub sends it, gives the players the reason
    snap = httpx.get(f"{live.url}/api/tables/1/snapshot", headers=clocks_of(td)[1]).json()
    screen = state.build(EventProfile.model_validate(snap["event"]),
                         Schedule.model_validate(snap["schedule"]), at("09:07:00"), [],
                         table=1).screen
    assert (screen.look, screen.label, screen.big) == (
        "held", "Table held by the TD: Rules question", "11:00")
