"""Earlier rounds stay as they were played: their presses and their event's rules."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import timedelta
from pathlib import Path

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
    # a press made in round 2 files as before; a button test before any round is refused
    # (filed, it would count against a round before it began: ``dipclock.stamps``)
    reply = post(hub, 3, press("r2", "E", ROUND2 + timedelta(minutes=17, seconds=5)),
                 press("test", "F", START - timedelta(days=1)))
    assert [x["id"] for x in reply["rejected"]] == ["test"]
    assert "before round 1 starts" in reply["rejected"][0]["reason"]
    assert [p["id"] for p in snap(hub, 3)["presses"]] == ["r2"]
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


MY_OPEN = (Path(__file__).resolve().parents[2] / "examples/events/my-open.toml").read_text()
# my-open: Spring 1901 ends 09:15, Fall 1901 09:27, graduated penalties (30 s grace)
M_S1901, M_F1901 = START + timedelta(minutes=15), START + timedelta(minutes=27)


def csv_rows(hub, round_no: int | None = None) -> list[dict[str, str]]:
    path = "/api/penalties.csv" + (f"?round={round_no}" if round_no else "")
    return list(csv.DictReader(io.StringIO(hub.client.get(path).text)))


def decide(hub, csrf, table: int, power: str, phase: str, decision: str, **more) -> None:
    r = hub.client.post("/api/td/penalties", headers=csrf, json={
        "round": 1, "table": table, "power": power, "phase": phase, "decision": decision,
        **more})
    assert r.status_code == 200, r.text


def test_an_event_chosen_after_a_round_is_played_is_for_the_next_round(hub):
    csrf = hub.sign_in()
    r = hub.client.put("/api/td/event", json={"toml": MY_OPEN, "filename": "my-open.toml"},
                       headers=csrf)
    assert r.json()["from_round"] == 1
    set_round(hub, csrf, 1, START)
    hub.client.put("/api/td/tables", json={"count": 2}, headers=csrf).raise_for_status()
    hub.at(START + timedelta(minutes=40))
    post(hub, 1, press("a", "A", M_S1901 + timedelta(seconds=40)),
         press("e", "E", M_S1901 + timedelta(seconds=50)),
         press("f", "F", M_F1901 + timedelta(seconds=70)))
    post(hub, 2, press("g", "G", M_S1901 + timedelta(seconds=35)),
         press("i", "I", M_F1901 + timedelta(seconds=45)))
    decide(hub, csrf, 1, "A", "S1901", "confirm")
    decide(hub, csrf, 1, "E", "S1901", "change", final="1 unit deleted", note="clock unclear")
    decide(hub, csrf, 2, "G", "S1901", "waive")
    hub.client.post("/api/td/call", json={}, headers=csrf).raise_for_status()
    before = csv_rows(hub)
    assert len([b for b in before if b["kind"] == "late"]) == 5
    state = hub.client.get("/api/td/state").json()
    assert state["round"]["started"] and state["round"]["event"]["name"] == "My Open 2026"

    r = hub.client.put("/api/td/event", json={"builtin": "wdc2006"}, headers=csrf)
    assert r.status_code == 200 and r.json()["from_round"] == 2
    assert csv_rows(hub) == before  # every row, decision and deadline as played
    assert snap(hub, 1)["event"]["id"] == "my-open"  # round 1 still plays (and shows) it
    state = hub.client.get("/api/td/state").json()
    assert (state["round"]["event"]["id"], state["event"]["id"]) == ("my-open", "wdc2006")
    assert "from round 2 on (round 1 keeps My Open 2026)" in state["audit"][0]["summary"]
    # round 1 is a record: correcting it (a later call) takes a reopen on purpose, and it
    # keeps its event
    later = {"number": 1, "start": START.isoformat(),
             "call": (START + timedelta(hours=3)).isoformat()}
    r = hub.client.put("/api/td/round", headers=csrf, json=later)
    assert r.status_code == 409 and "round 1 is a record" in r.json()["detail"]
    r = hub.client.put("/api/td/round", headers=csrf, json=later | {"reopen": True})
    assert r.status_code == 200
    assert snap(hub, 1)["event"]["id"] == "my-open"
    set_round(hub, csrf, 2, ROUND2)
    assert snap(hub, 1)["event"]["id"] == "wdc2006"
    assert [b for b in csv_rows(hub, 1) if b["kind"] == "late"] == [
        b for b in before if b["kind"] == "late"]
    # a round not started yet takes a new choice at once
    r = hub.client.put("/api/td/event", json={"builtin": "graduated20"}, headers=csrf)
    assert r.json()["from_round"] == 2 and snap(hub, 1)["event"]["id"] == "graduated20"


def test_every_round_is_reviewable_and_the_undecided_are_counted(hub, td):
    post(hub, 1, press("a", "A", S1901 + timedelta(seconds=15)))
    set_round(hub, td, 2, ROUND2)
    hub.at(ROUND2 + timedelta(minutes=30))
    post(hub, 2, press("e", "E", ROUND2 + timedelta(minutes=17, seconds=10)))
    state = hub.client.get("/api/td/state").json()
    assert state["review_round"] == 2
    assert {(p["round"], p["power"]) for p in state["penalties"] if p["kind"] == "late"} == {
        (2, "E")}
    undecided = state["undecided"]
    assert undecided == sum(r["undecided"] for r in state["rounds"]) > 2
    one = hub.client.get("/api/td/state?review=1").json()
    assert one["review_round"] == 1 and {p["round"] for p in one["penalties"]} == {1}
    assert {p["round"] for p in hub.client.get("/api/td/penalties?round=1").json()} == {1}
    assert {r["round"] for r in csv_rows(hub, 2)} == {"2"}
    assert {r["round"] for r in csv_rows(hub)} == {"1", "2"}
    got = hub.client.get("/api/penalties.csv?round=1")
    assert 'filename="penalties-round-1.csv"' in got.headers["content-disposition"]
    decide(hub, td, 1, "A", "S1901", "waive")
    assert hub.client.get("/api/td/state").json()["undecided"] == undecided - 1
    assert hub.client.get("/api/td/penalties?round=0").status_code == 422
