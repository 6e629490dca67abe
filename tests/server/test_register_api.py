"""Registration for a round on the hub (issue 36): the TD marks each person of the roster
present, absent, asking to sit out or withdrawn, one tap each or every pre-registered at
once; a late arrival until the board call, refused with why after it; a withdrawal held in
later rounds; and what the register gives the Seating card (players, the sit-out order,
the roster's kept-apart pairs), drafted with the volunteers out first. TD-only, bounded,
no 500 on junk. On a real SQLite file in tmp_path, through the app."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipclock.roster import COLUMNS
from server.bodylimit import DEFAULT, limit_for
from server.stale import BASE_HEADER
from tests.server.test_validation import JSON

HEADER = ",".join(COLUMNS)


def roster_csv(n: int) -> str:
    """``n`` people, P01 ... , the odd ones pre-registered."""
    return HEADER + "\n" + "".join(
        f"Given{i:02d},Family{i:02d},1,,,,FR,,{'yes' if i % 2 else 'no'},,\n"
        for i in range(1, n + 1))


def load(hub, csrf, n: int) -> dict[str, int]:
    r = hub.client.post("/api/td/roster/import", content=roster_csv(n).encode(),
                        headers=csrf | {"Content-Type": "text/csv"})
    assert r.status_code == 200, r.text
    return {p["name"]: p["id"] for p in hub.client.get("/api/td/roster").json()["people"]}


def register(hub, round_no: int) -> dict:
    r = hub.client.get(f"/api/td/register/{round_no}")
    assert r.status_code == 200, r.text
    return r.json()


def mark(hub, csrf, round_no: int, person: int, status: str):
    return hub.client.put(f"/api/td/register/{round_no}/people/{person}",
                          json={"status": status}, headers=csrf)


def status(hub, round_no: int) -> dict[str, str]:
    return {p["name"]: p["status"] for p in register(hub, round_no)["people"]}


@pytest.fixture
def signed(hub) -> dict[str, str]:
    return hub.sign_in()


def test_the_register_is_the_td_s_alone(hub, signed):
    ids = load(hub, signed, 3)
    stranger = hub.client.__class__(hub.client.app)
    assert stranger.get("/api/td/register/1").status_code == 401
    assert mark(hub, {}, 1, ids["Given01 Family01"], "present").status_code == 403
    assert hub.client.post("/api/td/register/1/preregistered").status_code == 403
    assert set(status(hub, 1).values()) == {"absent"}


def test_one_tap_each_and_all_pre_registered_at_once(hub, signed):
    ids = load(hub, signed, 6)
    r = mark(hub, signed, 1, ids["Given02 Family02"], "present")
    assert r.status_code == 200 and r.json()["summary"] == (
        "Given02 Family02: present in round 1")
    r = hub.client.post("/api/td/register/1/preregistered", headers=signed)
    assert r.json()["summary"] == "round 1: 3 pre-registered players marked present"
    got = register(hub, 1)
    assert got["counts"] == {"present": 4, "absent": 2, "sitting_out": 0, "withdrawn": 0}
    assert got["players"] == ["Given01 Family01", "Given02 Family02", "Given03 Family03",
                              "Given05 Family05"]
    assert not got["called"]
    log = hub.client.get("/api/td/state").json()["audit"][0]
    assert log["summary"] == "register: round 1: 3 pre-registered marked present"
    assert status(hub, 2) == dict.fromkeys(status(hub, 2), "absent")  # round 2 unmarked


def test_a_late_arrival_until_the_board_call_then_refused_with_why(hub, td):
    ids = load(hub, td, 8)
    for name in list(ids)[:7]:
        assert mark(hub, td, 1, ids[name], "present").status_code == 200
    seats = "".join(f"1,1,{p},{n}\n" for p, n in zip("AEFGIRT", list(ids)[:7], strict=True))
    assert hub.client.put("/api/td/seating", headers=td, json={"csv": seats}).status_code == 200
    assert register(hub, 1)["called"]
    r = mark(hub, td, 1, ids["Given08 Family08"], "present")
    assert r.status_code == 409
    assert r.json()["detail"] == (
        "round 1's seating is called: Given08 Family08 is not added to it by the register. "
        "Seat them by seating the round again with the tables kept: on the Seating card, "
        "add them to the players, give the tables already called, seat and call it")
    # anyone may be marked absent after it; "all pre-registered present" is refused then
    assert mark(hub, td, 1, ids["Given01 Family01"], "absent").status_code == 200
    r = hub.client.post("/api/td/register/1/preregistered", headers=td)
    assert r.status_code == 409 and r.json()["detail"].startswith(
        "round 1's seating is called: Given01 Family01 is not added")
    assert mark(hub, td, 1, ids["Given03 Family03"], "withdrawn").status_code == 200


def test_a_withdrawal_holds_in_later_rounds_until_brought_back(hub, signed):
    ids = load(hub, signed, 4)
    who = ids["Given03 Family03"]
    mark(hub, signed, 3, who, "present")  # marked ahead, then withdrawn before it
    assert mark(hub, signed, 2, who, "withdrawn").status_code == 200
    assert [status(hub, r)["Given03 Family03"] for r in (1, 2, 3, 4)] == [
        "absent", "withdrawn", "withdrawn", "withdrawn"]
    r = hub.client.post("/api/td/register/3/preregistered", headers=signed)
    assert r.json()["summary"] == "round 3: 1 pre-registered player marked present"
    assert mark(hub, signed, 4, who, "present").status_code == 200
    assert status(hub, 4)["Given03 Family03"] == "present"


def test_the_seating_card_drafts_from_the_register_volunteers_out_first(hub, td):
    ids = load(hub, td, 16)
    for name in ids:
        mark(hub, td, 1, ids[name], "present")
    mark(hub, td, 1, ids["Given04 Family04"], "sitting_out")
    mark(hub, td, 1, ids["Given16 Family16"], "absent")  # 15 here: one sits out
    r = hub.client.post("/api/td/roster/apart", headers=td,
                        json={"a": ids["Given01 Family01"], "b": ids["Given02 Family02"]})
    assert r.status_code == 200
    got = register(hub, 1)
    assert len(got["players"]) == 15 and got["sit_out_first"] == [["Given04 Family04"]]
    assert got["groups"] == ["asked to sit out"]
    assert got["apart"] == [["Given01 Family01", "Given02 Family02"]]
    for seed in range(3):
        r = hub.client.post("/api/td/seating/draft", json={
            "round": 1, "players": got["players"], "apart": got["apart"],
            "sit_out_first": got["sit_out_first"], "seed": seed})
        assert r.status_code == 200, r.text
        assert r.json()["sitting_out"] == ["Given04 Family04"]


def test_a_mark_from_a_stale_screen_of_that_person_is_refused_others_pass(hub, signed):
    ids = load(hub, signed, 3)
    base = hub.client.get("/api/td/state").json()["base"]
    mark(hub, signed, 1, ids["Given01 Family01"], "present")
    stale = signed | {BASE_HEADER: str(base)}
    assert mark(hub, stale, 1, ids["Given02 Family02"], "present").status_code == 200
    r = mark(hub, stale, 1, ids["Given01 Family01"], "absent")
    assert r.status_code == 409 and "Given01 Family01 present" in r.json()["detail"]


def test_a_person_not_on_the_roster_or_a_bad_status_is_one_line(hub, signed):
    load(hub, signed, 1)
    r = mark(hub, signed, 1, 99, "present")
    assert r.status_code == 409
    assert r.json()["detail"] == "no person 99 on the roster: reload the roster"
    r = mark(hub, signed, 1, 1, "here")
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)
    assert hub.client.get("/api/td/register/100").status_code == 422


def test_a_mark_body_is_bounded():
    assert limit_for("/api/td/register/1/people/1") == DEFAULT


ROUTES = [("PUT", "/api/td/register/1/people/1"), ("POST", "/api/td/register/1/preregistered"),
          ("PUT", "/api/td/register/0/people/1"), ("PUT", "/api/td/register/1/people/x")]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES),
       body=JSON | st.fixed_dictionaries({"status": JSON | st.sampled_from(
           ["present", "absent", "sitting_out", "withdrawn", ""])}) | st.binary(max_size=100))
def test_junk_never_gets_a_500(hub, signed, route, body):
    method, path = route
    content = body if isinstance(body, bytes) else json.dumps(body, allow_nan=True).encode()
    r = hub.client.request(method, path, content=content,
                           headers=signed | {"Content-Type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str)


def test_a_person_removed_takes_their_marks_along(hub, signed):
    ids = load(hub, signed, 2)
    who = ids["Given01 Family01"]
    assert mark(hub, signed, 1, who, "present").status_code == 200
    assert mark(hub, signed, 2, who, "withdrawn").status_code == 200
    r = hub.client.delete(f"/api/td/roster/people/{who}", headers=signed)
    assert r.status_code == 200, r.text
    assert [p["name"] for p in register(hub, 1)["people"]] == ["Given02 Family02"]
    # added again, the same name is a new person with no marks of the one removed
    r = hub.client.post("/api/td/roster/people", headers=signed,
                        json={"given_name": "Given01", "family_name": "Family01"})
    assert r.status_code == 201, r.text
    assert status(hub, 2)["Given01 Family01"] == "absent"


def test_the_register_follows_the_event_s_sit_out_order(hub, td):
    """wdc2006 2 (the ``td`` fixture's event): volunteers, then players from Berlin, then
    from Germany, each in the first group they are in."""
    lines = HEADER + "\n" + "".join(
        f"Given{i:02d},Family{i:02d},1,,,,{nat},,no,,{town}\n"
        for i, (nat, town) in enumerate([("DE", "Berlin"), ("DE", "Bonn"), ("FR", "Paris"),
                                         ("DE", "berlin"), ("GB", "Leeds")], start=1))
    r = hub.client.post("/api/td/roster/import", content=lines.encode(),
                        headers=td | {"Content-Type": "text/csv"})
    assert r.status_code == 200, r.text
    ids = {p["name"]: p["id"] for p in hub.client.get("/api/td/roster").json()["people"]}
    for name in ids:
        mark(hub, td, 1, ids[name], "present")
    mark(hub, td, 1, ids["Given05 Family05"], "sitting_out")
    got = register(hub, 1)
    assert got["groups"] == ["asked to sit out", "from Berlin", "from Germany"]
    assert got["sit_out_first"] == [["Given05 Family05"],
                                    ["Given01 Family01", "Given04 Family04"],
                                    ["Given02 Family02"]]


def test_wdc2006_sits_out_who_signed_up_after_the_deadline_second(hub, td):
    """wdc2006 2: "a nominal signup deadline 30min before the start of the round";
    "Players who signed up after the signup deadline" are dropped after the volunteers."""
    from datetime import timedelta

    from tests.server.conftest import START

    ids = load(hub, td, 4)
    hub.at(START - timedelta(minutes=45))
    for name in ("Given01 Family01", "Given02 Family02"):
        mark(hub, td, 1, ids[name], "present")
    mark(hub, td, 1, ids["Given04 Family04"], "sitting_out")
    hub.at(START - timedelta(minutes=20))
    mark(hub, td, 1, ids["Given03 Family03"], "present")
    mark(hub, td, 1, ids["Given02 Family02"], "present")  # tapped again: still on time
    got = register(hub, 1)
    assert got["groups"] == ["asked to sit out", "signed up late"]
    assert got["sit_out_first"] == [["Given04 Family04"], ["Given03 Family03"]]
