"""Every write to a result sheet is compare-and-swap, on a real hub (uvicorn in this
process, its clock held by the test): every change raises the sheet's version (an entry or
correction, a line confirmed, the TD's final, reopening), a change made against an older
version is refused with one line saying what changed since, on the venue's clock, and the
players' buttons, pressed one after another against what their clock showed, are all
taken (``Store.edit_sheet``, ``server.routers.kiosk.post_confirmations``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tests.server.live import ThreadHub, at, clocks_of, held_hub

#: The venue is in Berlin (UTC+2 in May): every time a refusal says is the venue's.
BERLIN = """
name = "Berlin Open"
timezone = "Europe/Berlin"
last_year = 1901
[[phase_lengths]]
spring = 17
fall = 15
[penalty]
model = "yellow_red"
[scoring]
system = "manorcon"
"""
#: 11:00 in Berlin; Fall 1901's deadline, the game's end, 32 minutes later
START = datetime(2024, 5, 4, 9, 0)  # UTC
OVER = START + timedelta(hours=1)  # 12:00 in Berlin
SEATS = "".join(f"1,1,{p},{p} player\n" for p in "AEFGIRT")
DRAW = {"centres": {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5}, "year": 1901}
SHEET = "/api/sheets/1/1"


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        td = h.td()
        for path, body in (("/api/td/event", {"toml": BERLIN}),
                           ("/api/td/round", {"number": 1, "start": "2024-05-04T11:00:00"}),
                           ("/api/td/tables", {"tables": [1]}),
                           ("/api/td/seating", {"csv": SEATS})):
            td.put(path, json=body).raise_for_status()
        at(h, OVER)
        yield h


def minutes(hub: ThreadHub, n: int) -> None:
    """The hub's clock ``n`` minutes after the game's end (12:00 + n in Berlin)."""
    at(hub, OVER + timedelta(minutes=n))


def version(td: httpx.Client) -> int:
    return int(td.get(SHEET).json()["version"])


def standings(td: httpx.Client) -> dict[str, int]:
    """Each player's games in the standings (confirmed sheets only)."""
    r = td.get("/api/td/standings")
    r.raise_for_status()
    return {s["player"]: s["games"] for s in r.json()["standings"]}


def test_a_correction_from_a_page_loaded_before_the_final_never_undoes_it(hub):
    """TD A enters the sheet (version 1) and keeps the page open; TD B confirms it on the
    Results card; A saves a correction from the page as it was, as the sheet page sends it
    (If-Match: the version it loaded; no base). Refused, saying what happened and when;
    the final stands and the game stays in the standings."""
    a, b = hub.td(), hub.td()
    r = a.put(SHEET, json=DRAW, headers={"If-Match": "0"})
    assert r.status_code == 200 and r.json()["version"] == 1, r.text
    loaded = r.json()["version"]  # A's page now shows version 1
    minutes(hub, 2)
    card = b.get("/api/td/results").json()
    [row] = [s for s in card["sheets"] if s["table"] == 1]
    r = b.post("/api/td/sheets/1/1/final", json={"final": True, "incomplete": True},
               headers={"If-Match": str(row["version"]), "X-Dipclock-Base": str(card["base"])})
    assert r.status_code == 200 and r.json()["status"] == "final", r.text
    assert r.json()["version"] == 2  # marking final raised it
    assert standings(a) == {f"{p} player": 1 for p in "AEFGIRT"}

    minutes(hub, 5)
    corrected = {**DRAW, "centres": {**DRAW["centres"], "A": 6, "G": 3}}
    r = a.put(SHEET, json=corrected, headers={"If-Match": str(loaded)})
    assert r.status_code == 409, r.text
    assert r.json() == {"detail": "the TD marked this sheet final at 12:02 since you loaded "
                                  "it: reload to see it, and make your change again if it "
                                  "is still needed"}
    view = a.get(SHEET).json()
    assert view["status"] == "final" and view["sheet"]["centres"]["A"] == 5
    assert view["version"] == 2
    assert standings(a) == {f"{p} player": 1 for p in "AEFGIRT"}
    # A, reloaded, sees the final: the TD's own save of it is refused until it is reopened
    r = a.put(SHEET, json=corrected, headers={"If-Match": "2"})
    assert r.status_code == 409 and "reopen it" in r.json()["detail"]
    assert a.get(SHEET).json()["status"] == "final"


def test_confirming_a_line_marking_final_and_reopening_each_raise_the_version(hub):
    """The TD's line confirmation, final and reopening are changes like a correction: each
    raises the version, and one made against the version before is refused with what came
    in between, newest last."""
    td = hub.td()
    assert td.put(SHEET, json=DRAW, headers={"If-Match": "0"}).json()["version"] == 1
    minutes(hub, 1)
    r = td.post(f"{SHEET}/confirm", json={"power": "A"}, headers={"If-Match": "1"})
    assert r.status_code == 200 and r.json()["version"] == 2, r.text
    assert r.json()["confirmations"] == {"Austria": "td"}
    # a second TD's phone still showing version 1
    r = td.post(f"{SHEET}/confirm", json={"power": "E"}, headers={"If-Match": "1"})
    assert r.status_code == 409
    assert r.json()["detail"].startswith("the TD confirmed Austria's line at 12:01 since you "
                                         "loaded it")
    r = td.post("/api/td/sheets/1/1/final", json={"incomplete": True}, headers={"If-Match": "1"})
    assert r.status_code == 409 and "Austria's line at 12:01" in r.json()["detail"]
    assert td.get(SHEET).json()["status"] == "entered"

    minutes(hub, 3)
    r = td.post("/api/td/sheets/1/1/final", json={"incomplete": True}, headers={"If-Match": "2"})
    assert r.status_code == 200 and r.json()["version"] == 3 and r.json()["status"] == "final"
    minutes(hub, 4)
    r = td.post("/api/td/sheets/1/1/final", json={"final": False}, headers={"If-Match": "3"})
    assert r.status_code == 200 and r.json()["version"] == 4 and r.json()["status"] != "final"
    # a Confirm from a card drawn before the final and the reopening: both named
    r = td.post("/api/td/sheets/1/1/final", json={"incomplete": True}, headers={"If-Match": "2"})
    assert r.status_code == 409
    assert r.json()["detail"].startswith(
        "the TD marked this sheet final at 12:03 and the TD reopened this sheet at 12:04 "
        "since you loaded it")
    assert version(td) == 4 and td.get(SHEET).json()["status"] != "final"


def press(hub: ThreadHub, td: httpx.Client, power: str, shown: int) -> dict[str, object]:
    """``power``'s player presses their button on the table's clock, showing version
    ``shown``: what the clock's outbox sends, one press a request."""
    r = httpx.post(f"{hub.url}/api/tables/1/confirmations", headers=clocks_of(td)[1],
                   json={"confirmations": [{"id": f"c-{power}-{shown}", "round": 1,
                                            "power": power, "version": shown}]})
    assert r.status_code == 200, r.text
    return r.json()


def clock_shows(hub: ThreadHub, td: httpx.Client) -> dict[str, object]:
    r = httpx.get(f"{hub.url}/api/tables/1/snapshot", headers=clocks_of(td)[1])
    r.raise_for_status()
    return r.json()["result"]


def test_seven_buttons_pressed_one_after_another_against_what_the_clock_showed_are_taken(hub):
    """Each confirmation raises the sheet's version; the presses made against the version
    the clock showed before it are taken all the same (what their players confirm did not
    change), one made against a version shown between two confirmations too. A press made
    before the TD's final, or before a correction, is refused with what changed."""
    td = hub.td()
    td.put(SHEET, json=DRAW, headers={"If-Match": "0"}).raise_for_status()
    shown = clock_shows(hub, td)["version"]
    assert shown == 1
    for power in "AEFGI":
        assert press(hub, td, power, shown) == {"taken": [f"c-{power}-{shown}"],
                                                "refused": []}
    assert version(td) == 6  # five lines confirmed: five changes
    between = version(td)  # the phone's page, say, between two presses
    assert press(hub, td, "R", between)["taken"] == [f"c-R-{between}"]
    assert clock_shows(hub, td)["version"] == shown  # what the players confirm: unchanged
    view = td.get(SHEET).json()
    assert view["version"] == 7 and len(view["confirmed"]) == 6
    assert set(view["confirmations"].values()) == {"button"}

    minutes(hub, 7)
    r = td.post("/api/td/sheets/1/1/final", json={"incomplete": True},
                headers={"If-Match": str(view["version"])})
    assert r.status_code == 200, r.text
    late = press(hub, td, "T", shown)  # pressed while the clock still showed the sheet open
    assert late["taken"] == []
    assert late["refused"] == [{"id": f"c-T-{shown}", "reason": (
        "the TD marked this sheet final at 12:07 since you loaded it: reload to see it, "
        "and make your change again if it is still needed")}]
    r = td.post("/api/td/sheets/1/1/final", json={"final": False},
                headers={"If-Match": str(version(td))})
    assert r.status_code == 200
    assert clock_shows(hub, td)["version"] == 9  # the final, then the reopening
    minutes(hub, 9)
    corrected = {**DRAW, "year": 1901, "centres": {**DRAW["centres"], "A": 6, "G": 3}}
    r = td.put(SHEET, json=corrected, headers={"If-Match": str(version(td))})
    assert r.status_code == 200 and r.json()["confirmed"] == [], r.text
    stale = press(hub, td, "T", 9)
    assert stale["refused"][0]["reason"].startswith(
        "the TD corrected this sheet at 12:09 since you loaded it")
    assert press(hub, td, "T", clock_shows(hub, td)["version"])["taken"]


def test_sheets_stored_before_every_change_was_versioned_keep_their_version(tmp_path: Path):
    """A hub's store from before (version 11: a confirmation or final kept the version, no
    change kept in words) is migrated: each sheet's ``settled`` is its version, a change
    against it is taken, and one against an older version is refused without words it
    never kept."""
    import sqlite3

    from server.sheets import Sheet, SheetIn
    from server.store import MIGRATIONS, SheetChanged, Store

    path = tmp_path / "hub.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    # the store as version 11 left it, with a sheet corrected twice and confirmed since
    db.executescript("ALTER TABLE sheets DROP COLUMN settled; DROP TABLE sheet_changes;")
    body = SheetIn.model_validate(DRAW)
    db.execute("INSERT INTO sheets(round, table_no, body, confirmed, td, by_td, at, version, "
               "td_without) VALUES(1, 1, ?, '{\"A\": \"button\"}', 1, 0, ?, 3, '[]')",
               (body.model_dump_json(), START.isoformat()))
    script = MIGRATIONS[11]  # version 12: every change versioned, and kept in words
    assert isinstance(script, str)
    db.executescript(script)
    db.commit()
    db.close()
    store = Store(path)
    try:
        sheet = store.sheet(1, 1)
        assert sheet is not None and (sheet.version, sheet.settled) == (3, 3)

        def reopen(stored: Sheet | None) -> tuple[Sheet, str]:
            assert stored is not None
            return replace(stored, td=False), "reopened"

        with pytest.raises(SheetChanged) as refused:
            store.edit_sheet(1, 1, 1, reopen, OVER)
        assert refused.value.message.startswith("this sheet changed since you loaded it")
        done = store.edit_sheet(1, 1, 3, reopen, OVER)
        assert done is not None and (done.version, done.settled, done.td) == (4, 4, False)
    finally:
        store.close()
