"""The TD shows a table's vote page on its clock (issue 37: a proposal "is started from the
table (a TD-chosen way that does not disturb the clock: a key, a long press on a spare
button, or the TD's dashboard)"): ``POST /api/td/votes/show-code`` puts ``vote_code_until``
in the table's snapshot for 2 minutes, logged; the TD's alone (session and CSRF); a bad body
is one 422 line. Real SQLite on disk (the ``hub`` fixture), the hub's clock jumped."""

from __future__ import annotations

from datetime import timedelta

from tests.server.test_state import snap
from tests.server.test_votes import at_phase

PATH = "/api/td/votes/show-code"


def test_the_td_shows_the_vote_code_on_one_table_for_two_minutes(hub, td):
    at_phase(hub, "S1906", table=2)
    now = hub.clock.moment()
    r = hub.client.post(PATH, json={"round": 1, "table": 2}, headers=td)
    assert r.status_code == 200, r.text
    until = now + timedelta(minutes=2)
    assert r.json() == {"table": 2, "until": until.isoformat()}
    assert snap(hub, 2)["vote_code_until"] == until.isoformat()
    assert snap(hub, 1)["vote_code_until"] is None  # the other tables' clocks do not
    log = hub.client.get("/api/td/state").json()["audit"]
    assert any(a["summary"] == "Table 2: the vote code shown on the clock for 2 minutes"
               for a in log)
    hub.at(until)  # run out: gone from the snapshot
    assert snap(hub, 2)["vote_code_until"] is None


def test_asked_again_it_shows_two_minutes_from_then(hub, td):
    at_phase(hub, "S1906", table=3)
    assert hub.client.post(PATH, json={"round": 1, "table": 3}, headers=td).status_code == 200
    hub.at(hub.clock.moment() + timedelta(seconds=90))
    later = hub.clock.moment() + timedelta(minutes=2)
    assert hub.client.post(PATH, json={"round": 1, "table": 3}, headers=td).status_code == 200
    assert snap(hub, 3)["vote_code_until"] == later.isoformat()


def test_the_snapshot_s_seq_rises_so_the_clock_takes_it(hub, td):
    at_phase(hub, "S1906")
    seq = snap(hub, 1)["seq"]
    assert hub.client.post(PATH, json={"round": 1, "table": 1}, headers=td).status_code == 200
    assert snap(hub, 1)["seq"] > seq


def test_only_the_td_shows_the_code(hub, td):
    at_phase(hub, "S1906")
    clock = hub.kiosk_headers(2)
    body = {"round": 1, "table": 2}
    hub.client.cookies.clear()  # signed out
    assert hub.client.post(PATH, json=body).status_code == 401
    r = hub.client.post(PATH, json=body, headers=clock)  # a table's clock
    assert r.status_code == 403 and "clock's token" in r.json()["detail"]
    hub.sign_in()  # a session, but no CSRF header (a page on another site)
    r = hub.client.post(PATH, json=body)
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
    assert snap(hub, 2)["vote_code_until"] is None


def test_a_bad_body_is_one_422_line_naming_the_field(hub, td):
    r = hub.client.post(PATH, json={"round": 1, "table": "two"}, headers=td)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and detail.startswith("table: ")
    r = hub.client.post(PATH, json={"round": 1}, headers=td)
    assert r.status_code == 422 and r.json()["detail"].startswith("table: ")


def test_a_table_or_round_not_set_up_is_refused_in_one_line(hub, td):
    r = hub.client.post(PATH, json={"round": 1, "table": 9}, headers=td)
    assert (r.status_code, r.json()["detail"]) == (404, "table 9 is not in this round")
    r = hub.client.post(PATH, json={"round": 4, "table": 1}, headers=td)
    assert (r.status_code, r.json()["detail"]) == (404, "no round 4 is set up")


def test_a_round_over_shows_no_code(hub, td):
    at_phase(hub, "S1906")
    start = hub.clock.moment().replace(microsecond=0)
    r = hub.client.put("/api/td/round", json={"number": 2, "start": start.isoformat()},
                       headers=td)
    assert r.status_code == 200, r.text
    r = hub.client.post(PATH, json={"round": 1, "table": 1}, headers=td)
    assert (r.status_code, r.json()["detail"]) == (
        409, "round 1 is over: its vote page is closed")
    assert hub.client.post(PATH, json={"round": 2, "table": 1}, headers=td).status_code == 200
