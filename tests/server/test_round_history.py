"""Earlier rounds stay as they were played: their presses and their event's rules."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import timedelta

from server.store import MIGRATIONS, Store
from tests.server.conftest import START
from tests.server.test_state import S1901, post, press, snap

ROUND2 = START + timedelta(hours=5)


def set_round(hub, csrf: dict[str, str], number: int, start) -> None:
    r = hub.client.put("/api/td/round", json={"number": number, "start": start.isoformat()},
                       headers=csrf)
    assert r.status_code == 200, r.text


def set_event(hub, csrf: dict[str, str], event: str) -> None:
    r = hub.client.put("/api/td/event", json={"builtin": event}, headers=csrf)
    assert r.status_code == 200, r.text


def late_rows(hub) -> list[tuple]:
    """The late submissions (not the phases missed beside them)."""
    return [(r["round"], r["table"], r["power"], r["phase"], r["proposed"]["label"])
            for r in hub.client.get("/api/td/penalties").json() if r["kind"] == "late"]


def test_a_backlog_uploaded_after_the_next_round_is_set_up_counts_for_its_round(hub, td):
    # table 3's kiosk was offline from 09:10; the TD set up round 2 meanwhile
    late = press("late-a", "A", S1901 + timedelta(seconds=20))
    set_round(hub, td, 2, ROUND2)
    hub.at(ROUND2 - timedelta(minutes=30))
    assert post(hub, 3, late)["stored"] == 1
    assert late_rows(hub) == [(1, 3, "A", "S1901", "Yellow card")]
    got = list(csv.DictReader(io.StringIO(hub.client.get("/api/penalties.csv").text)))
    assert [(g["round"], g["table"], g["power"], g["seconds_late"]) for g in got
            if g["kind"] == "late"] == [("1", "3", "A", "20.0")]
    assert snap(hub, 3)["presses"] == []  # not one of round 2's presses
    # a press made in round 2 (or a button test before any round) files as before
    post(hub, 3, press("r2", "E", ROUND2 + timedelta(minutes=17, seconds=5)),
         press("test", "F", START - timedelta(days=1)))
    assert [p["id"] for p in snap(hub, 3)["presses"]] == ["test", "r2"]
    assert late_rows(hub) == [(1, 3, "A", "S1901", "Yellow card"),
                              (2, 3, "E", "S1901", "Yellow card")]


def test_each_round_is_reviewed_under_its_own_event(hub, td):
    post(hub, 1, press("a", "A", S1901 + timedelta(seconds=15)))  # wdc2006: Yellow card
    set_round(hub, td, 2, ROUND2)
    set_event(hub, td, "graduated20")  # replaces the event for round 2 on
    # under graduated20 spring 1901 lasts 20 minutes: this would be on time
    assert late_rows(hub) == [(1, 1, "A", "S1901", "Yellow card")]
    assert snap(hub, 1)["event"]["id"] == "graduated20"  # the current round plays it
    hub.at(ROUND2 + timedelta(minutes=21))
    post(hub, 1, press("e", "E", ROUND2 + timedelta(minutes=20, seconds=10)))
    rows = [r for r in hub.client.get("/api/td/penalties").json() if r["kind"] == "late"]
    assert [(r["round"], r["deadline"]) for r in rows] == [
        (1, "2024-05-04T09:17:00"), (2, (ROUND2 + timedelta(minutes=20)).isoformat())]
    # a correction of the decision on round 1 is still judged by round 1's rules
    r = hub.client.post("/api/td/penalties", headers=td, json={
        "round": 1, "table": 1, "power": "A", "phase": "S1901", "decision": "confirm"})
    assert r.status_code == 200 and r.json()["final"] == "Yellow card"
    hub.restart()
    hub.sign_in()
    assert [r["deadline"] for r in hub.client.get("/api/td/penalties").json()
            if r["kind"] == "late"] == [
        "2024-05-04T09:17:00", (ROUND2 + timedelta(minutes=20)).isoformat()]


def test_rounds_stored_before_profiles_get_the_event_they_were_played_under(tmp_path):
    path = tmp_path / "hub.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    from dipclock.events import BUILTIN
    db.execute("INSERT INTO meta(key, value) VALUES('event', ?)",
               (BUILTIN["wdc2018"].model_dump_json(),))
    db.execute("INSERT INTO rounds(number, start, title) VALUES(1, ?, 'Round 1')",
               (START.isoformat(),))
    db.close()
    store = Store(path)
    try:
        [r] = store.rounds()
        assert r.profile is not None and r.profile.id == "wdc2018"
    finally:
        store.close()
