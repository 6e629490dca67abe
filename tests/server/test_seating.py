"""Players, not just powers: the TD seats players (a list or a CSV file) and the review and
the penalties CSV name them."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import timedelta

import pytest

from dipclock.arguments import UsageError
from dipclock.launcher.seating import read_history
from dipclock.seating import Seat
from server.actions import seats_from_csv
from server.refusal import Refused
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
    assert r.json()["summary"] == "seating: 3 players, round 1, tables 1-2"
    post(hub, 1, press("e", "E", S1901 + timedelta(seconds=12)))
    post(hub, 2, press("f", "F", S1901 + timedelta(seconds=20)))
    rows = [r for r in hub.client.get("/api/td/penalties?round=1").json() if r["kind"] == "late"]
    assert [(r["table"], r["power"], r["player"]) for r in rows] == [
        (1, "E", "Alice Smith"), (2, "F", "Chloé O'Neil, jr")]
    state = hub.client.get("/api/td/state").json()
    assert {(p["table"], p["power"], p["player"]) for p in state["penalties"]
            if p["kind"] == "late"} == {(1, "E", "Alice Smith"), (2, "F", "Chloé O'Neil, jr")}
    text = hub.client.get("/api/penalties.csv").text
    assert text.splitlines()[0].endswith(
        ",decided_at,player,units,paused_seconds,deadline_before_pauses")
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


@pytest.mark.parametrize("text", [
    SEATING,
    "1,1,A,Zoë\u00a0Li\n",  # a no-break space, as a word processor types it
    "100,1,A,Ann\n",  # no round 100 at the hub
    "1,1000,A,Ann\n",
    "1,one,A,Ann\n",
    "1,1,Prussia,Ann\n",
    "1,1,A\n",
    "1,1,A,\x07bell\n",
    "1,1,A," + "x" * 81 + "\n",
])
def test_the_hub_and_dipclock_seat_read_a_seating_file_alike(text):
    """One reader (``dipclock.seating.seatfile``) for both: a file one takes the other
    takes, as the same seats; one refuses, the other does too, in the same words."""
    def hub_reads() -> tuple[list[Seat] | None, str]:
        try:
            return seats_from_csv(text), ""
        except Refused as exc:
            assert exc.message.startswith("seating line ")
            return None, exc.message.removeprefix("seating ")

    def cli_reads() -> tuple[list[Seat] | None, str]:
        try:
            return read_history(text, "h.csv"), ""
        except UsageError as exc:
            assert str(exc).startswith("h.csv: line ")
            return None, str(exc).removeprefix("h.csv: ")

    assert hub_reads() == cli_reads()


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


def test_a_late_power_s_units_make_the_review_name_the_orders_to_delete(hub):
    """Graduated penalties: 16-30 s late deletes 2 orders; with the units the TD entered,
    the review and the CSV say which, and the kiosk-facing proposal is otherwise unchanged."""
    csrf = hub.sign_in()
    hub.set_up(csrf, event="graduated20")  # Spring 20 min, bands 15 s: 1, 30 s: 2, ...
    deadline = START + timedelta(minutes=20)
    post(hub, 1, press("a", "A", deadline + timedelta(seconds=20)))
    post(hub, 2, press("t", "T", deadline + timedelta(seconds=20)))

    def rows():
        return {(r["table"], r["power"]): r for r in
                hub.client.get("/api/td/penalties?round=1").json() if r["kind"] == "late"}

    before = rows()[(1, "A")]
    assert (before["proposed"]["text"], before["units"]) == ("2-unit NMR", [])
    assert before["units_asked"]  # the page offers the units' field: the hub says so
    assert "deleted_orders" not in before["proposed"]
    r = hub.client.put("/api/td/units", headers=csrf, json={
        "round": 1, "table": 1, "power": "Austria", "phase": "s1901",
        "units": " F Tri, A  Vie,a bud "})
    assert r.status_code == 200, r.text
    assert r.json()["units"] == ["F Tri", "A Vie", "A Bud"]
    assert r.json()["summary"] == "units: round 1 table 1 Austria S1901: F Tri, A Vie, A Bud"
    got = rows()
    assert got[(1, "A")]["units"] == ["F Tri", "A Vie", "A Bud"]
    # Budapest, Trieste, Vienna: the alphabetically earliest provinces, by their names
    assert got[(1, "A")]["proposed"]["deleted_orders"] == ["A Bud", "F Tri"]
    assert got[(1, "A")]["proposed"]["text"] == "2-unit NMR: delete A Bud, F Tri"
    assert got[(1, "A")]["proposed"]["label"] == "2-unit NMR"
    assert got[(2, "T")]["proposed"]["text"] == "2-unit NMR"  # another table's: untouched
    assert hub.client.get("/api/td/units?round=1").json() == [{
        "round": 1, "table": 1, "power": "A", "phase": "S1901",
        "units": ["F Tri", "A Vie", "A Bud"]}]
    assert hub.client.get("/api/td/state").json()["audit"][0]["action"] == "units"
    text = hub.client.get("/api/penalties.csv?round=1").text
    assert ",player,units," in text.splitlines()[0]
    line = next(g for g in csv.DictReader(io.StringIO(text)) if g["power"] == "A")
    assert (line["proposed"], line["units"]) == ("2-unit NMR: delete A Bud, F Tri",
                                                 "F Tri, A Vie, A Bud")
    # two units only: both orders go, which is every order the power has
    hub.client.put("/api/td/units", headers=csrf, json={
        "round": 1, "table": 1, "power": "A", "phase": "S1901", "units": ["A Vie", "A Bud"]})
    assert rows()[(1, "A")]["proposed"]["text"] == (
        "2-unit NMR: delete all 2 orders (A Bud, A Vie)")
    # none clears them
    r = hub.client.put("/api/td/units", headers=csrf, json={
        "round": 1, "table": 1, "power": "A", "phase": "S1901", "units": ""})
    assert r.json()["summary"] == "units: round 1 table 1 Austria S1901 cleared"
    assert rows()[(1, "A")]["proposed"]["text"] == "2-unit NMR"
    assert hub.client.get("/api/td/units").json() == []


def test_bad_units_are_one_clear_refusal_and_nothing_is_stored(hub, td):
    base = {"round": 1, "table": 1, "power": "A", "phase": "S1901"}
    for change, says in (
        ({"units": "A Vie, A Xyz"}, "units: 'Xyz' is not a province of the standard map"),
        ({"units": "A Vei"}, "units: 'Vei' is not a province of the standard map: did you mean"),
        ({"units": "A " + "x" * 30}, "units.0:"),
        ({"units": "A Vie,\x07"}, "units.1: a unit is printable text"),
        ({"units": ", ".join(f"A U{n}" for n in range(35))}, "units:"),
        ({"power": "Spain", "units": "A Vie"}, "power:"),
        ({"phase": "X1901", "units": "A Vie"}, "phase:"),
    ):
        r = hub.client.put("/api/td/units", headers=td, json=base | change)
        assert r.status_code == 422 and r.json()["detail"].startswith(says), (change, r.text)
        assert "\n" not in r.json()["detail"]
    assert hub.client.get("/api/td/units").json() == []
    hub.client.post("/api/logout", json={}, headers=td)
    assert hub.client.get("/api/td/units").status_code == 401
    assert hub.client.put("/api/td/units", json=base | {"units": "A Vie"}).status_code in (
        401, 403)


def test_a_hub_stored_before_units_gets_the_table_and_keeps_its_seating(tmp_path):
    path = tmp_path / "hub.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript("".join(MIGRATIONS[:3]) + "PRAGMA user_version = 3;")
    db.execute("INSERT INTO seating VALUES(1, 1, 'E', 'Alice Smith')")
    db.close()
    store = Store(path)
    try:
        assert [s.player for s in store.seating()] == ["Alice Smith"] and store.units() == []
    finally:
        store.close()


def test_a_unit_typed_twice_is_stored_once_in_its_usual_short_form(hub, td):
    r = hub.client.put("/api/td/units", headers=td, json={
        "round": 1, "table": 1, "power": "A", "phase": "S1901",
        "units": "A Vie, a vie, fleet tri, Budapest"})
    assert r.status_code == 200, r.text
    assert r.json()["units"] == ["A Vie", "F Tri", "Bud"]
