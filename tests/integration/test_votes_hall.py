"""Game-end votes in a real hall (issue 37's "Done when"): a real ``dipclock hub`` and three
``dipclock kiosk`` processes (SDL's dummy driver, each with its button box), graduated20,
the round under way in Spring 1906 (votes are allowed after the 1905 chart). Players'
phones hold the table's sheet key; their votes count only once their power's button is
pressed on their own clock.

- table 1: a draw of all survivors passes; the clock ends the game with the vote's words,
  the sheet starts from the result, the round's record holds it;
- table 2: a draw is vetoed, publicly, and the clock says who vetoed;
- table 3: a draw is proposed, then a concession: the concession is voted first (rule 16),
  fails, and the draw passes after it; a phone that chose for a power it does not hold only
  makes a conflict that drops both choices, and no power votes twice.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.chromium import EXPECT_MS as WAIT_MS
from tests.chromium import TdPhone, chromium
from tests.chromium import phone as chromium_phone
from tests.integration.conftest import Hall, running_hall
from tests.server.live import PASSWORD
from tests.waits import wait_for

pytestmark = [pytest.mark.browser]

TABLES = (1, 2, 3)
#: graduated20 from the round's start: Spring 1906 opens at 200 min (S/F 20 min each)
SPRING_1906 = 201
#: Germany is out; Turkey leads with 9
CHART = {"A": 5, "E": 5, "F": 5, "G": 0, "I": 5, "R": 5, "T": 9}
SURVIVORS = "AEFIRT"
#: a figure of a count ("4 for", "1 against"): never on a page
FIGURES = re.compile(r"\d+\s*(for|against|yes|no)\b|\b(yes|no)\s*:\s*\d", re.I)


def key(hall: Hall, table: int) -> str:
    return hall.snapshot(table)["sheet"].partition("#")[2]


def phone(hall: Hall, table: int, name: str) -> httpx.Client:
    """A player's phone at ``table``: the sheet's key (its QR code) and an id of its own."""
    return httpx.Client(base_url=hall.hub.url, timeout=60,
                        verify=getattr(hall.hub, "verify", True),
                        headers={"X-Sheet-Key": key(hall, table),
                                 "X-Dipclock-Device": f"{name:0<12}"})


def ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    return r.json()


def shown(hall: Hall, table: int, what: str, probe) -> dict[str, Any]:
    """Wait for table ``table``'s clock to show ``what`` (``probe`` of its screen)."""
    kiosk = hall.kiosks[table]
    return wait_for(f"table {table}'s clock shows {what}", lambda: (
        s := kiosk.screen()) and probe(s) and s, timeout=60)


def vote_of(screen: dict[str, Any]) -> dict[str, Any]:
    return screen.get("vote") or {}


def current(p: httpx.Client, table: int) -> dict[str, Any]:
    return ok(p.get(f"/api/votes/1/{table}"))["vote"]


def vote_all(hall: Hall, table: int, phones: dict[str, httpx.Client], vid: int,
             choices: dict[str, str]) -> None:
    """Each power's phone chooses, then its player presses the power's button once the
    clock asks for it (a press before the clock has heard of the choice is orders in, as
    it would be at the table)."""
    for power, choice in choices.items():
        said = ok(phones[power].post(f"/api/votes/1/{table}/{vid}/claims",
                                     json={"power": power, "choice": choice}))
        assert said["press"].startswith("Press ")
    asked = set(choices)
    shown(hall, table, f"the clock asking for {''.join(sorted(asked))}'s buttons", lambda s: {
        m["letter"] for m in vote_of(s).get("marks", []) if m["state"] == "press"} >= asked)
    for power in choices:
        hall.kiosks[table].press(power)


def propose(hall: Hall, table: int, phones: dict[str, httpx.Client], form: str,
            proposer: str) -> None:
    """``proposer``'s phone proposes ``form``; its player presses the power's button once the
    clock asks for it (a press before the clock heard of the proposal is orders in). While
    another ballot is open, the clock asks by the proposer's mark."""
    ok(phones[proposer].post(f"/api/votes/1/{table}", json={
        "form": form, "centres": CHART, "proposer": proposer}))
    shown(hall, table, f"the clock asking for {proposer}'s button to propose", lambda s: any(
        m["letter"] == proposer and m["state"] == "press" for m in vote_of(s).get("marks", []))
        or vote_of(s).get("status", "").endswith("press your button to propose it"))
    hall.kiosks[table].press(proposer)


class Phone:
    """A player's phone in Chromium on the table's vote page (opened from its sheet link),
    under the hub's Content-Security-Policy; every script error kept."""

    def __init__(self, browser: Any, hall: Hall, table: int) -> None:
        self.context = chromium_phone(browser, csp=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        sheet = hall.snapshot(table)["sheet"]
        self.page.goto(hall.hub.url + sheet.replace("/sheet/", "/vote/"))

    def vote(self, power: str, choice: str) -> None:
        from playwright.sync_api import expect

        self.page.click(f"#power-choices button[data-power={power}]")
        self.page.click(f"#vote-choices button[data-choice={choice}]")
        expect(self.page.locator("#press")).to_be_visible(timeout=WAIT_MS)


def test_three_tables_vote_on_their_clocks(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with running_hall(tmp_path, minutes_in=SPRING_1906, event={"builtin": "graduated20"},
                      tables=TABLES) as hall, chromium() as browser:
        td = hall.td()
        phones = {t: {p: phone(hall, t, f"t{t}{p}") for p in SURVIVORS} for t in TABLES}
        dash = TdPhone(browser, hall.hub.url, PASSWORD)

        # --- table 1: a draw of all survivors, proposed and voted on phones in Chromium ---
        austria = Phone(browser, hall, 1)
        page = austria.page
        expect(page.locator("#vote-period")).to_have_text("Now: Spring 1906", timeout=WAIT_MS)
        page.click("#propose-box > summary")
        expect(page.locator("#btn-propose")).to_be_enabled(timeout=WAIT_MS)
        page.select_option("#proposer", "A")
        for p, n in CHART.items():
            page.locator(f"#chart input[data-power={p}]").fill(str(n))
        page.click("#btn-propose")
        expect(page.locator("#press-words")).to_contain_text("Austria's button",
                                                             timeout=WAIT_MS)
        shown(hall, 1, "Austria's proposal waiting for its button", lambda s: vote_of(s).get(
            "status") == "Austria: press your button to propose it")
        hall.kiosks[1].press("A")
        expect(page.locator("#claim-end")).to_have_text(
            "Austria's proposal is open: the vote begins.", timeout=WAIT_MS)
        screen = shown(hall, 1, "the ballot open", lambda s: any(
            m["state"] == "waiting" for m in vote_of(s).get("marks", [])))
        assert vote_of(screen)["headline"] == "Draw of all survivors proposed, Spring 1906"
        vid = current(phones[1]["A"], 1)["id"]
        # Austria and England vote on their pages, the others' phones without one
        austria.vote("A", "yes")
        england = Phone(browser, hall, 1)
        england.vote("E", "yes")
        shown(hall, 1, "the clock asking for Austria's and England's buttons", lambda s: {
            m["letter"] for m in vote_of(s).get("marks", []) if m["state"] == "press"} >= {
            "A", "E"})
        for power in "AE":
            hall.kiosks[1].press(power)
        expect(page.locator("#claim-end")).to_have_text("Austria: your vote counts.",
                                                        timeout=WAIT_MS)
        expect(england.page.locator("#claim-end")).to_have_text("England: your vote counts.",
                                                                timeout=WAIT_MS)
        # the TD's dashboard follows it: who has voted, never how, no figures
        row = dash.page.locator(f"#votes-list li[data-vote='{vid}']")
        expect(row).to_contain_text("Table 1: A draw of all survivors proposed, Spring 1906",
                                    timeout=WAIT_MS)
        expect(row).to_contain_text("Voted: 2 of 6", timeout=WAIT_MS)
        assert not FIGURES.search(row.inner_text())
        vote_all(hall, 1, phones[1], vid, dict.fromkeys("FIRT", "yes"))
        headline = "Draw agreed, Spring 1906: the 1905 centre chart counts"
        screen = shown(hall, 1, "the game over with the vote's words", lambda s: (
            s["stage"], s["label"]) == ("game_over", headline))
        assert screen["qr"]  # the result sheet's code, for the players to complete it
        sheet = ok(phones[1]["A"].get("/api/sheets/1/1"))
        assert sheet["vote"]["ending"] == "draw" and sheet["vote"]["year"] == 1905
        assert sheet["counts"] == "Fall 1905 centres count (the vote)"
        record = ok(td.get("/api/td/votes/record", params={"round": 1}))
        passed = [v for v in record if v["table"] == 1]
        assert [(v["form"], v["state"]) for v in passed] == [("dias", "passed")]

        # --- table 2: a draw vetoed -----------------------------------------------------
        propose(hall, 2, phones[2], "dias", "E")
        shown(hall, 2, "England's ballot open", lambda s: any(
            m["state"] == "waiting" for m in vote_of(s).get("marks", [])))
        vid = current(phones[2]["E"], 2)["id"]
        vote_all(hall, 2, phones[2], vid, {"R": "veto"})
        screen = shown(hall, 2, "the veto", lambda s: vote_of(s).get("headline") ==
                       "Draw vetoed by Russia: the game goes on")
        assert screen["stage"] == "negotiating"  # the game goes on, the clock with it

        # --- table 3: a concession is voted before the draw proposed first -------------
        propose(hall, 3, phones[3], "dias", "A")
        shown(hall, 3, "the draw's ballot open", lambda s: vote_of(s).get("headline") ==
              "Draw of all survivors proposed, Spring 1906")
        propose(hall, 3, phones[3], "concede:T", "F")
        screen = shown(hall, 3, "the concession first, the draw waiting", lambda s: vote_of(
            s).get("headline") == "Concession to Turkey proposed, Spring 1906")
        now = current(phones[3]["F"], 3)
        assert now["form"] == "concede:T" and now["queued"] == 1

        # a phone that does not hold Italy chooses for it: the real Italy chooses too, the
        # two choices drop, both phones are told; the real one chooses again, and presses
        impostor = phone(hall, 3, "t3Xi")
        first = ok(impostor.post(f"/api/votes/1/3/{now['id']}/claims",
                                 json={"power": "I", "choice": "yes"}))
        second = phones[3]["I"].post(f"/api/votes/1/3/{now['id']}/claims",
                                     json={"power": "I", "choice": "no"})
        assert second.status_code == 409 and second.json()["detail"] == (
            "two phones chose for Italy: choose again, on one phone")
        state = ok(impostor.get(f"/api/votes/1/3/{now['id']}/claims/{first['claim']}"))
        assert state["state"] == "conflict" and "two phones chose for Italy" in state["why"]
        vote_all(hall, 3, phones[3], now["id"], {"I": "no"})
        shown(hall, 3, "Italy's vote taken", lambda s: any(
            m["letter"] == "I" and m["state"] == "voted" for m in vote_of(s).get("marks", [])))
        again = phones[3]["I"].post(f"/api/votes/1/3/{now['id']}/claims",
                                    json={"power": "I", "choice": "yes"})
        assert again.status_code == 409 and again.json()["detail"] == (
            "Italy has voted: one vote each")
        vote_all(hall, 3, phones[3], now["id"],
                 {p: "yes" for p in SURVIVORS if p != "I"})
        shown(hall, 3, "the draw's ballot after the concession failed", lambda s: vote_of(
            s).get("headline") == "Draw of all survivors proposed, Spring 1906" and any(
            m["state"] == "waiting" for m in vote_of(s).get("marks", [])))
        draw = current(phones[3]["A"], 3)
        assert draw["form"] == "dias" and draw["queued"] == 0
        vote_all(hall, 3, phones[3], draw["id"], dict.fromkeys(SURVIVORS, "abstain"))
        shown(hall, 3, "the draw agreed", lambda s: (s["stage"], s["label"]) == (
            "game_over", headline))
        record = ok(td.get("/api/td/votes/record", params={"round": 1}))
        three = sorted((v for v in record if v["table"] == 3), key=lambda v: v["closed_at"])
        assert [(v["form"], v["state"]) for v in three] == [
            ("concede:T", "failed"), ("dias", "passed")], three
        assert three[0]["at"] > three[1]["at"]  # the draw was proposed first
        text = str(record)
        assert "'no'" not in text and "'yes'" not in text  # who voted how is never kept
        # the dashboard shows each table's result, without figures
        votes = dash.page.locator("#votes-card")
        expect(votes).to_contain_text("Draw vetoed by Russia: the game goes on",
                                      timeout=WAIT_MS)
        assert not FIGURES.search(votes.inner_text())
        assert austria.errors == england.errors == dash.errors == []
        for p in [impostor, *(q for t in phones.values() for q in t.values())]:
            p.close()
        td.close()
