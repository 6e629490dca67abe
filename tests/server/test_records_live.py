"""Records a TD can defend, on a real hub over HTTPS (uvicorn, SQLite on disk): a played
round one tap cannot rewrite, a change from a stale screen or a second tap refused with what
changed, and two phones racing on one result sheet never losing a correction.

The hub's clock is the test's (``FakeClock``): each step jumps to the moment it needs.
"""

from __future__ import annotations

import csv
import io
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import ThreadHub, at, clocks_of, held_hub

START = datetime(2026, 11, 25, 10, 0)  # the venue's time (the hub machine's zone: UTC here)
SEATS = "".join(f"1,{t},{p},{p}{t}\n" for t in (1, 2) for p in "AEFGIRT")
#: graduated20: every phase 20 minutes; Spring 1901's deadline 10:20, Fall 1901's 10:40
S1901, F1901 = START + timedelta(minutes=20), START + timedelta(minutes=40)
BOARD = {"centres": dict(A=5, E=4, F=6, G=0, I=7, R=6, T=6), "year": 1902,
         "eliminated": {"G": 1902}}


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h



def ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return r.json()


def base(td: httpx.Client) -> dict[str, str]:
    """What the dashboard sends with a change: the state its screen was drawn from."""
    return {"X-Dipclock-Base": str(ok(td.get("/api/td/state"))["base"])}


def csv_rows(td: httpx.Client, round_no: int) -> list[dict[str, str]]:
    r = td.get("/api/penalties.csv", params={"round": round_no})
    r.raise_for_status()
    return list(csv.DictReader(io.StringIO(r.text)))


def presses(hub: ThreadHub, td: httpx.Client, table: int, *items: tuple[str, str, datetime]
            ) -> None:
    body = {"presses": [{"id": i, "power": p, "kind": "press", "at": a.isoformat()}
                        for i, p, a in items]}
    r = httpx.post(f"{hub.url}/api/tables/{table}/presses", json=body, verify=hub.verify,
                   headers=clocks_of(td)[table])
    assert r.status_code == 200 and r.json()["stored"] == len(items), r.text


def snapshot(hub: ThreadHub, td: httpx.Client, table: int) -> dict[str, Any]:
    return ok(httpx.get(f"{hub.url}/api/tables/{table}/snapshot", verify=hub.verify,
                        headers=clocks_of(td)[table]))


def played_round_one(hub: ThreadHub, td: httpx.Client) -> None:
    """Round 1 of graduated20 played: late presses, a ruling, the call, a confirmed sheet;
    then round 2 set up under wdc2019, as on the day the issue tells of."""
    for method, path, body in (
        ("PUT", "/api/td/event", {"builtin": "graduated20"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
        ("PUT", "/api/td/tables", {"count": 2}),
        ("PUT", "/api/td/seating", {"csv": SEATS}),
    ):
        ok(td.request(method, path, json=body))
    at(hub, F1901 + timedelta(minutes=10))
    presses(hub, td, 1, ("a", "A", S1901 + timedelta(seconds=20)),
            ("e", "E", S1901 + timedelta(seconds=40)), ("f", "F", F1901 + timedelta(seconds=5)))
    presses(hub, td, 2, ("g", "G", S1901 + timedelta(seconds=95)))
    ok(td.post("/api/td/penalties", json={"round": 1, "table": 1, "power": "A",
                                           "phase": "S1901", "decision": "confirm"}))
    at(hub, START + timedelta(hours=1, minutes=25))
    ok(td.post("/api/td/call", json={}))  # games end after Fall 1902 (11:20)
    at(hub, START + timedelta(hours=1, minutes=40))
    ok(td.put("/api/sheets/1/1", json=BOARD, headers={"If-Match": "0"}))
    ok(td.post("/api/td/sheets/1/1/final", json={"incomplete": True},
               headers={"If-Match": "1"}))
    at(hub, START + timedelta(hours=2))
    ok(td.put("/api/td/event", json={"builtin": "wdc2019"}))
    ok(td.put("/api/td/round", json={"number": 2, "start": (START + timedelta(hours=3))
                                     .isoformat()}))


def record_of(td: httpx.Client, round_no: int) -> dict[str, Any]:
    """All a TD could lose of a round: its late orders and rulings (the CSV), its call,
    event and start, its sheets and scores."""
    state = ok(td.get("/api/td/state"))
    row = next(r for r in state["rounds"] if r["number"] == round_no)
    sheets = ok(td.get("/api/td/results", params={"round": round_no}))["sheets"]
    return {"csv": csv_rows(td, round_no), "round": row,
            "sheets": [(s["table"], s["status"], s["scores"], s["sheet"]) for s in sheets]}


def test_one_tap_cannot_rewrite_a_played_round_and_a_reopen_previews_and_undoes(hub):
    td = hub.td()
    played_round_one(hub, td)
    before = record_of(td, 1)
    assert before["round"]["call"] is not None and before["sheets"][0][1] == "final"
    assert len([r for r in before["csv"] if r["kind"] == "late"]) == 4
    assert before["round"]["record"].startswith("4 button presses, 1 ruling")
    round_two = snapshot(hub, td, 1)["schedule"]
    state = ok(td.get("/api/td/state"))
    # the Set up form offers round 2 to correct (it has not started and holds nothing)
    assert state["next_round"] == {"number": 2, "start": state["round"]["start"],
                                   "correcting": True}

    # the tired TD's tap: round 1 with tomorrow's start
    tomorrow = {"number": 1, "start": (START + timedelta(days=1)).isoformat()}
    preview = ok(td.post("/api/td/round/preview", json=tomorrow))
    assert preview["needs_reopen"] and preview["record"] == before["round"]["record"]
    r = td.put("/api/td/round", json=tomorrow, headers=base(td))
    assert r.status_code == 409
    assert r.json()["detail"].startswith(f"round 1 is a record ({before['round']['record']})")
    assert record_of(td, 1) == before  # the call, the late rows, the rulings, the sheet
    assert snapshot(hub, td, 1)["schedule"] == round_two  # the tables still play round 2

    # reopened on purpose: 2 minutes later; the preview says what moves, nothing is kept
    later = {"number": 1, "start": (START + timedelta(minutes=2)).isoformat(),
             "reopen": True}
    preview = ok(td.post("/api/td/round/preview", json=later))
    assert record_of(td, 1) == before
    moves = "\n".join(preview["moves"])
    assert "deadlines would move: Spring 1901 10:20:00 → 10:22:00" in moves
    assert "late row" in moves and "ruling" in moves, moves
    # a French TD's phone reads what would move in French: the phases and powers too
    french = ok(td.post("/api/td/round/preview", json=later,
                        headers={"Accept-Language": "fr-FR"}))
    moved = "\n".join(french["moves"])
    assert "Printemps 1901 10:20:00 → 10:22:00" in moved and "Spring" not in moved, moved
    assert "late row" not in moved and "ruling" not in moved, moved
    assert preview["event"] == "Three-round weekend, graduated penalties"  # its own event
    ok(td.put("/api/td/round", json=later, headers=base(td)))
    after = record_of(td, 1)
    assert after["csv"] != before["csv"] and after["round"]["event_id"] == "graduated20"
    assert snapshot(hub, td, 1)["schedule"] == round_two  # still round 2 on the tables
    undo = ok(td.get("/api/td/state"))["round_change"]
    assert undo["round"] == 1 and "round 1 starts" in undo["summary"]
    ok(td.post("/api/td/round/undo", json={}, headers=base(td)))
    assert record_of(td, 1) == before
    assert snapshot(hub, td, 1)["schedule"] == round_two


def test_setting_up_the_next_round_early_or_in_the_past_says_what_the_tables_show(hub):
    td = hub.td()
    for method, path, body in (
        ("PUT", "/api/td/event", {"builtin": "graduated20"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
        ("PUT", "/api/td/tables", {"count": 2}),
    ):
        ok(td.request(method, path, json=body))
    state = ok(td.get("/api/td/state"))
    assert state["next_round"]["number"] == 1 and state["next_round"]["correcting"]
    at(hub, START + timedelta(minutes=7))  # Spring 1901: 13 minutes left
    assert ok(td.get("/api/td/state"))["next_round"]["number"] == 2
    evening = {"number": 2, "start": (START + timedelta(hours=9)).isoformat()}
    preview = ok(td.post("/api/td/round/preview", json=evening))
    assert preview["questions"] == [
        "Round 1 is under way (Spring 1901, 13:00 on the clock): every table stops showing "
        "it and shows round 2 instead."]
    assert preview["tables_show"] == ("Saturday team round starts at 19:00 · Spring 1901 · "
                                      "8:53:00 · First deadline 19:20")
    german = ok(td.post("/api/td/round/preview", json=evening,
                        headers={"Accept-Language": "de"}))
    assert german["questions"][0].startswith("Runde 1 läuft (Frühjahr 1901"), german
    assert "Frühjahr 1901" in german["tables_show"], german
    yesterday = {"number": 2, "start": (START - timedelta(days=1)).isoformat()}
    asked = ok(td.post("/api/td/round/preview", json=yesterday))["questions"]
    assert asked[1].startswith("The start, 2026-11-24 10:00, is 1 day 0 h in the past: "
                               "every table jumps to Game over: Fall 1911 was the last "
                               "deadline."), asked
    sixteen = {"number": 1, "start": (START - timedelta(minutes=9)).isoformat()}
    asked = ok(td.post("/api/td/round/preview", json=sixteen))["questions"]
    assert asked == ["The start, 2026-11-25 09:51, is 16 min in the past: every table "
                     "jumps to Negotiating · Spring 1901 · 4:00 · Deadline 10:11."], asked
    # a preview changes nothing
    assert ok(td.get("/api/td/state"))["round"]["number"] == 1


def test_a_change_from_a_stale_screen_or_a_second_tap_is_refused_with_what_changed(hub):
    phone_a, phone_b = hub.td(), hub.td()
    for method, path, body in (
        ("PUT", "/api/td/event", {"builtin": "graduated20"}),
        ("PUT", "/api/td/round", {"number": 1, "start": START.isoformat()}),
        ("PUT", "/api/td/tables", {"count": 2}),
    ):
        ok(phone_a.request(method, path, json=body))
    at(hub, START + timedelta(minutes=5, seconds=30))
    seen = base(phone_a)  # both phones show the same screen
    assert base(phone_b) == seen
    ok(phone_a.post("/api/td/adjustments", json={"seconds": 60}, headers=seen))
    r = phone_b.post("/api/td/adjustments", json={"seconds": 60}, headers=seen)
    assert r.status_code == 409
    assert r.json()["detail"] == (
        "Not done: this changed meanwhile: 10:05:30 add 60 s, all tables. The dashboard "
        "shows it now: do it again if it is still needed.")
    state = ok(phone_b.get("/api/td/state"))
    assert [a["seconds"] for a in state["adjustments"]] == [60]
    # a change about something else is not held up by it
    ok(phone_b.put("/api/td/tables", json={"count": 3}, headers=seen))

    # a double tap: two requests from one screen at once, one adjustment
    seen = base(phone_a)
    codes = race({tap: lambda: phone_a.post("/api/td/adjustments", json={"seconds": 30},
                                            headers=seen) for tap in ("first", "second")})
    assert sorted(codes.values()) == [200, 409]
    state = ok(phone_a.get("/api/td/state"))
    assert [a["seconds"] for a in state["adjustments"]] == [60, 30]
    # add time has an undo, as the call has
    deadline = state["deadlines"][0]["deadline"]
    ok(phone_a.delete(f"/api/td/adjustments/{state['adjustments'][1]['id']}",
                      headers=base(phone_a)))
    state = ok(phone_a.get("/api/td/state"))
    assert [a["seconds"] for a in state["adjustments"]] == [60]
    assert state["deadlines"][0]["deadline"] < deadline
    assert state["audit"][0]["summary"].startswith("undo: 30 s given, all tables (made ")

    # two phones setting up the same round: the second is told, not applied over it
    seen = base(phone_a)
    ok(phone_a.put("/api/td/round", headers=seen, json={
        "number": 2, "start": (START + timedelta(hours=9)).isoformat()}))
    r = phone_b.put("/api/td/round", headers=seen, json={
        "number": 2, "start": (START + timedelta(hours=10)).isoformat()})
    assert r.status_code == 409 and "round 2 starts 2026-11-25 10:00:00" not in r.text
    assert "round 2 starts 2026-11-25 19:00:00" in r.json()["detail"]
    assert ok(phone_b.get("/api/td/state"))["round"]["start"] == "2026-11-25T19:00:00"
    # a malformed base is one line, not a 500
    r = phone_b.post("/api/td/adjustments", json={"seconds": 5},
                     headers={"X-Dipclock-Base": "soon"})
    assert r.status_code == 422 and r.json()["detail"].startswith("X-Dipclock-Base:")


class _Status:
    """A button's answer as a status: the clock's upload is answered 200 either way."""

    def __init__(self, code: int) -> None:
        self.status_code = code


def taken(r: httpx.Response) -> _Status:
    """200 if the hub took the one confirmation sent, 409 if it refused it."""
    r.raise_for_status()
    return _Status(200 if r.json()["taken"] else 409)


def race(requests: dict[str, Any]) -> dict[str, int]:
    """Send the requests at once (each from its own thread, released together); each one's
    status. Bounded: a request that hangs fails the test after a minute."""
    go = threading.Barrier(len(requests))
    answers: dict[str, int] = {}

    def send(name: str, request: Any) -> None:
        go.wait(timeout=30)
        answers[name] = request().status_code

    threads = [threading.Thread(target=send, args=item) for item in requests.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert set(answers) == set(requests), f"no answer to {set(requests) - set(answers)}"
    return answers


def test_phones_racing_on_one_sheet_never_lose_a_correction(hub):
    """A correction and a confirmation (a player's button, the TD's Confirm) sent at once
    from screens showing the first version: every one changes the sheet, so whichever the
    hub takes first stands and the other two are refused (each named the version before
    it): nothing stands on a version its maker did not see."""
    td = hub.td()
    played_round_one(hub, td)
    key = snapshot(hub, td, 2)["sheet"].partition("#")[2]
    player = httpx.Client(base_url=hub.url, verify=hub.verify, timeout=60,
                          headers={"X-Sheet-Key": key})
    corrected = {**BOARD, "year": 1901}
    for attempt in range(6):
        first = {**BOARD, "centres": {**BOARD["centres"], "A": 4 + attempt % 2}}
        version = ok(player.get("/api/sheets/2/2"))["version"]
        if ok(player.get("/api/sheets/2/2"))["status"] == "final":
            version = ok(td.post("/api/td/sheets/2/2/final", json={"final": False},
                                 headers={"If-Match": str(version)}))["version"]
        shown = ok(player.put("/api/sheets/2/2", json=first,
                              headers={"If-Match": str(version)}))["version"]
        answers = race({
            "correction": lambda v=shown: player.put(
                "/api/sheets/2/2", json=corrected, headers={"If-Match": str(v)}),
            "button": lambda v=shown, n=attempt: taken(httpx.post(
                f"{hub.url}/api/tables/2/confirmations", verify=hub.verify,
                headers=clocks_of(td)[2], json={"confirmations": [
                    {"id": f"c{n}", "round": 2, "power": "A", "version": v}]})),
            "td": lambda v=shown: td.post("/api/td/sheets/2/2/final", json={
                "incomplete": True}, headers={"If-Match": str(v)}),
        })
        view = ok(td.get("/api/sheets/2/2"))
        assert sorted(answers.values()) == [200, 409, 409], answers
        assert view["version"] == shown + 1  # one change, the first taken
        first_taken = next(name for name, code in answers.items() if code == 200)
        if first_taken == "correction":
            assert view["sheet"]["year"] == corrected["year"]
            assert view["sheet"]["centres"] == corrected["centres"]
            assert view["confirmed"] == [] and view["status"] == "entered"
        else:
            assert view["sheet"] == {**view["sheet"], **first}
            assert view["status"] == ("final" if first_taken == "td" else "entered")
            assert view["confirmed"] == (["Austria"] if first_taken == "button" else [])
