"""Calling the round and undoing it, as on the day: the TD's phone in headless Chromium, a
real ``dipclock hub`` and a real ``dipclock kiosk`` for table 2 (issue 9, item 3).

Hub time runs for real; the TD sets it (``POST /api/clock``, the dashboard's "set the hub's
time") to moments of the round, and the kiosk resyncs to it. Table 2 has 5 minutes more
than the others, so at the call its Fall 1901 deadline is minutes away: the call would cut
it off, the preview says so, the kiosk ends the game, and the undo gives the phase back.
The TD sets 09:32:40 again just before tapping "Call" (the call is at the preview's
instant), so however long the kiosk and the browser took to start on a loaded machine, the
call falls in the five minutes before table 2's deadline in which the preview warns; the
call's time itself is read back from the hub, never guessed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.chromium import chromium, signed_in
from tests.integration.conftest import approve, start_kiosk, wait_for
from tests.server.conftest import PASSWORD
from tests.server.live import LiveHub

pytestmark = [pytest.mark.browser]

DAY = "2024-05-04"


@pytest.mark.timeout(300)
def test_the_call_cuts_table_2_s_phase_on_its_kiosk_and_the_undo_gives_it_back(
    tmp_path: Path,
) -> None:
    hub = LiveHub(tmp_path / "hub")
    kiosk = None
    try:
        hub.start()
        td = hub.td()
        td.post("/api/clock", json={"time": f"{DAY}T09:20:00"}).raise_for_status()
        for method, path, body in (
            ("PUT", "/api/td/event", {"builtin": "wdc2006"}),  # Fall 1901 ends 09:32
            ("PUT", "/api/td/round", {"number": 1, "start": f"{DAY}T09:00:00"}),
            ("PUT", "/api/td/tables", {"tables": [1, 2, 3]}),
            ("POST", "/api/td/adjustments", {"seconds": 300, "table": 2}),  # 09:37 for table 2
        ):
            td.request(method, path, json=body).raise_for_status()
        kiosk = start_kiosk(hub, 2, tmp_path)
        kiosk.open_box()
        approve(td, 2)
        td.post("/api/clock", json={"time": f"{DAY}T09:32:40"}).raise_for_status()
        wait_for("table 2's kiosk at 09:32:40, in Fall 1901", lambda: (
            s := kiosk.screen()) and s["hub_time"] and s["phase_code"] == "F1901"
            and s["deadline"] == "Deadline 09:37" and not s["hub_lost"]
            and s["stage"] in ("negotiating", "writing"), timeout=90)

        with chromium() as browser:
            page, asked = signed_in(browser, hub.url, PASSWORD)
            page.click("summary:has-text('Call the round')")
            td.post("/api/clock", json={"time": f"{DAY}T09:32:40"}).raise_for_status()
            page.click("#btn-call")
            page.locator("#btn-call-undo").wait_for(timeout=60_000)
            question = asked[-1]
            assert re.search(r"Table 2 is \d+ s from its Fall 1901 deadline \(09:37:00\)",
                             question), question
            assert ("Table 2: the game ends after Spring 1901 (09:17:00); loses Fall 1901"
                    in question)
            assert "Table 1: the game ends after Fall 1901 (09:32:00)" in question
            wait_for("table 2's kiosk ends the game at the call", lambda: (
                s := kiosk.screen()) and s["stage"] == "game_over"
                and s["label"] == "Round called: the game ends here")
            # the hub's clock runs on from 09:32:40 while the page works: the call is at the
            # preview's instant, read back rather than guessed
            called = td.get("/api/td/state").json()["round"]["call"][11:19]
            assert "09:32:40" <= called < "09:37:00", called

            page.click("#btn-call-undo")
            page.locator("#btn-call-undo").wait_for(state="detached", timeout=60_000)
            wait_for("table 2's kiosk plays Fall 1901 again", lambda: (
                s := kiosk.screen()) and s["stage"] != "game_over" and s["phase_code"] == "F1901"
                and s["deadline"] == "Deadline 09:37")
            page.context.close()
        assert asked[-1] == f"Undo the call at {called}? Every game plays on."
        audit = [a["summary"] for a in td.get("/api/td/state").json()["audit"]]
        assert audit[0] == f"call of round 1 undone (was {called}): games play on"
    finally:
        if kiosk is not None:
            kiosk.kill()
        hub.stop()
        hub.kill()
