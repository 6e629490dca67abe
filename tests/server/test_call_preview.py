"""Calling the round with its effect shown, and undone (issue 9, items 3 and 6).

A real uvicorn serves the hub on a clock the test sets (``FakeClock``); the TD's dashboard
runs in Debian's headless Chromium; a table's kiosk is asked what it shows from the very
snapshot the hub sends it (``kiosk.state.build``, the kiosk's own screen model).

The issue's scenario: wdc2006 from 09:00 (Spring 1901 ends 09:17, Fall 1901 09:32), table
2 given +90 s, the round called at 09:32:39: 51 s before table 2's Fall 1901 deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import EventProfile
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from kiosk import state
from tests.chromium import SHOTS, signed_in
from tests.doubles import FakeClock
from tests.server.conftest import PASSWORD
from tests.server.live import ThreadHub, clocks_of

pytestmark = [pytest.mark.browser]

DAY = "2024-05-04"


def at(hms: str) -> datetime:
    return datetime.fromisoformat(f"{DAY}T{hms}")


@pytest.fixture
def live(tmp_path: Path) -> Iterator[ThreadHub]:
    with ThreadHub(tmp_path / "hub", synced=lambda: True,
                   clock=FakeClock(to_seconds(at("08:00:00")))) as h:
        yield h


def set_up(live: ThreadHub) -> httpx.Client:
    td = live.td()
    td.put("/api/td/event", json={"builtin": "wdc2006"}).raise_for_status()
    td.put("/api/td/round", json={"number": 1, "start": f"{DAY}T09:00:00"}).raise_for_status()
    td.put("/api/td/tables", json={"count": 3}).raise_for_status()
    return td


def kiosk_screen(live: ThreadHub, td: httpx.Client, table: int, moment: str) -> Any:
    """What table ``table``'s kiosk shows at ``moment``, from the snapshot it is sent."""
    snap = httpx.get(f"{live.url}/api/tables/{table}/snapshot",
                     headers=clocks_of(td)[table]).json()
    profile = EventProfile.model_validate(snap["event"])
    schedule = Schedule.model_validate(snap["schedule"])
    return state.build(profile, schedule, at(moment), [], table=table).screen


def open_call(page: Any) -> None:
    page.click("summary:has-text('Call the round')")


def test_the_call_names_table_2_s_loss_before_and_its_undo_restores_the_kiosk(
    browser: Any, live: ThreadHub
) -> None:
    td = set_up(live)
    live.clock.t = to_seconds(at("09:20:00"))
    td.post("/api/td/adjustments", json={"seconds": 90, "table": 2}).raise_for_status()
    live.clock.t = to_seconds(at("09:32:39"))
    before = kiosk_screen(live, td, 2, "09:32:39")
    assert (before.look, before.phase, before.big) == ("warning", "Fall 1901", "0:51")

    # the preview, as the hub answers it: table 2 alone loses Fall 1901, 51 s short
    p = td.get("/api/td/call/preview").json()
    ends = {t["table"]: (t["last"]["phase"], t["cut"] and t["cut"]["phase"]) for t in p["tables"]}
    assert ends == {1: ("F1901", None), 2: ("S1901", "F1901"), 3: ("F1901", None)}
    assert p["warnings"] == 1 and p["tables"][1]["seconds_short"] == 51
    later = td.get("/api/td/call/preview", params={"at": f"{DAY}T09:33:30"}).json()
    assert [t["last"]["phase"] for t in later["tables"]] == ["F1901"] * 3
    assert later["warnings"] == 0
    bad = td.get("/api/td/call/preview", params={"at": "half past nine"})
    assert bad.status_code == 422 and "at" in bad.text
    # a German TD's phone reads the lines and the warning in German, the phases too
    german = td.get("/api/td/call/preview", headers={"Accept-Language": "de-DE"}).json()
    cut = german["tables"][1]
    assert cut["warning"].startswith("Tisch 2") and "Herbst 1901" in cut["warning"], cut
    assert "Frühjahr 1901" in cut["text"] and "Fall" not in cut["text"], cut

    page, asked = signed_in(browser, live.url, PASSWORD)
    open_call(page)
    # the event's call rule, as the hub words it (wdc2006 has none of its own), once the
    # dashboard's first state has come (read at once, it was empty on a busy machine)
    page.wait_for_function("document.getElementById('call-rule').textContent !== ''",
                           timeout=30_000)
    assert page.locator("#call-rule").inner_text() == (
        "A call ends games after the last deadline before it.")
    page.click("#btn-call")
    page.locator("#btn-call-undo").wait_for(timeout=30_000)
    question = asked[-1]
    assert question.startswith("Call round 1 at 09:32:39?"), question
    assert "Table 2 is 51 s from its Fall 1901 deadline (09:33:30)" in question
    # each table's line as the hub words it (dipclock.callwords): the page adds nothing
    assert ("Table 2: the game ends after Spring 1901 (09:17:00); loses Fall 1901, 51 s "
            "short; the starting centres count") in question
    assert "Table 1: the game ends after Fall 1901 (09:32:00); Fall 1901 centres count" in question
    assert [t["text"] for t in p["tables"]] == question.splitlines()[-3:]
    shown = page.locator("#call-preview li[data-table='2']").inner_text()
    assert "loses Fall 1901" in shown
    page.locator("#actions").screenshot(path=f"{SHOTS}/dipclock-call-preview.png")
    called = kiosk_screen(live, td, 2, "09:32:39")
    assert (called.look, called.label) == ("game_over", "Round called: the game ends here")

    # undo: logged, and table 2's kiosk counts down its Fall 1901 again
    page.click("#btn-call-undo")
    page.locator("#btn-call-undo").wait_for(state="detached", timeout=30_000)
    assert asked[-1] == "Undo the call at 09:32:39? Every game plays on."
    after = kiosk_screen(live, td, 2, "09:32:39")
    assert (after.look, after.phase, after.big) == ("warning", "Fall 1901", "0:51")
    audit = [a["summary"] for a in td.get("/api/td/state").json()["audit"]]
    assert audit[0] == "call of round 1 undone (was 09:32:39): games play on"
    assert audit[1] == "round 1 called at 09:32:39"
    assert td.delete("/api/td/call").json() == {
        "detail": "round 1 has not been called"}
    page.context.close()


def test_after_the_call_no_break_or_hold_is_offered_to_end_and_no_deadline_has_microseconds(
    browser: Any, live: ThreadHub
) -> None:
    td = set_up(live)
    # a pause from 09:05:00.7 to 09:10:00.4 once left every later deadline at hh:mm:59.7
    live.clock.t = to_seconds(at("09:05:00.700000"))
    td.post("/api/td/pauses", json={"reason": "Fire alarm"}).raise_for_status()
    live.clock.t = to_seconds(at("09:10:00.400000"))
    td.post("/api/td/resume", json={}).raise_for_status()
    state_now = td.get("/api/td/state").json()
    assert state_now["hall"]["deadline"] == "Deadline 09:22"
    assert [d["deadline"] for d in state_now["deadlines"][:2]] == [
        f"{DAY}T09:22:00", f"{DAY}T09:37:00"]
    # a hold on table 1 and a break to come at the Spring 1902 deadline: both offered
    live.clock.t = to_seconds(at("09:12:00.250000"))
    td.post("/api/td/pauses", json={"table": 1, "reason": "ruling"}).raise_for_status()
    td.post("/api/td/pauses", json={"deadline": "S1902", "minutes": 10}).raise_for_status()
    page, asked = signed_in(browser, live.url, PASSWORD)
    page.wait_for_function("document.querySelectorAll('#pauses button').length === 2")
    assert page.locator("#pauses").inner_text().count("End now") == 1
    assert page.locator("#clock-detail").inner_text().startswith("Deadline 09:22")

    # called at 09:30: every game is over; neither the hold nor the break can matter now
    live.clock.t = to_seconds(at("09:30:00"))
    td.post("/api/td/call", json={}).raise_for_status()
    page.locator("#btn-call-undo").wait_for(timeout=30_000)
    buttons = page.locator("#pauses button").all_inner_texts()
    assert buttons == ["Undo call"], buttons
    page.locator("#pauses").screenshot(path=f"{SHOTS}/dipclock-called-clock-card.png")
    page.context.close()
