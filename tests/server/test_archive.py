"""The event archive (issue 36, "Out of the hub"): one file holding everything a hub knows
of its event, imported by another hub to carry on, checked whole before anything is
written, and round-tripped exactly: a hub's event exported, imported into a second hub,
exported again gives the same archive, and the second hub shows the same standings, CSV
files and records as the first."""

from __future__ import annotations

import hashlib
import io
import json
import socket
import sqlite3
import zipfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from dipclock.roster import COLUMNS
from server import archive
from server.bodylimit import limit_for
from server.store import MIGRATIONS
from tests.doubles import FakeClock
from tests.server.conftest import START, Hub
from tests.server.live import ThreadHub
from tests.server.rawhttp import headers_only
from tests.server.test_results_desk import BOARD_1, BOARD_2, enter
from tests.server.test_state import post, press

S1901 = START + timedelta(minutes=17)
F1901 = S1901 + timedelta(minutes=15)
ROUND_2 = START + timedelta(days=1)
NAMES = [("José", "García"), ("Zoë", "Ørsted"), ("Ann", "Lee"), ("Bob", "Marsh"),
         ("Cy", "Nolan"), ("Di", "Okafor"), ("Ed", "Price"), ("Flo", "Quinn"),
         ("Gus", "Reyes"), ("Hal", "Stone"), ("Ida", "Tran"), ("Jo", "Ueda"),
         ("Kit", "Vance"), ("Lu", "Wolf")]
PLAYERS = [f"{g} {f}" for g, f in NAMES]
ROSTER = ",".join(COLUMNS) + "\n" + "".join(
    f'{g},{f},1,,{n + 1},,FR,,yes,,"Lyon, France"\n' for n, (g, f) in enumerate(NAMES))


def seats(round_no: int) -> str:
    """Two tables of seven; round 2 turns the players round one seat."""
    shift = 0 if round_no == 1 else 3
    order = PLAYERS[shift:] + PLAYERS[:shift]
    return "".join(f"{round_no},{t},{p},{order[(t - 1) * 7 + i]}\n"
                   for t in (1, 2) for i, p in enumerate("AEFGIRT"))


def ok(r) -> dict:
    assert r.status_code == 200, r.text
    return r.json() if r.headers.get("content-type", "").startswith("application/json") \
        else {}


def play(hub: Hub) -> dict[str, str]:
    """An event played on ``hub``: a roster with accents and a kept-apart pair, two rounds
    seated, presses, a late press ruled on, a hold and time given, a vote vetoed, every
    sheet confirmed."""
    td = hub.sign_in()
    ok(hub.client.post("/api/td/roster/import", content=ROSTER.encode(),
                       headers=td | {"Content-Type": "text/csv"}))
    ok(hub.client.post("/api/td/roster/apart", json={"a": 1, "b": 2}, headers=td))
    hub.set_up(td)
    ok(hub.client.post("/api/td/register/1/preregistered", headers=td))
    ok(hub.client.put("/api/td/seating", json={"csv": seats(1)}, headers=td))
    post(hub, 1, press("p1", "E", S1901 - timedelta(minutes=2)),
         press("p2", "A", S1901 + timedelta(seconds=20)))
    hub.at(S1901 + timedelta(minutes=1))
    ok(hub.client.post("/api/td/pauses", json={"table": 2, "reason": "TD ruling"},
                       headers=td))
    ok(hub.client.post("/api/td/resume", json={"table": 2}, headers=td))
    ok(hub.client.post("/api/td/adjustments", json={"seconds": 60, "table": 2}, headers=td))
    hub.at(F1901 + timedelta(minutes=10))
    ok(hub.client.post("/api/td/penalties", json={"round": 1, "table": 1, "power": "A",
                                                  "phase": "S1901", "decision": "confirm"},
                       headers=td))
    enter(hub, td, 1, BOARD_1)
    enter(hub, td, 2, BOARD_2)
    hub.at(ROUND_2 - timedelta(hours=1))
    td = hub.sign_in()  # the next day: a new sign-in
    ok(hub.client.put("/api/td/round", json={"number": 2, "start": ROUND_2.isoformat()},
                      headers=td))
    ok(hub.client.put("/api/td/seating", json={"csv": seats(2)}, headers=td))
    hub.at(ROUND_2 + timedelta(hours=3))
    # a game-end vote at table 2, proposed by the TD and vetoed (issue 37): its record
    # goes with the event
    vote = ok(hub.client.post("/api/td/votes", json={
        "round": 2, "table": 2, "form": "dias", "proposer": "F",
        "centres": BOARD_1["centres"]}, headers=td))
    ok(hub.client.post(f"/api/td/votes/{vote['id']}/veto", json={"power": "R"}, headers=td))
    enter(hub, td, 1, BOARD_2, round_no=2)
    enter(hub, td, 2, BOARD_1, round_no=2)
    return td


def records(hub: Hub) -> dict[str, object]:
    """What the TD and the hall see of the event: standings after each round, the CSV
    files, the sheets, the rulings, the roster (the log's position aside: it is the hub's)."""
    got: dict[str, object] = {}
    for path in ("/api/td/standings?round=1", "/api/td/standings?round=2",
                 "/api/td/results?round=1", "/api/td/results?round=2",
                 "/api/td/penalties?round=1", "/api/td/roster", "/api/td/roster/apart",
                 "/api/td/register/1", "/api/td/votes?round=2",
                 "/api/td/votes/record?round=2"):
        r = hub.client.get(path)
        assert r.status_code == 200, (path, r.text)
        body = r.json()
        if isinstance(body, dict):
            body.pop("base", None)
        got[path] = body
    for path in ("/api/results.csv", "/api/standings.csv", "/api/best-countries.csv",
                 "/api/standings.csv?round=1", "/api/penalties.csv?round=1",
                 "/api/td/roster.csv"):
        r = hub.client.get(path)
        assert r.status_code == 200, (path, r.text)
        got[path] = r.text
    return got


@pytest.fixture
def second(tmp_path: Path, password_hash: str) -> Iterator[Hub]:
    """Another hub, on a data folder of its own, its own clock."""
    h = Hub(tmp_path / "second", password_hash, FakeClock(0))
    h.at(ROUND_2 + timedelta(hours=4))
    yield h
    h.close()


def test_an_event_round_trips_exactly_through_its_archive(hub: Hub, second: Hub):
    play(hub)
    r = hub.client.get("/api/td/export/archive")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    first = r.content
    members = archive.canonical(first)
    people = json.loads(members["tables/people.json"])
    assert [row[people["columns"].index("name")] for row in people["rows"]][:2] == [
        "José García", "Zoë Ørsted"]
    assert "tables/sessions.json" not in members and "tables/clocks.json" not in members
    assert len(json.loads(members["tables/register.json"])["rows"]) == 14
    assert len(json.loads(members["tables/votes.json"])["rows"]) == 1
    assert "tables/vote_secrets.json" not in members
    assert set(json.loads(members["meta.json"])) == {"event", "round", "sheet_links_closed_through"}
    assert json.loads(members["standings.json"])["standings"][0]["player"] in PLAYERS

    td2 = second.sign_in()
    r = second.client.post("/api/td/import/archive", content=first,
                           headers=td2 | {"Content-Type": "application/zip"})
    assert r.status_code == 200, r.text
    assert r.json()["rounds"] == 2 and r.json()["people"] == 14
    assert r.json()["summary"].startswith("WDC XVI at BerliCon III, Berlin 2006 imported from "
                                          "its archive saved ")
    assert r.json()["summary"].endswith(" UTC: 2 rounds, 14 people on the roster")
    again = second.client.get("/api/td/export/archive").content
    assert archive.canonical(again) == members  # the same bytes, the time made aside
    assert records(second) == records(hub)
    # the second hub stays itself: its id, and the TD's session that imported
    assert second.client.app.state.hub.hub_id != hub.client.app.state.hub.hub_id
    assert second.client.get("/api/td/roster").status_code == 200


def test_a_hub_holding_an_event_is_replaced_only_when_the_td_confirms(hub: Hub, second: Hub):
    play(hub)
    data = hub.client.get("/api/td/export/archive").content
    td2 = second.sign_in()
    second.set_up(td2)
    db = second.data_dir / "hub.sqlite3"
    before = db.read_bytes()
    r = second.client.post("/api/td/import/archive", content=data, headers=td2)
    assert r.status_code == 409 and "already holds an event (1 round)" in r.json()["detail"]
    assert db.read_bytes() == before
    r = second.client.post("/api/td/import/archive", params={"replace": "true"},
                           content=data, headers=td2)
    assert r.status_code == 200, r.text
    kept = second.data_dir / r.json()["aside"] / "hub.sqlite3"
    assert kept.is_file()  # the replaced event is kept aside, not lost
    sheets = second.client.get("/api/td/results?round=2").json()["sheets"]
    assert [s["table"] for s in sheets if s["status"] == "final"] == [1, 2]


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, body in members.items():
            z.writestr(name, body)
    return out.getvalue()


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _manifest(data: bytes, **changes: object) -> bytes:
    members = _members(data)
    manifest = json.loads(members["manifest.json"]) | changes
    return _zip(members | {"manifest.json": json.dumps(manifest).encode()})


def _tampered(data: bytes, name: str, body: bytes) -> bytes:
    """A member changed and its checksum with it: only the content check can tell."""
    members = _members(data) | {name: body}
    manifest = json.loads(members["manifest.json"])
    manifest["members"][name] = archive._sha256(body)
    return _zip(members | {"manifest.json": json.dumps(manifest).encode()})


def test_a_file_that_is_not_a_good_archive_is_refused_in_one_line(hub: Hub, second: Hub):
    play(hub)
    good = hub.client.get("/api/td/export/archive").content
    people = json.loads(_members(good)["tables/people.json"])
    people["rows"][0] = people["rows"][0][:-1]
    cases = {
        b"not a zip": "is not a dipclock event archive",
        _zip({"x.txt": b"x"}): "is not a dipclock event archive",
        _manifest(good, version=2, dipclock="9.0"): "made by a newer dipclock (9.0)",
        _manifest(good, schema=999): "made by a newer dipclock (database version 999)",
        _manifest(good, members={}): "damaged (its list of files is damaged)",
        _zip(_members(good) | {"tables/rounds.json": b"{}"}):
            "damaged (tables/rounds.json does not match its checksum)",
        _tampered(good, "tables/people.json", json.dumps(people).encode()):
            "damaged (row 1 of the table people is not one of its rows)",
        _tampered(good, "tables/sessions.json", b'{"columns": [], "rows": []}'):
            "damaged (it has a table 'sessions' that database version",
        _tampered(good, "meta.json", b'{"td_password_hash": "x"}'):
            "damaged (meta.json holds settings it may not)",
    }
    td2 = second.sign_in()
    for data, words in cases.items():
        r = second.client.post("/api/td/import/archive", content=data, headers=td2)
        assert r.status_code == 422 and words in r.json()["detail"], (words, r.text)
        assert "\n" not in r.json()["detail"]
    assert second.client.get("/api/td/roster").json()["people"] == []
    assert not list(second.data_dir.glob(".import-*"))  # no half-written file left


def test_an_import_is_the_td_s_and_bounded(hub: Hub):
    assert hub.client.get("/api/td/export/archive").status_code == 401
    assert hub.client.post("/api/td/import/archive", content=b"x").status_code == 401
    assert limit_for("/api/td/import/archive") == archive.MOST_UPLOAD


def test_an_anonymous_import_is_refused_before_its_body_is_read(tmp_path: Path):
    """Headers announcing 10 MB and no body: a hub that read the body before asking who
    sent it would answer nothing."""
    with ThreadHub(tmp_path / "hub") as served:
        lines = ["POST /api/td/import/archive HTTP/1.1", f"Host: 127.0.0.1:{served.port}",
                 "Content-Type: application/zip", "Content-Length: 10000000"]
        with socket.create_connection(("127.0.0.1", served.port), timeout=20.0) as s:
            assert headers_only(s, lines, "POST /api/td/import/archive", 20.0) == (
                401, {"detail": "sign in as the TD first"})


def test_a_power_cut_mid_import_leaves_the_old_event_whole(hub: Hub, second: Hub,
                                                           monkeypatch: pytest.MonkeyPatch):
    """The new database is written beside the live one and renamed over it: cut before the
    rename (here: the rename fails), and the hub's own file is as it was."""
    play(hub)
    data = hub.client.get("/api/td/export/archive").content
    td2 = second.sign_in()
    second.set_up(td2)
    db = second.data_dir / "hub.sqlite3"
    real = archive.os.replace

    def cut(src: object, dst: object) -> None:
        if Path(str(dst)) == db:
            raise OSError(5, "Input/output error")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(archive.os, "replace", cut)
    r = second.client.post("/api/td/import/archive", params={"replace": "true"},
                           content=data, headers=td2)
    assert r.status_code == 507 and "this hub is unchanged" in r.json()["detail"]
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM people").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM rounds").fetchone()[0] == 1
    con.close()
    assert second.client.get("/api/td/roster").status_code == 200  # serving on


def test_an_archive_of_an_older_dipclock_is_carried_on_to_this_version(hub: Hub, second: Hub):
    """An archive names the database version its tables are of: they go into that version,
    and this version's later steps carry them on (version 13 had no register)."""
    play(hub)
    members = _members(hub.client.get("/api/td/export/archive").content)
    manifest = json.loads(members["manifest.json"])
    for table in ("register", "replacements", "votes"):  # versions 14, 15 and 17
        del members[f"tables/{table}.json"]
        del manifest["members"][f"tables/{table}.json"]
    # version 16 gave the teams a power column, 18 the log's lines their sentences:
    # version 13's tables have neither
    for name, column in (("teams", "power"), ("audit", "said"), ("round_undo", "said")):
        table = json.loads(members[f"tables/{name}.json"])
        cut = table["columns"].index(column)
        members[f"tables/{name}.json"] = json.dumps({
            "columns": [c for i, c in enumerate(table["columns"]) if i != cut],
            "rows": [[v for i, v in enumerate(r) if i != cut] for r in table["rows"]]}
        ).encode()
        manifest["members"][f"tables/{name}.json"] = hashlib.sha256(
            members[f"tables/{name}.json"]).hexdigest()
    manifest["schema"] = 13
    old = _zip(members | {"manifest.json": json.dumps(manifest).encode()})
    td2 = second.sign_in()
    r = second.client.post("/api/td/import/archive", content=old, headers=td2)
    assert r.status_code == 200, r.text
    assert second.client.get("/api/td/standings?round=2").json() == \
        hub.client.get("/api/td/standings?round=2").json()
    again = archive.canonical(second.client.get("/api/td/export/archive").content)
    assert json.loads(again["tables/register.json"])["rows"] == []
    assert json.loads(again["manifest.json"])["schema"] == len(MIGRATIONS)
