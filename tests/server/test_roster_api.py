"""The roster on the hub (issue 36): the TD lists, adds, edits and removes people, imports a
CSV file (merged by default, each bad line refused by its number, nothing stored unless the
TD keeps the good lines), exports it back, and keeps pairs apart; a person seated in a
round stays, and says where. On a real SQLite file in tmp_path, through the app."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipclock.roster import COLUMNS
from server.bodylimit import KB, limit_for
from server.stale import BASE_HEADER
from server.store import Store
from server.store.roster import apart_pairs
from tests.server.test_validation import JSON

HEADER = ",".join(COLUMNS)
ROSTER = (f"{HEADER}\n"
          "José,García,1,,12,,ES,Paris,yes,jg@x.es,Madrid\n"
          "John,Smith,1,,,,GB,,no,,\n"
          "John,Smith,2,,,,GB,,no,,\n"
          "Ann,Lee,1,,5,,FR,,yes,,\n")


def send(hub, csrf, text: str | bytes, **query: str):
    data = text.encode() if isinstance(text, str) else text
    return hub.client.post("/api/td/roster/import", params=query, content=data,
                           headers=csrf | {"Content-Type": "text/csv"})


def people(hub) -> dict[str, dict]:
    r = hub.client.get("/api/td/roster")
    assert r.status_code == 200, r.text
    return {p["name"]: p for p in r.json()["people"]}


def add(hub, csrf, **fields):
    return hub.client.post("/api/td/roster/people", json=fields, headers=csrf)


@pytest.fixture
def signed(hub) -> dict[str, str]:
    """A signed-in TD on a hub with no round set up."""
    return hub.sign_in()


def test_the_roster_is_the_td_s_alone(hub, signed):
    stranger = hub.client.__class__(hub.client.app)
    assert stranger.get("/api/td/roster").status_code == 401
    assert stranger.get("/api/td/roster.csv").status_code == 401
    assert send(hub, {}, ROSTER).status_code == 403  # signed in, no CSRF header
    assert add(hub, {}, given_name="A", family_name="B").status_code == 403
    assert people(hub) == {}


def test_an_import_is_listed_and_exported_back_as_the_same_file(hub, signed):
    r = send(hub, signed, ROSTER)
    assert r.status_code == 200, r.text
    assert r.json() | {"added": []} == {
        "stored": True, "added": [], "updated": [], "removed": [], "refused": [],
        "notes": [], "summary": "roster import: 4 added, 0 updated"}
    assert r.json()["added"] == ["José García", "John Smith", "John Smith (2)", "Ann Lee"]
    got = people(hub)
    assert got["José García"] == {
        "id": 1, "name": "José García", "given_name": "José", "family_name": "García",
        "homonym": 1, "note": "", "wdd": 12, "wdr": None, "nationality": "ES",
        "club": "Paris", "preregistered": True, "email": "jg@x.es", "location": "Madrid"}
    exported = hub.client.get("/api/td/roster.csv")
    assert exported.headers["content-type"].startswith("text/csv")
    assert exported.text == ROSTER
    log = hub.client.get("/api/td/state").json()["audit"][0]
    assert (log["action"], log["summary"]) == ("roster", "roster import: 4 added, 0 updated")


def test_refused_lines_store_nothing_unless_the_td_keeps_the_good_ones(hub, signed):
    text = ROSTER + "John,Smith,,,,,GB,,,,\nBob,Ray,,,x,,FR,,,,\nCy,Dee,,,,,ZZ,,,,\n"
    r = send(hub, signed, text)
    assert r.status_code == 422
    body = r.json()
    assert body["stored"] is False and people(hub) == {}
    assert [(x["line"], x["why"][:30]) for x in body["refused"]] == [
        (6, "John Smith is already on line "), (7, "wdd: 'x' is not a positive who"),
        (8, "nationality: 'ZZ' is not a cou")]
    assert body["detail"].startswith("roster file: 3 lines refused, nothing stored: line 6: ")
    r = send(hub, signed, text, keep_good="true")
    assert r.status_code == 200, r.text
    assert r.json()["stored"] is True and len(r.json()["refused"]) == 3
    assert len(people(hub)) == 4


def test_a_second_import_merges_by_name_and_replace_removes_the_others(hub, signed):
    send(hub, signed, ROSTER)
    r = send(hub, signed, "first name,surname,club\nJOSÉ,garcía,Lyon\nEve,Fox,\n")
    assert r.status_code == 200, r.text
    assert (r.json()["added"], r.json()["updated"]) == (["Eve Fox"], ["JOSÉ garcía"])
    got = people(hub)
    assert got["JOSÉ garcía"]["id"] == 1 and got["JOSÉ garcía"]["club"] == "Lyon"
    assert got["JOSÉ garcía"]["wdd"] is None  # the file's line is the whole person
    assert len(got) == 5
    r = send(hub, signed, "given,family\nAnn,Lee\n", mode="replace")
    assert r.status_code == 200, r.text
    assert r.json()["removed"] == ["JOSÉ garcía", "John Smith", "John Smith (2)", "Eve Fox"]
    assert list(people(hub)) == ["Ann Lee"]


def test_two_people_may_swap_their_ids_in_one_import(hub, signed):
    send(hub, signed, "given,family,wdd,wdr\nAnn,Lee,5,7\nBob,Ray,6,8\n")
    r = send(hub, signed, "given,family,wdd,wdr\nAnn,Lee,6,8\nBob,Ray,5,7\n")
    assert r.status_code == 200, r.text
    assert [(p["wdd"], p["wdr"]) for p in people(hub).values()] == [(6, 8), (5, 7)]


def test_a_file_that_is_not_utf_8_is_read_as_excel_saves_it(hub, signed):
    r = send(hub, signed, "given;family\nJosé;García\n".encode("cp1252"))
    assert r.status_code == 200, r.text
    assert r.json()["notes"][0].startswith("the file is not UTF-8: read as Windows-1252")
    assert list(people(hub)) == ["José García"]


@pytest.mark.parametrize(("body", "said"), [
    (b"", "roster file: the file is empty"),
    (b"name\nAnn Lee\n", "roster file: line 1: the first line names the columns"),
    (b"given,family\n\x81\x8d,\xff\n", "roster file: the file is not text this reads"),
])
def test_a_file_that_cannot_be_read_is_one_line(hub, signed, body, said):
    r = send(hub, signed, body)
    assert r.status_code == 422 and r.json()["detail"].startswith(said)


def test_a_bad_mode_is_a_422_not_a_500(hub, signed):
    r = send(hub, signed, ROSTER, mode="everything")
    assert r.status_code == 422 and "mode" in r.json()["detail"]


def test_add_edit_and_remove_one_person(hub, signed):
    r = add(hub, signed, given_name="Ann", family_name="Lee", nationality="fr", wdd=5)
    assert r.status_code == 201, r.text
    ann = r.json()["person"]
    assert (ann["name"], ann["nationality"]) == ("Ann Lee", "FR")
    # the same name again, capitals aside, or the same WDD id: 409 with why
    r = add(hub, signed, given_name="ANN", family_name="lee")
    assert r.status_code == 409 and r.json()["detail"].startswith("ANN lee is already on the "
                                                                   "roster: two people")
    r = add(hub, signed, given_name="Ann", family_name="Lee", homonym=2, wdd=5)
    assert r.status_code == 409
    assert r.json()["detail"] == "WDD id 5 is already Ann Lee's (on the roster)"
    r = add(hub, signed, given_name="Ann", family_name="Lee", homonym=2)
    assert r.status_code == 201 and r.json()["person"]["name"] == "Ann Lee (2)"
    # a bad field: 422 naming it
    r = add(hub, signed, given_name="Bob", family_name="Ray", nationality="UK")
    assert r.status_code == 422 and r.json()["detail"].startswith("nationality: 'UK' is not")
    r = add(hub, signed, given_name="Bob", family_name="Ray", email="bob")
    assert r.status_code == 422 and r.json()["detail"].startswith("email: ")
    r = hub.client.put(f"/api/td/roster/people/{ann['id']}", headers=signed, json={
        "given_name": "Ann", "family_name": "Lee-Wong", "club": "Dip Lyon"})
    assert r.status_code == 200, r.text
    assert r.json()["summary"] == "Ann Lee, now Ann Lee-Wong, changed on the roster"
    assert people(hub)["Ann Lee-Wong"]["wdd"] is None
    r = hub.client.delete(f"/api/td/roster/people/{ann['id']}", headers=signed)
    assert r.status_code == 200 and r.json()["summary"] == "Ann Lee-Wong removed from the roster"
    assert list(people(hub)) == ["Ann Lee (2)"]
    r = hub.client.delete(f"/api/td/roster/people/{ann['id']}", headers=signed)
    assert r.status_code == 409 and "reload the roster" in r.json()["detail"]
    r = hub.client.put("/api/td/roster/people/99", headers=signed,
                       json={"given_name": "X", "family_name": "Y"})
    assert r.status_code == 409


def test_a_seated_person_stays_and_keeps_the_name_the_seat_names(hub, td):
    send(hub, td, ROSTER)
    r = hub.client.put("/api/td/seating", headers=td,
                       json={"csv": "1,3,A,Ann Lee\n1,3,E,John Smith (2)\n"})
    assert r.status_code == 200, r.text
    ann = people(hub)["Ann Lee"]
    r = hub.client.delete(f"/api/td/roster/people/{ann['id']}", headers=td)
    assert r.status_code == 409
    assert r.json()["detail"] == (
        "Ann Lee is seated in round 1 table 3 (Austria): Ann Lee stays on the roster while a "
        "seat names them (take them out of that seating first)")
    body = {"given_name": "Ann", "family_name": "Lee", "wdd": 5, "club": "New club"}
    r = hub.client.put(f"/api/td/roster/people/{ann['id']}", headers=td, json=body)
    assert r.status_code == 200, r.text  # the name stays: any other field may change
    r = hub.client.put(f"/api/td/roster/people/{ann['id']}", headers=td,
                       json=body | {"family_name": "Leigh"})
    assert r.status_code == 409 and r.json()["detail"].startswith(
        "Ann Lee is seated in round 1 table 3 (Austria): Ann Lee's name stays as it is")
    # a file that names her in other capitals: that line is refused, by its number
    r = send(hub, td, "given,family,club\nANN,LEE,X\nJohn,Smith,Y\n")
    assert r.status_code == 422 and [(x["line"], x["why"]) for x in r.json()["refused"]] == [
        (2, "Ann Lee is seated in round 1 table 3 (Austria): the name stays as the seat has "
            "it (ANN LEE refused)")]
    # replacing the roster by a file without her: refused whole
    r = send(hub, td, "given,family\nJohn,Smith\n", mode="replace")
    assert r.status_code == 409 and r.json()["detail"].endswith(
        "is seated in round 1 table 3 (England): the roster is not replaced (keep them in the "
        "file, or merge instead)")
    assert len(people(hub)) == 4


def test_pairs_kept_apart_live_with_the_roster(hub, signed):
    send(hub, signed, ROSTER)
    ids = {n: p["id"] for n, p in people(hub).items()}
    r = hub.client.post("/api/td/roster/apart", headers=signed,
                        json={"a": ids["John Smith (2)"], "b": ids["Ann Lee"]})
    assert r.status_code == 200 and r.json()["summary"] == "John Smith (2) and Ann Lee kept apart"
    hub.client.post("/api/td/roster/apart", headers=signed,
                    json={"a": ids["José García"], "b": ids["Ann Lee"]})
    assert hub.client.get("/api/td/roster/apart").json() == [
        {"a": ids["José García"], "b": ids["Ann Lee"], "a_name": "José García",
         "b_name": "Ann Lee"},
        {"a": ids["John Smith (2)"], "b": ids["Ann Lee"], "a_name": "John Smith (2)",
         "b_name": "Ann Lee"}]
    store: Store = hub.client.app.state.hub.store
    assert apart_pairs(store) == {("Ann Lee", "John Smith (2)"), ("Ann Lee", "José García")}
    r = hub.client.post("/api/td/roster/apart", headers=signed,
                        json={"a": ids["Ann Lee"], "b": ids["Ann Lee"]})
    assert r.status_code == 409 and r.json()["detail"] == "a pair kept apart is two people"
    r = hub.client.delete(f"/api/td/roster/apart/{ids['Ann Lee']}/{ids['José García']}",
                          headers=signed)
    assert r.status_code == 200 and "no longer kept apart" in r.json()["summary"]
    # a person removed takes their pairs along
    hub.client.delete(f"/api/td/roster/people/{ids['John Smith (2)']}", headers=signed)
    assert hub.client.get("/api/td/roster").json()["apart"] == []
    assert apart_pairs(store) == set()


def test_the_roster_is_kept_across_a_restart(hub, signed):
    send(hub, signed, ROSTER)
    hub.restart()
    hub.sign_in()
    assert hub.client.get("/api/td/roster.csv").text == ROSTER


def test_a_change_from_a_screen_drawn_before_another_roster_change_is_refused(hub, signed):
    base = hub.client.get("/api/td/state").json()["base"]
    add(hub, signed, given_name="Ann", family_name="Lee")
    r = add(hub, signed | {BASE_HEADER: str(base)}, given_name="Bob", family_name="Ray")
    assert r.status_code == 409 and "Ann Lee added" in r.json()["detail"]


def test_an_import_body_is_bounded():
    assert limit_for("/api/td/roster/import") == 2048 * KB


ROUTES = [("POST", "/api/td/roster/people"), ("PUT", "/api/td/roster/people/1"),
          ("DELETE", "/api/td/roster/people/1"), ("POST", "/api/td/roster/apart"),
          ("DELETE", "/api/td/roster/apart/1/2"), ("POST", "/api/td/roster/import"),
          ("POST", "/api/td/roster/import?mode=replace&keep_good=true")]
PERSON = st.fixed_dictionaries({}, optional={
    k: JSON | st.sampled_from(["Ann", "", "FR", "x@y.z", 0, -1, 2**70, True, "\0", "é" * 90])
    for k in ("given_name", "family_name", "homonym", "note", "wdd", "wdr", "nationality",
              "club", "preregistered", "email", "location", "a", "b")})


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=JSON | PERSON | st.binary(max_size=200))
def test_junk_never_gets_a_500(hub, signed, route, body):
    method, path = route
    content = body if isinstance(body, bytes) else json.dumps(body, allow_nan=True).encode()
    r = hub.client.request(method, path, content=content,
                           headers=signed | {"Content-Type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text)
    if r.status_code >= 400:
        assert isinstance(r.json()["detail"], str)
