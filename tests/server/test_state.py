"""Presses stored once, the TD's actions reaching the schedule, and a restart losing nothing."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import datetime, timedelta

from tests.server.conftest import START

S1901 = START + timedelta(minutes=17)  # wdc2006: Spring 1901 is 17 minutes


def press(pid: str, power: str, at: datetime, kind: str = "press") -> dict:
    return {"id": pid, "power": power, "kind": kind, "at": at.isoformat()}


def post(hub, table: int, *presses: dict):
    """A table's clock sending presses it made: the hub's time is past their stamps (a
    stamp ahead of it is a clock with a wrong time: refused)."""
    made = max(datetime.fromisoformat(p["at"]) for p in presses)
    if hub.clock.moment() < made:
        hub.at(made)
    r = hub.client.post(f"/api/tables/{table}/presses", json={"presses": list(presses)},
                        headers=hub.kiosk_headers(table))
    assert r.status_code == 200, r.text
    return r.json()


def snap(hub, table: int) -> dict:
    return hub.client.get(f"/api/tables/{table}/snapshot", headers=hub.kiosk_headers(table)).json()


def test_a_press_sent_three_times_is_stored_once(hub, td):
    p = press("5b1f0c2e-0000-4000-8000-000000000001", "F", S1901 + timedelta(seconds=12))
    assert post(hub, 2, p) == {"stored": 1, "duplicates": 0, "merged": 0, "rejected": []}
    assert post(hub, 2, p) == {"stored": 0, "duplicates": 1, "merged": 0, "rejected": []}
    assert post(hub, 2, p, p) == {"stored": 0, "duplicates": 2, "merged": 0, "rejected": []}
    db = sqlite3.connect(hub.data_dir / "hub.sqlite3")
    assert db.execute("SELECT count(*) FROM presses").fetchone()[0] == 1
    db.close()
    assert [x["id"] for x in snap(hub, 2)["presses"]] == [p["id"]]
    assert snap(hub, 3)["presses"] == []


def test_presses_need_a_round_and_a_known_table(hub):
    csrf = hub.sign_in()
    p = press("early", "A", START)
    r = hub.client.post("/api/tables/1/presses", json={"presses": [p]},
                        headers=hub.kiosk_headers(1))
    assert r.status_code == 409 and "no round" in r.json()["detail"]
    hub.set_up(csrf, tables=2)
    r = hub.client.post("/api/tables/7/presses", json={"presses": [p]},
                        headers=hub.kiosk_headers(7))
    assert r.status_code == 404


def test_a_hold_press_toggles_a_power_out_and_back(hub, td):
    post(hub, 1, press("h1", "I", START + timedelta(minutes=3), "hold"))
    assert snap(hub, 1)["out"] == ["I"]
    post(hub, 1, press("h2", "I", START + timedelta(minutes=4), "hold"))
    assert snap(hub, 1)["out"] == []


def test_snapshot_is_the_protocols_shape_and_seq_rises(hub, td):
    first = snap(hub, 1)
    assert set(first) == {"seq", "hub", "restored", "table", "event", "schedule", "out",
                          "presses", "hub_time", "claims", "clock", "players", "players_from",
                          "sheet", "sheet_before", "result", "message", "vote",
                          "vote_code_until"}
    assert (first["claims"], first["clock"], first["message"]) == ([], 0, None)
    assert first["restored"] is None  # never restored from a backup
    assert first["event"]["id"] == "wdc2006"
    assert first["schedule"]["start"] == START.isoformat()
    assert first["hub_time"] == hub.clock.now()
    hub.client.post("/api/td/adjustments", json={"seconds": 30}, headers=td)
    assert snap(hub, 1)["seq"] > first["seq"]


def hall(hub) -> dict:
    return hub.client.get("/api/hall").json()["view"]


def test_pause_resume_and_hold(hub, td):
    c = hub.client
    hub.at(START + timedelta(minutes=5))
    assert hall(hub)["stage"] == "negotiating"
    r = c.post("/api/td/pauses", json={"reason": "Lunch", "until": "2024-05-04T10:00:00"},
               headers=td)
    assert r.status_code == 200
    v = hall(hub)
    assert v["stage"] == "paused" and v["restart_at"] == "2024-05-04T10:00:00"
    assert c.post("/api/td/pauses", json={}, headers=td).status_code == 409  # double tap
    hub.at(START + timedelta(minutes=35))
    assert c.post("/api/td/resume", json={}, headers=td).status_code == 200
    v = hall(hub)
    assert v["stage"] == "negotiating" and v["deadline"] == "2024-05-04T09:47:00"
    assert c.post("/api/td/resume", json={}, headers=td).status_code == 409
    # one table held: only its clock stops
    assert c.post("/api/td/pauses", json={"table": 3, "reason": "ruling"},
                  headers=td).status_code == 200
    tables = {t["table"]: t for t in c.get("/api/td/state").json()["tables"]}
    assert tables[3]["view"]["stage"] == "held" and tables[2]["view"]["stage"] == "negotiating"
    assert c.post("/api/td/resume", json={"table": 3}, headers=td).status_code == 200
    audit = [a["summary"] for a in c.get("/api/td/state").json()["audit"]]
    assert audit[:4] == [
        "resume table 3", "hold table 3 now (ruling)", "resume all tables",
        "pause all tables now, restart 10:00 (Lunch)",
    ]


def test_break_at_a_deadline_then_cancel_it(hub, td):
    c = hub.client
    r = c.post("/api/td/pauses", json={"deadline": "S1901", "minutes": 60}, headers=td)
    assert r.status_code == 200
    hub.at(S1901 + timedelta(minutes=10))
    assert hall(hub)["stage"] == "paused"
    hub.at(S1901 + timedelta(minutes=61))
    v = hall(hub)
    assert v["phase"] == "F1901" and v["deadline"] == "2024-05-04T10:32:00"
    r = c.post("/api/td/pauses", json={"deadline": "S1902", "minutes": 30}, headers=td)
    c.post(f"/api/td/pauses/{r.json()['id']}/end", headers=td)
    tt = c.get("/api/td/state").json()["deadlines"]
    assert {"phase": "S1902", "deadline": "2024-05-04T10:49:00",
            "phase_said": "Spring 1902"} in tt
    assert c.post("/api/td/pauses", json={"deadline": "S1901"}, headers=td).status_code == 409


def test_adjust_all_or_one_table_and_call_the_round(hub, td):
    c = hub.client
    hub.at(START + timedelta(minutes=5))
    c.post("/api/td/adjustments", json={"seconds": 120}, headers=td)
    c.post("/api/td/adjustments", json={"seconds": -60, "table": 2}, headers=td)
    tables = {t["table"]: t["view"]["deadline"] for t in c.get("/api/td/state").json()["tables"]}
    assert tables[1] == "2024-05-04T09:19:00" and tables[2] == "2024-05-04T09:18:00"
    hub.at(START + timedelta(minutes=40))
    assert c.post("/api/td/call", json={}, headers=td).status_code == 200
    v = hall(hub)
    assert v["stage"] == "game_over" and v["game_over_reason"] == "called"


def test_penalties_confirm_waive_change_and_csv(hub, td):
    c = hub.client
    post(hub, 1, press("a", "A", S1901 + timedelta(seconds=15.2)),
         press("e", "E", S1901 + timedelta(seconds=45)),
         press("f", "F", S1901 - timedelta(seconds=30)))
    post(hub, 2, press("g", "G", S1901 + timedelta(seconds=3)))
    hub.at(S1901 + timedelta(minutes=2))
    rows = c.get("/api/td/penalties").json()
    assert [(r["table"], r["power"], r["started_second"], r["proposed"]["label"]) for r in rows] \
        == [(2, "G", 3, "Yellow card"), (1, "A", 16, "Yellow card"),
            (1, "E", 45, "Red card: all units hold (more than 30 s late)")]
    key = {"round": 1, "phase": "S1901"}
    for body in ({"table": 1, "power": "A", "decision": "confirm"},
                 {"table": 2, "power": "G", "decision": "waive", "note": "kiosk fault"},
                 {"table": 1, "power": "E", "decision": "change", "final": "Yellow card",
                  "note": "=cmd|' /C calc'!A0"}):
        r = c.post("/api/td/penalties", json=key | body, headers=td)
        assert r.status_code == 200, r.text
    r = c.post("/api/td/penalties", json=key | {"table": 1, "power": "F", "decision": "waive"},
               headers=td)
    assert r.status_code == 404  # France was on time
    r = c.get("/api/penalties.csv")
    assert r.headers["content-type"].startswith("text/csv")
    got = list(csv.DictReader(io.StringIO(r.text)))
    assert [(g["table"], g["power"], g["proposed"], g["decision"], g["final"], g["note"])
            for g in got] == [
        ("2", "G", "Yellow card", "waive", "Waived", "kiosk fault"),
        ("1", "A", "Yellow card", "confirm", "Yellow card", ""),
        ("1", "E", "Red card: all units hold (more than 30 s late)", "change", "Yellow card",
         "'=cmd|' /C calc'!A0"),
    ]
    assert got[1]["seconds_late"] == "15.2" and got[1]["deadline"] == "2024-05-04T09:17:00"


def test_restart_keeps_everything(hub, td):
    c = hub.client
    hub.at(S1901 + timedelta(seconds=40))
    post(hub, 1, press("a", "A", S1901 + timedelta(seconds=20)), press("h", "T", START, "hold"))
    c.post("/api/td/adjustments", json={"seconds": 90, "table": 4}, headers=td)
    c.post("/api/td/pauses", json={"table": 2, "reason": "ruling"}, headers=td)
    c.post("/api/td/pauses", json={"deadline": "S1903", "minutes": 45}, headers=td)
    c.post("/api/td/penalties", headers=td, json={
        "round": 1, "table": 1, "power": "A", "phase": "S1901", "decision": "waive", "note": "ok"})
    snaps = {n: snap(hub, n) for n in (1, 2)}  # first: pairing table 2's clock is logged
    before = c.get("/api/td/state").json()
    hub.restart()
    hub.sign_in()  # sessions survive too, but a fresh sign-in must work
    after = hub.client.get("/api/td/state").json()
    for key in ("event", "round", "pauses", "penalties", "audit", "hall", "deadlines",
                "clocks"):
        assert after[key] == before[key], key
    assert [t["view"] for t in after["tables"]] == [t["view"] for t in before["tables"]]
    for n, old in snaps.items():
        new = snap(hub, n)
        assert {k: new[k] for k in ("event", "schedule", "out", "presses")} == \
            {k: old[k] for k in ("event", "schedule", "out", "presses")}
        assert new["seq"] == old["seq"]
    hub.client.post("/api/td/resume", json={"table": 2},
                    headers={"X-CSRF-Token": hub.client.get("/api/session").json()["csrf"]})
    assert snap(hub, 1)["seq"] > snaps[1]["seq"]


def test_a_hold_from_before_the_round_takes_nobody_out(hub, td):
    # a button test before the round, or a hold from another round uploaded late
    post(hub, 1, press("old", "I", START - timedelta(days=60), "hold"))
    post(hub, 1, press("test", "A", START - timedelta(minutes=5), "hold"))
    assert snap(hub, 1)["out"] == []


def test_the_hub_id_is_kept_with_the_data_dir(hub, td, tmp_path, password_hash, clock):
    from tests.server.conftest import Hub

    first = snap(hub, 1)["hub"]
    assert isinstance(first, str) and len(first) >= 16
    hub.restart()
    assert snap(hub, 1)["hub"] == first
    other = Hub(tmp_path / "empty", password_hash, clock)  # a hub started from scratch
    try:
        assert other.client.get("/api/tables/1/snapshot",
                                headers=other.kiosk_headers(1)).json()["hub"] != first
    finally:
        other.close()


def test_time_is_stamped_on_the_event_loop_not_in_a_worker_thread(hub):
    """A threadpool hop before t1 would lengthen only the request's leg (a biased offset)."""
    import asyncio

    state = hub.client.app.state.hub
    real, on_loop = state.clock, []

    class Spy:
        def now(self) -> float:
            try:
                asyncio.get_running_loop()
                on_loop.append(True)
            except RuntimeError:
                on_loop.append(False)
            return real.now()

        def moment(self):
            return real.moment()

        def mono(self) -> float:
            return real.mono()

    state.clock = Spy()
    try:
        assert hub.client.get("/api/time").status_code == 200
    finally:
        state.clock = real
    assert on_loop == [True, True]


def kiosk_on(hub, outbox, table: int = 1):
    """The real kiosk hub client, talking to this app in-process (the TestClient's transport)."""
    from kiosk.hubclient import HubClient

    return HubClient("http://testserver", table, hub.token(table), outbox,
                     transport=hub.client._transport)


def test_a_kiosk_whose_clock_said_1970_still_gets_its_other_presses_in(hub, td, tmp_path):
    from kiosk.outbox import Outbox

    outbox = Outbox(tmp_path / "outbox.sqlite")
    kiosk = kiosk_on(hub, outbox)
    try:
        assert kiosk.fetch_snapshot()
        key = kiosk.current().key
        bad = outbox.record("I", "press", datetime(1970, 1, 1, 0, 0, 40), key)
        good = outbox.record("A", "press", S1901 + timedelta(seconds=15), key)
        hub.at(S1901 + timedelta(seconds=15))  # the presses are made on the hub's time
        assert kiosk.upload_once()
        later = outbox.record("E", "press", S1901 + timedelta(seconds=50), key)
        hub.at(S1901 + timedelta(seconds=50))
        assert kiosk.upload_once()
        assert outbox.unsent() == [] and outbox.rejected() == [bad.id]
        assert [p["id"] for p in snap(hub, 1)["presses"]] == [good.id, later.id]
    finally:
        kiosk.close()
        outbox.close()


def test_a_kiosk_follows_a_hub_restarted_from_an_empty_data_dir(hub, td, tmp_path,
                                                                 password_hash, clock):
    from kiosk.outbox import Outbox
    from tests.server.conftest import Hub

    outbox = Outbox(tmp_path / "outbox.sqlite")
    kiosk = kiosk_on(hub, outbox)
    for _ in range(5):  # seq well past what the new hub will start from
        hub.client.post("/api/td/adjustments", json={"seconds": 10}, headers=td)
    assert kiosk.fetch_snapshot()
    old_seq = snap(hub, 1)["seq"]
    kiosk.close()  # the kiosk restarts too, from its outbox's last snapshot
    fresh = Hub(tmp_path / "empty", password_hash, clock)
    try:
        fresh.set_up(fresh.sign_in())  # the same round again
        assert fresh.client.get("/api/tables/1/snapshot",
                                headers=fresh.kiosk_headers(1)).json()["seq"] < old_seq
        kiosk = kiosk_on(fresh, outbox)
        assert kiosk.current().schedule.adjustments != ()  # the old hub's, until it hears
        assert kiosk.fetch_snapshot()
        assert kiosk.current().schedule.adjustments == ()  # the new hub's schedule is shown
        csrf = fresh.sign_in()
        fresh.client.post("/api/td/adjustments", json={"seconds": 30}, headers=csrf)
        assert kiosk.fetch_snapshot()
        assert [a.seconds for a in kiosk.current().schedule.adjustments] == [30]
    finally:
        kiosk.close()
        outbox.close()
        fresh.close()


def test_a_power_that_never_pressed_is_listed_for_the_td_once_the_window_closes(hub, td):
    c = hub.client
    on_time = [press(f"p{p}", p, S1901 - timedelta(seconds=20)) for p in "AEFGR"]
    post(hub, 1, *on_time, press("t", "T", START + timedelta(minutes=3), "hold"))  # T is out
    hub.at(S1901 + timedelta(minutes=4))
    assert [r["kind"] for r in c.get("/api/td/penalties").json()] == []  # window still open
    hub.at(S1901 + timedelta(minutes=6))
    [row] = c.get("/api/td/penalties").json()  # Italy; Turkey is out; table 2 never pressed
    assert (row["table"], row["power"], row["phase"], row["kind"]) == (1, "I", "S1901", "missed")
    assert row["proposed"]["label"] == "No orders: red card, all units hold"
    r = c.post("/api/td/penalties", headers=td, json={
        "round": 1, "table": 1, "power": "I", "phase": "S1901", "decision": "waive",
        "note": "orders were in the box, button forgotten"})
    assert r.status_code == 200
    got = list(csv.DictReader(io.StringIO(c.get("/api/penalties.csv").text)))
    assert [(g["power"], g["kind"], g["pressed_at"], g["final"]) for g in got] == [
        ("I", "missed", "", "Waived")]


def test_every_td_route_answers_what_its_schema_says(hub, td):
    """The OpenAPI schema names a model for each TD answer, and the dashboard's state with
    a late press, a kiosk's report and a hold on one table is exactly that model: no key
    the schema does not name (the models forbid extras), none it names missing."""
    from server.responses import DashboardState

    post(hub, 2, press("late-1", "F", S1901 + timedelta(seconds=20)))
    hub.client.post("/api/tables/2/status", headers=hub.kiosk_headers(2), json={
        "offset": 0.01, "rtt": 0.02,
        "kiosk": {"id": "pi-2", "version": "1", "uptime": 5, "buttons": ["gpio"],
                  "clock": "hub"}})
    hub.at(S1901 + timedelta(minutes=3))
    assert hub.client.post("/api/td/pauses", json={"table": 3}, headers=td).status_code == 200
    body = hub.client.get("/api/td/state").json()
    assert [(p["table"], p["power"], p["kind"]) for p in body["penalties"]] == [(2, "F", "late")]
    assert body["tables"][1]["kiosk"]["id"] == "pi-2" and body["pauses"][0]["table"] == 3
    model = DashboardState.model_validate(body)
    assert model.model_dump(by_alias=True, mode="json", exclude_unset=True) == body
    paths = hub.client.app.openapi()["paths"]
    for path in ("/api/td/state", "/api/td/penalties", "/api/login", "/api/session"):
        assert "schema" in paths[path][next(iter(paths[path]))]["responses"]["200"]["content"][
            "application/json"], path
    for path, method in (("/api/td/round", "put"), ("/api/td/pauses", "post"),
                         ("/api/td/resume", "post"), ("/api/td/call", "post"),
                         ("/api/clock", "post")):
        ref = paths[path][method]["responses"]["200"]["content"]["application/json"]["schema"]
        assert ref.get("$ref", "").startswith("#/components/schemas/"), path


def test_a_tile_says_who_is_late_by_the_penalty_they_head_for(hub, td):
    """The grid's late line is the hub's (``dipclock.screen.late_summary``): the page
    groups nothing."""
    post(hub, 1, *(press(f"p{p}", p, S1901 - timedelta(seconds=30)) for p in "AEFGR"))
    hub.at(S1901 + timedelta(seconds=17))
    tiles = {t["table"]: t for t in hub.client.get("/api/td/state").json()["tables"]}
    assert tiles[1]["late_note"] == "I T → Yellow card"
    assert tiles[2]["late_note"] == "A E F G I R T → Yellow card"


def test_the_call_card_says_the_round_s_own_call_rule(hub, td):
    """wdc2018's games end at the call itself: the card says so, not another event's rule."""
    assert hub.client.get("/api/td/state").json()["round"]["call_rule"] == (
        "A call ends games after the last deadline before it.")
    hub.client.put("/api/td/event", json={"builtin": "wdc2018"}, headers=td).raise_for_status()
    hub.client.put("/api/td/round", json={"number": 1, "start": START.isoformat()},
                   headers=td).raise_for_status()
    assert hub.client.get("/api/td/state").json()["round"]["call_rule"] == (
        "A call ends games at once.")
