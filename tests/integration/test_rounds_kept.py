"""Issue 9, items 1 and 4, on a real hall: late orders pressed on real kiosks' button boxes,
decided on the TD's phone in headless Chromium; then another event and the next round are
chosen on the phone, and round 1 keeps every row and decision and can still be ruled on."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import httpx
import pytest

from dipclock.sync import to_moment
from tests.chromium import chromium, signed_in
from tests.integration.conftest import TABLES, Hall, wait_for
from tests.server.conftest import PASSWORD

pytestmark = [pytest.mark.browser]
WAIT = 60_000


def rows(td: httpx.Client, round_no: int) -> list[dict[str, str]]:
    r = td.get("/api/penalties.csv", params={"round": round_no})
    r.raise_for_status()
    late = [row for row in csv.DictReader(io.StringIO(r.text)) if row["kind"] == "late"]
    return sorted(late, key=lambda row: int(row["table"]))


def test_round_one_is_kept_as_played_and_stays_reviewable(hall: Hall) -> None:
    from playwright.sync_api import expect

    td = hall.td()
    with chromium() as browser:
        page, asked = signed_in(browser, hall.hub.url, PASSWORD)

        # Spring 1901 ends now on every table; three orders go in late on real boxes
        page.get_by_text("Add or take away time").click()
        page.fill("#adj-seconds", "3600")
        page.click("#btn-take")
        for n in TABLES:
            wait_for(f"table {n}: Spring 1901 over", lambda n=n: (
                s := hall.kiosks[n].screen()) and s["phase_code"] == "F1901")
        for n, power in ((1, "E"), (2, "I"), (3, "T")):
            hall.kiosks[n].press(power)
        for n, power in ((1, "E"), (2, "I"), (3, "T")):
            expect(page.locator(f"#pen-1-{n}-{power}-S1901")).to_be_visible(timeout=WAIT)

        # two decisions now, one left for later
        page.locator("#pen-1-1-E-S1901 button", has_text="Confirm").click()
        # the page sends one change at a time (a tap while one is on its way is refused
        # with a toast): the TD's next tap comes once the first is shown done
        expect(page.locator("#pen-1-1-E-S1901")).to_contain_text("✓", timeout=WAIT)
        row = page.locator("#pen-1-2-I-S1901")
        row.locator("input[aria-label=note]").fill("box across the room")
        row.locator("button", has_text="Waive").click()
        expect(page.locator("#pen-1-2-I-S1901")).to_contain_text("Waived", timeout=WAIT)
        expect(page.locator("#pen-1-1-E-S1901")).to_contain_text("✓", timeout=WAIT)
        before = rows(td, 1)
        assert [(r["table"], r["power"], r["decision"], r["note"]) for r in before] == [
            ("1", "E", "confirm", ""), ("2", "I", "waive", "box across the room"),
            ("3", "T", "", "")]

        # item 1: another event, chosen while round 1 is under way, is for the next round
        page.click("#setup > summary")
        page.select_option("#event-builtin", "wdc2019")
        n_asked = len(asked)
        page.click("#btn-event")
        expect(page.locator("#toast")).to_contain_text("Done", timeout=WAIT)
        page.wait_for_function("() => !acting", timeout=WAIT)  # takes taps again
        assert asked[n_asked].startswith("Use wdc2019 from round 2 on? Round 1 keeps"), asked
        assert rows(td, 1) == before  # not one row or decision of round 1 moved
        for n in TABLES:  # and the tables play round 1 by its own event still
            assert hall.snapshot(n)["event"]["id"] == "wdc2006"

        # item 4: round 2 set up; round 1's last row is ruled on through the round picker
        now = to_moment(hall.hub.get("/api/time").json()["t1"])
        page.fill("#round-number", "2")
        page.fill("#round-start", (now + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"))
        page.click("#btn-round")
        expect(page.locator("#toast")).to_contain_text("Set up round 2", timeout=WAIT)
        expect(page.locator("#review-round")).to_have_value("2", timeout=WAIT)
        page.select_option("#review-round", "1")
        row = page.locator("#pen-1-3-T-S1901")
        expect(row).to_be_visible(timeout=WAIT)
        row.locator("button", has_text="Confirm").click()
        expect(row).to_contain_text("✓", timeout=WAIT)
        page.context.close()
    after = rows(td, 1)
    assert after[:2] == before[:2] and after[2]["decision"] == "confirm"
    assert {r["deadline"] for r in after} == {r["deadline"] for r in before}  # wdc2006's
    td.close()
