"""The penalties CSV carries the paused time that counted (issue 34, item 6): a reader checks
a row's lateness by hand, pressed_at - deadline - paused_seconds, and sees a deadline a
break moved beside the one it had before.

graduated20 (20-minute phases): Spring 1901's deadline is 09:20. A 2-minute break at 09:10
moves it to 09:22; Italy is not in at 09:22, and a 2-minute lunch from 09:22:30 stops its
late count; Italy presses at 09:25:20: 200 wall seconds after the deadline, 120 of them
paused, 80 s late.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from tests.server.conftest import START
from tests.server.test_state import post, press

S1901 = START + timedelta(minutes=20)


def test_a_late_row_shows_the_pause_it_did_not_count_and_the_moved_deadline(hub):
    c = hub.client
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    for at in (START + timedelta(minutes=10), S1901 + timedelta(minutes=2, seconds=30)):
        hub.at(at)
        r = c.post("/api/td/pauses", json={"reason": "Lunch", "minutes": 2}, headers=td)
        assert r.status_code == 200, r.text
    post(hub, 1, *(press(f"a{p}", p, S1901 - timedelta(seconds=30)) for p in "AEFGRT"))
    post(hub, 1, press("late-i", "I", S1901 + timedelta(minutes=5, seconds=20)))
    hub.at(S1901 + timedelta(minutes=20))

    [api] = [r for r in c.get("/api/td/penalties?round=1").json() if r["kind"] == "late"]
    assert (api["paused_seconds"], api["seconds_late"]) == (120, 80)
    r = c.get("/api/penalties.csv?round=1")
    header = r.text.splitlines()[0]
    assert header.endswith(",decided_at,player,units,paused_seconds,deadline_before_pauses")
    [row] = [g for g in csv.DictReader(io.StringIO(r.text)) if g["kind"] == "late"]
    assert (row["deadline"], row["pressed_at"], row["paused_seconds"], row["seconds_late"],
            row["deadline_before_pauses"]) == (
        "2024-05-04T09:22:00", "2024-05-04T09:25:20", "120.0", "80.0", "2024-05-04T09:20:00")
    # by hand: 200 wall seconds less 120 paused
    assert 200 - float(row["paused_seconds"]) == float(row["seconds_late"])


def test_a_row_with_no_pause_has_nothing_paused_and_one_deadline(hub):
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    post(hub, 1, press("late-i", "I", S1901 + timedelta(seconds=17)))
    [row] = [g for g in csv.DictReader(io.StringIO(hub.client.get("/api/penalties.csv").text))
             if g["kind"] == "late"]
    assert (row["seconds_late"], row["paused_seconds"], row["deadline_before_pauses"]) == (
        "17.0", "0.0", "")
