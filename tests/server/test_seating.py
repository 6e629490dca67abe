"""Players, not just powers: the TD seats players (a list or a CSV file) and the review and
the penalties CSV name them."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import timedelta

from server.store import MIGRATIONS, Store
from tests.server.conftest import START
from tests.server.test_state import S1901, post, press

SEATING = """round,table,power,player
1,1,England,Alice Smith
1,1,A,Bob Jones
1, 2 ,france,"Chloé O'Neil, jr"
"""


def put(hub, csrf, body: dict):
    return hub.client.put("/api/td/seating", json=body, headers=csrf)


def test_the_review_and_the_csv_name_the_seated_player(hub, td):
    r = put(hub, td, {"csv": "\ufeff" + SEATING})
    assert r.status_code == 200, r.text
    assert r.json()["summary"] == "seating: 3 players, round 1"
    post(hub, 1, press("e", "E", S1901 + timedelta(seconds=12)))
    post(hub, 2, press("f", "F", S1901 + timedelta(seconds=20)))
    rows = [r for r in hub.client.get("/api/td/penalties?round=1").json() if r["kind"] == "late"]
    assert [(r["table"], r["power"], r["player"]) for r in rows] == [
        (1, "E", "Alice Smith"), (2, "F", "Chloé O'Neil, jr")]
    state = hub.client.get("/api/td/state").json()
    assert {(p["table"], p["power"], p["player"]) for p in state["penalties"]
            if p["kind"] == "late"} == {(1, "E", "Alice Smith"), (2, "F", "Chloé O'Neil, jr")}
    text = hub.client.get("/api/penalties.csv").text
    assert text.splitlines()[0].endswith(",decided_at,player")
    got = [g for g in csv.DictReader(io.StringIO(text)) if g["kind"] == "late"]
    assert [g["player"] for g in got] == ["Alice Smith", "Chloé O'Neil, jr"]
    # a seat corrected by the list, another cleared; the rest stay
    r = put(hub, td, {"seats": [{"round": 1, "table": 1, "power": "E", "player": "Ann Smith"},
                                {"round": 1, "table": 2, "power": "F", "player": ""}]})
    assert r.status_code == 200 and "1 seats cleared" in r.json()["summary"]
    seats = hub.client.get("/api/td/seating?round=1").json()
    assert [(s["table"], s["power"], s["player"]) for s in seats] == [
        (1, "A", "Bob Jones"), (1, "E", "Ann Smith")]
    assert hub.client.get("/api/td/state").json()["audit"][0]["action"] == "seating"


def test_a_bad_seating_line_is_one_clear_refusal_and_nothing_is_stored(hub, td):
    for text, says in (
        ("1,1,England,Alice\n2,1,Spain,Bob\n", "seating line 2: power: 'Spain' is not a power"),
        ("1,1,England\n", "seating line 1: give round,table,power,player (4 values, not 3)"),
        ("round,table,power,player\n1,x,E,Al\n", "seating line 2: table:"),
        ("1,1,E,Al\n1,1,England,Bo\n", "seating: round 1 table 1 England is given twice"),
        ("round,table,power,player\n\n", "seating: no seats given"),
        ("1,1,E,\x07bell\n", "seating line 1: player:"),
    ):
        r = put(hub, td, {"csv": text})
        assert r.status_code == 422 and r.json()["detail"].startswith(says), (text, r.text)
    assert hub.client.get("/api/td/seating").json() == []
    assert put(hub, td, {"csv": "1,1,E,A", "seats": []}).status_code == 422


def test_seating_needs_a_signed_in_td(hub, td):
    hub.client.post("/api/logout", json={}, headers=td)
    assert hub.client.get("/api/td/seating").status_code == 401
    assert put(hub, {}, {"csv": SEATING}).status_code in (401, 403)


def test_a_hub_stored_before_seating_gets_the_table_and_keeps_its_rounds(tmp_path):
    path = tmp_path / "hub.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(MIGRATIONS[0] + MIGRATIONS[1] + "PRAGMA user_version = 2;")
    db.execute("INSERT INTO rounds(number, start, title) VALUES(1, ?, 'Round 1')",
               (START.isoformat(),))
    db.close()
    store = Store(path)
    try:
        assert [r.number for r in store.rounds()] == [1] and store.seating() == []
    finally:
        store.close()
