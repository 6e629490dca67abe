"""A long event costs no more per request than a short one: the hub reads again only the
tables that changed (``server.history``). Counted in presses read from the store, not in
milliseconds (those are ``benchmarks/history.py``'s)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from dipclock.late import LATE_WINDOW
from server.store import Store
from tests.server.conftest import START
from tests.server.test_round_history import set_round
from tests.server.test_state import S1901, post, press

ROUND2 = START + timedelta(days=1)


class Reads:
    """Every press row ``Store.presses`` returns, by (round, table)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.rows: list[tuple[int, int]] = []
        real = Store.presses

        def counted(store: Store, round_no: int, table: int | None = None):
            got = real(store, round_no, table)
            self.rows += [(r.round, r.table) for r in got]
            return got

        monkeypatch.setattr(Store, "presses", counted)

    def take(self) -> list[tuple[int, int]]:
        got, self.rows = self.rows, []
        return got


@pytest.fixture
def event(hub, td):
    """Round 1 played on four tables (every power in, one late), round 2 under way."""
    for n in range(1, 5):
        post(hub, n, *(press(f"r1-{n}-{p}", p, S1901 - timedelta(minutes=1)) for p in "AEFGIR"),
             press(f"r1-{n}-T", "T", S1901 + timedelta(seconds=20)))
    set_round(hub, td, 2, ROUND2)
    hub.at(ROUND2 + timedelta(minutes=5))
    return hub.sign_in()  # a day later: yesterday's session is over


def state(hub) -> dict:
    r = hub.client.get("/api/td/state")
    assert r.status_code == 200, r.text
    return r.json()


def test_an_unchanged_hall_is_not_read_again(hub, event, monkeypatch):
    first = state(hub)
    reads = Reads(monkeypatch)
    assert state(hub) == first | {"hub_time": first["hub_time"]}
    assert reads.take() == []
    # every round's undecided lines are still counted: round 1's four late Turks
    assert first["undecided"] == 4 and [r["undecided"] for r in first["rounds"]] == [4, 0]


def test_a_press_is_read_once_for_its_table_alone(hub, event, monkeypatch):
    state(hub)
    reads = Reads(monkeypatch)
    at = ROUND2 + timedelta(minutes=4)
    post(hub, 3, press("r2-3-A", "A", at))  # the push to table 3 reads table 3 only
    assert set(reads.take()) <= {(2, 3)}
    s = state(hub)
    # the grid's and the review's one read each, of round 2's table 3 and its one press
    assert reads.take() == [(2, 3), (2, 3)]
    tile = next(t for t in s["tables"] if t["table"] == 3)
    assert next(p for p in tile["powers"] if p["power"] == "A")["in"]


def test_a_late_press_uploaded_for_a_past_round_judges_that_table_again(hub, event, monkeypatch):
    state(hub)
    reads = Reads(monkeypatch)
    post(hub, 2, press("r1-2-T-again", "T", S1901 + timedelta(seconds=40)))
    reads.take()
    before = state(hub)
    assert (1, 2) in reads.take()
    csv_rows = list(csv.DictReader(io.StringIO(hub.client.get("/api/penalties.csv").text)))
    assert reads.take() == []  # the CSV finds every table judged
    assert before["rounds"][0]["undecided"] == 4  # a second press of Turkey's: not late again
    assert [(r["round"], r["table"], r["power"]) for r in csv_rows if r["kind"] == "late"] == [
        (str(1), str(n), "T") for n in (1, 2, 3, 4)]


def test_a_closing_late_window_judges_the_round_again_but_not_the_past(hub, event, monkeypatch):
    post(hub, 1, press("r2-1-A", "A", ROUND2 + timedelta(minutes=1)))  # table 1's buttons in use
    state(hub)
    reads = Reads(monkeypatch)
    s1901 = ROUND2 + timedelta(minutes=17)
    hub.at(s1901 + LATE_WINDOW + timedelta(seconds=1))
    s = state(hub)
    assert set(reads.take()) == {(2, 1)}  # round 1 is final; round 2's table 1 judged again
    # the six powers that never pressed for Spring 1901 are now missed, for the TD to rule on
    assert s["undecided"] == 4 + 6
    state(hub)
    assert reads.take() == []


def test_the_judgment_follows_extra_time(hub, event):
    """A change to the round's schedule moves its deadlines: its tables are judged again.
    (Here the TD corrects the round's start: it began a minute later than set up.)"""
    post(hub, 1, press("r2-1-A", "A", ROUND2 + timedelta(minutes=17, seconds=30)))
    assert [r["seconds_late"] for r in state(hub)["penalties"]] == [30.0]
    r = hub.client.put("/api/td/round", headers=event, json={
        "number": 2, "start": (ROUND2 + timedelta(minutes=1)).isoformat(), "reopen": True})
    assert r.status_code == 200, r.text
    assert [r["seconds_late"] for r in state(hub)["penalties"]] == []  # on time now


def test_a_hub_data_dir_from_before_revisions_counts_its_presses(tmp_path):
    from datetime import datetime

    from server.store import PressRow

    path = tmp_path / "hub.sqlite3"
    store = Store(path)
    at = datetime(2024, 5, 4, 9, 5)
    store.add_presses([PressRow(f"p{k}", 1, 1 + k % 2, "A", "press", at) for k in range(5)], at)
    assert store.table_revs(1) == {1: 1, 2: 1}  # one upload: one change per table
    with store._tx() as db:  # as version 5 left it
        db.execute("DROP TABLE table_revs")
        db.execute("DROP INDEX presses_holds")
        db.execute("DROP TABLE judged")
        db.execute("DROP TABLE waiting")
        db.execute("DROP TABLE clocks")
        db.execute("DROP TABLE sheets")
        db.execute("DROP TABLE teams")
        db.execute("DROP TABLE round_undo")
        db.execute("DROP TABLE sheet_changes")
        db.execute("DROP TABLE replacements")
        db.execute("DROP TABLE vote_claims")
        db.execute("DROP TABLE vote_secrets")
        db.execute("DROP TABLE votes")
        db.execute("DROP TABLE register")
        db.execute("DROP TABLE apart")
        db.execute("DROP TABLE people")
        db.execute("ALTER TABLE audit DROP COLUMN said")
        db.execute("ALTER TABLE audit DROP COLUMN subject")
        db.execute("PRAGMA user_version = 5")
    store.close()
    again = Store(path)
    assert again.table_revs(1) == {1: 3, 2: 2}
    again.add_presses([PressRow("p9", 1, 2, "A", "hold", at)], at)
    assert again.table_revs(1) == {1: 3, 2: 3} and [h.id for h in again.holds(1)] == ["p9"]
    again.close()


def test_a_restarted_hub_finds_the_past_rounds_judged(hub, event, monkeypatch):
    first = state(hub)
    hub.restart()
    hub.sign_in()
    reads = Reads(monkeypatch)
    again = state(hub)
    assert reads.take() == []  # round 1 judged before the restart; round 2: nothing pressed
    assert again["undecided"] == first["undecided"] == 4
    rows = hub.client.get("/api/td/penalties", params={"round": 1}).json()
    assert [(r["table"], r["power"], r["seconds_late"]) for r in rows] == [
        (n, "T", 20.0) for n in (1, 2, 3, 4)]
