"""Game-end votes and the hub's own guarantees (issue 37): a power cut in the middle of a
vote's change leaves the store whole; junk never reaches a 500; the phones' routes need the
table's key before their bodies are read; a board clock is held while its vote runs where
the event says so."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN, EventProfile
from dipclock.phaseview import view
from dipclock.schedule import Schedule
from dipclock.votes.rules import VoteRules
from server.bodylimit import DEFAULT, limit_for
from server.rounds import with_votes
from server.store import VoteRow
from tests.server.test_results_desk import seated
from tests.server.test_state import snap
from tests.server.test_validation import JSON
from tests.server.test_votes import CHART, Table, at_phase, opened, stage

ROOT = Path(__file__).resolve().parents[2]

#: a child process that makes the change a press makes when the last vote comes (the
#: secret kept, the vote closed as passed, its secrets forgotten) and dies before the
#: commit, as a hub does when the power goes
DIES_MID_WRITE = """
import os, sys
from datetime import datetime
from pathlib import Path
from server.store import Store

store = Store(Path(sys.argv[1]))
vid = int(sys.argv[2])

def work(tx):
    tx.keep_secret(vid, "T", "yes")
    tx.update(vid, voted=tuple("AEFGIRT"), state="passed", headline="Draw agreed",
              closed_at=tx.now, chart_year=1905)
    tx.forget(vid)
    tx.log("round 1 table 1: passed", "vote 1/1")
    os._exit(9)

store.vote_change(datetime.fromisoformat(sys.argv[3]), work, subject="vote 1/1",
                  action=False)
"""


def test_a_power_cut_in_the_middle_of_a_vote_s_change_keeps_the_store_whole(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    t.vote(vid, dict.fromkeys("AEFGIR", "yes"))
    db = hub.data_dir / "hub.sqlite3"
    done = subprocess.run([sys.executable, "-c", DIES_MID_WRITE, str(db), str(vid),
                           hub.clock.moment().isoformat()], cwd=ROOT, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode == 9, done.stderr
    hub.restart()
    shown = snap(hub, 1)["vote"]
    assert (shown["state"], shown["voted"]) == ("open", list("AEFGIR"))
    assert snap(hub, 1)["schedule"]["ends"] == []
    store = hub.client.app.state.hub.store
    assert len(store._all("SELECT * FROM vote_secrets")) == 6
    assert not any("passed" in a.summary for a in store.audit())
    # the vote goes on where it was: Turkey's vote ends it
    Table(hub).vote(vid, {"T": "yes"})
    assert snap(hub, 1)["vote"]["state"] == "passed" and stage(hub, 1)[0] == "game_over"


def test_a_phone_s_vote_routes_need_the_table_s_key(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    stranger = Table(hub).client
    for method, path in (("GET", "/api/votes/1/1"), ("POST", "/api/votes/1/1"),
                         ("POST", "/api/votes/1/1/1/claims"),
                         ("GET", "/api/votes/1/1/1/claims/abcdefgh")):
        r = stranger.request(method, path, content=b"{")
        assert r.status_code == 401, (path, r.text)
        assert r.json()["detail"] == "open the vote from the table's QR code (its result sheet)"
        r = stranger.request(method, path, content=b"{", headers={"X-Sheet-Key": "a" * 16})
        assert r.status_code == 403, (path, r.text)
    # another table's key is not this table's
    two = Table(hub, 2)
    r = two.client.get("/api/votes/1/1", headers=two.key)
    assert r.status_code == 403
    # the TD's routes are the TD's
    assert stranger.get("/api/td/votes").status_code == 401
    assert limit_for("/api/votes/1/1") == DEFAULT == limit_for("/api/td/votes")


def test_a_malformed_proposal_is_one_line_naming_the_field(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    for body, words in (
            ({"form": "draw:X", "centres": CHART, "proposer": "A"}, "form"),
            ({"form": "dias", "centres": {"A": 5}, "proposer": "A"},
             "every power's centres are needed"),
            ({"form": "dias", "centres": CHART | {"A": 30}, "proposer": "A"}, "add up to"),
            ({"form": "dias", "centres": CHART, "proposer": "Q"}, "proposer"),
            ({"form": "dias", "centres": CHART}, "proposer")):
        r = t.client.post("/api/votes/1/1", json=body, headers=t.headers("x"))
        assert r.status_code == 422 and words in r.json()["detail"], r.text
        assert "\n" not in r.json()["detail"]
    assert t.get()["vote"] is None


PHONE = [("POST", "/api/votes/1/1"), ("POST", "/api/votes/1/1/1/claims"),
         ("POST", "/api/votes/1/1/x/claims"), ("GET", "/api/votes/1/1/1/claims/%00"),
         ("GET", "/api/votes/1/9999")]
TD = [("POST", "/api/td/votes"), ("POST", "/api/td/votes/1/count"),
      ("POST", "/api/td/votes/1/veto"), ("POST", "/api/td/votes/1/cancel"),
      ("POST", "/api/td/votes/1/undo"), ("POST", "/api/td/votes/99/undo"),
      ("GET", "/api/td/votes?round=0"), ("GET", "/api/td/votes/record?round=x"),
      ("POST", "/api/tables/1/votes/presses")]
CHOICE = st.sampled_from(["yes", "no", "abstain", "veto", "maybe"])
POWER = st.sampled_from(["A", "F", "France", "Q", ""])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(PHONE + TD),
       body=JSON | st.fixed_dictionaries({}, optional={
           "form": JSON | st.sampled_from(["dias", "draw:A,E", "concede:F", "draw:", "x:y"]),
           "centres": JSON | st.just(CHART) | st.dictionaries(POWER, st.integers(-1, 40)),
           "previous": JSON, "proposer": JSON | POWER, "power": JSON | POWER,
           "choice": JSON | CHOICE, "round": JSON | st.integers(0, 3),
           "table": JSON | st.integers(0, 5), "absent": JSON | st.lists(POWER),
           "votes": JSON | st.dictionaries(POWER, CHOICE),
           "presses": JSON | st.lists(st.fixed_dictionaries({
               "id": st.just("p1"), "vote": st.integers(0, 3), "power": POWER,
               "at": st.sampled_from(["2024-05-04T12:00:00", "x"])}))})
       | st.binary(max_size=100))
def test_junk_never_gets_a_500(hub, td, route, body):
    if not hasattr(hub, "_voting"):
        seated(hub, td)
        at_phase(hub, "S1906")
        hub._voting = Table(hub)
        opened(hub._voting)
    method, path = route
    headers = td | hub._voting.headers("fuzz") | {"Content-Type": "application/json"}
    if path.startswith("/api/tables/"):
        headers |= hub.kiosk_headers(1)
    content = body if isinstance(body, bytes) else json.dumps(body, allow_nan=True).encode()
    r = hub.client.request(method, path, content=content, headers=headers)
    assert r.status_code < 500, (r.status_code, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str | list)


def _row(state: str, opened_at: datetime | None, closed_at: datetime | None) -> VoteRow:
    return VoteRow(
        id=1, round=1, table=3, form="dias", proposer="A", year=1905, season="fall",
        centres=CHART, previous=None, absent=(), voters=tuple("AEFGIRT"), voted=(),
        state=state, why="", headline="Draw agreed, Spring 1906: the 1905 centre chart counts"
        if state == "passed" else "", chart_year=1905 if state == "passed" else None,
        vetoed_by=None, proposed_at=opened_at or datetime(2024, 5, 4, 9), proposed_by="the TD",
        opened_at=opened_at, closed_at=closed_at, closed_by=None, undone_at=None,
        undone_by=None)


def test_a_board_clock_is_held_while_its_vote_runs_where_the_event_says_so():
    """``VoteRules.clock_stops`` (a board clock only: wdc2018's "The clock DOES NOT STOP for
    draw votes" is a hall's central clock): the table is held from the ballot's opening to
    its close; elsewhere, and at a central clock, nothing stops."""
    board = BUILTIN["wdc2006"].model_copy(update={
        "central_clock": False, "votes": VoteRules(clock_stops=True)})
    start = datetime(2024, 5, 4, 9)
    opens = start + timedelta(minutes=5)
    base = Schedule(start=start)
    held = with_votes(base, [_row("open", opens, None)], board)
    [hold] = held.pauses
    assert (hold.table, hold.at, hold.ended, hold.reason) == (3, opens, None, "vote")
    assert view(board, held, opens + timedelta(minutes=1), 3).stage == "held"
    assert view(board, held, opens + timedelta(minutes=1), 2).stage != "held"
    over = with_votes(base, [_row("failed", opens, opens + timedelta(minutes=2))], board)
    assert over.pauses[0].ended == opens + timedelta(minutes=2) and over.ends == ()
    central = BUILTIN["wdc2006"].model_copy(update={"votes": VoteRules(clock_stops=True)})
    assert with_votes(base, [_row("open", opens, None)], central) == base
    # a passed vote ends the game when it closed; one undone does not
    ended = with_votes(base, [_row("passed", opens, opens + timedelta(minutes=2))],
                       EventProfile.model_validate(BUILTIN["wdc2006"].model_dump()))
    assert [(e.table, e.at) for e in ended.ends] == [(3, opens + timedelta(minutes=2))]
