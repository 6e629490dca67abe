"""The whole chain, as on the day: the TD's phone -> the hub -> real kiosks -> a button
press -> the hub -> the TD's phone. Headless Chromium, a real hub, three real kiosks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.chromium import chromium, signed_in
from tests.integration.conftest import TABLES, Hall, wait_for
from tests.server.conftest import PASSWORD

pytestmark = [pytest.mark.browser]


def every_table(hall: Hall, what: str, check) -> None:
    for n in TABLES:
        wait_for(f"table {n}: {what}", lambda n=n: (s := hall.kiosks[n].screen()) and check(s))


def test_td_phone_drives_every_kiosk_and_judges_a_late_press(hall: Hall, tmp_path: Path):
    shots = Path(os.environ.get("DIPCLOCK_SCREENSHOTS", tmp_path))
    with chromium() as browser:
        page, asked = signed_in(browser, hall.hub.url, PASSWORD)

        # Take away the rest of Spring 1901: its deadline is now, on every table.
        page.get_by_text("Add or take away time").click()
        page.fill("#adj-seconds", "3600")
        page.click("#btn-take")
        every_table(hall, "Spring 1901 ended, everyone late",
                    lambda s: s["phase_code"] == "F1901" and s["look"] == "late")

        # Italy's orders go in on table 2, late: its kiosk shows it, the TD's phone lists it.
        hall.kiosks[2].press("I")
        wait_for("table 2 shows Italy in, late", lambda: any(
            c["letter"] == "I" and c["state"] == "just_late"
            for c in hall.kiosks[2].screen()["chips"]))
        row = page.locator("#pen-1-2-I-S1901")
        row.wait_for(timeout=60_000)
        assert "Yellow card" in row.inner_text()
        row.locator("input[aria-label=note]").fill("box was across the room")
        row.get_by_role("button", name="Waive").click()
        page.wait_for_function(
            "document.querySelector('#pen-1-2-I-S1901').innerText.includes('Waived')")

        # Lunch: one tap pauses every table; resume brings them all back.
        page.fill("#pause-reason", "Lunch")
        page.click("#btn-pause")
        every_table(hall, "paused for lunch",
                    lambda s: s["stage"] == "paused" and "Lunch" in s["label"])
        page.screenshot(path=str(shots / "dashboard-phone.png"))
        page.click("#btn-resume")
        every_table(hall, "running again", lambda s: s["stage"] == "negotiating")
        page.context.close()

    assert asked[0].startswith("Take away"), asked
    assert any(q.startswith("Pause every clock") for q in asked)
    td = hall.td()
    [pen] = [p for p in td.get("/api/td/penalties").json() if p["power"] == "I"]
    assert (pen["table"], pen["decision"], pen["note"]) == (2, "waive", "box was across the room")
