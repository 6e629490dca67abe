"""A lunch pause taken while a power counted late: the hub's review and grid wait with it.

graduated20 (deadlines every 20 minutes): Spring 1901's deadline is 09:20. The TD pauses the
hall at 09:20:40, with Italy 40 s late at table 1 and Russia at table 2; lateness and the
5-minute window count only the time the clock runs (``dipclock.late``).
"""

from __future__ import annotations

from datetime import timedelta

from tests.server.conftest import START
from tests.server.test_state import post, press

S1901 = START + timedelta(minutes=20)
LUNCH_AT = S1901 + timedelta(seconds=40)


def rows(hub) -> list[tuple[int, str, str, str, int | None, str]]:
    got = hub.client.get("/api/td/penalties").json()
    return [(r["table"], r["power"], r["phase"], r["kind"], r["started_second"],
             r["proposed"]["label"]) for r in got]


def italy_on_the_grid(hub) -> dict:
    tables = {t["table"]: t for t in hub.client.get("/api/td/state").json()["tables"]}
    return next(p for p in tables[1]["powers"] if p["power"] == "I")


def test_the_late_list_and_the_missed_phase_wait_for_the_lunch_pause(hub):
    c = hub.client
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    post(hub, 1, *(press(f"a{p}", p, S1901 - timedelta(seconds=30)) for p in "AEFGRT"))
    post(hub, 2, *(press(f"b{p}", p, S1901 - timedelta(seconds=30)) for p in "AEFGIT"))
    hub.at(S1901 + timedelta(seconds=30))
    assert rows(hub) == []  # judged now, kept until a window closes (09:25 without a pause)
    hub.at(LUNCH_AT)
    r = c.post("/api/td/pauses", json={"reason": "Lunch", "minutes": 60}, headers=td)
    assert r.status_code == 200, r.text

    hub.at(LUNCH_AT + timedelta(minutes=30))  # long past 5 wall minutes: nothing missed yet
    assert rows(hub) == []
    italy = italy_on_the_grid(hub)
    assert (italy["late"], italy["heading_for"]) == (40, "3-unit NMR")  # stood still
    clock = {t["table"]: t for t in c.get("/api/td/state").json()["tables"]}[1]["clock"]
    assert "Italy +40 s paused, 3-unit NMR" in clock["notes"]

    # the TD resumes early; Italy's orders go in 10 s later: 50 running seconds late
    hub.at(LUNCH_AT + timedelta(minutes=50))
    assert c.post("/api/td/resume", json={}, headers=td).status_code == 200
    resumed = LUNCH_AT + timedelta(minutes=50)
    post(hub, 1, press("late-i", "I", resumed + timedelta(seconds=10)))
    hub.at(resumed + timedelta(seconds=259))  # 40 + 259 = 299 running seconds
    assert rows(hub) == [(1, "I", "S1901", "late", 50, "4-unit NMR")]
    hub.at(resumed + timedelta(seconds=261))  # the window shut after 5 running minutes
    assert rows(hub) == [(2, "R", "S1901", "missed", None, "No orders: all units hold (NMR)"),
                         (1, "I", "S1901", "late", 50, "4-unit NMR")]
