"""Game-end votes on the players' phones and the TD's Votes card (issue 37), in Debian's
headless Chromium against a real uvicorn hub whose time the test holds. The power's button
on the table's clock is the clock's own post (``VotePress`` with the clock's token), as a
kiosk's outbox sends it.

wdc2006 rule 16 (``../shared/event-rules``, WDC XVI): "Any player may propose a game-end
immediately after an adjudication, any time after the 1905 centre chart has been entered";
"Voting figures will not be revealed": the pages say who has voted, never how, and the
result without figures."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.events import BUILTIN
from dipclock.phaseview import view
from dipclock.powers import LETTERS
from dipclock.schedule import Schedule
from tests.chromium import SHOTS, element_shot, phone
from tests.server.conftest import START
from tests.server.live import ThreadHub, at, clocks_of, held_hub
from tests.server.test_browser_rounds import WAIT, Dashboard

pytestmark = [pytest.mark.browser]

LAST_YEAR = 1909
SEATS = "".join(f"1,{t},{p},Player {p}{t}\n" for t in (1, 2) for p in LETTERS)
#: the centre chart at Fall 1905 on both boards (all seven survive)
CHART = {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5}
#: a figure of a count ("6 for", "1 against", "5 of 7 yes"): never on any page
#: every press sent, for its id
PRESSES: list[str] = []
FIGURES = re.compile(r"\d+\s*(for|against|yes|no)\b|\b(yes|no)\s*:\s*\d", re.I)


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    with held_hub(tmp_path / "hub", START - timedelta(minutes=10)) as h:
        yield h


def negotiating(year: int, season: str) -> datetime:
    """A minute in the negotiation period ``season`` ``year`` of a wdc2006 round from
    START, as the core's clock says (the hub takes the vote's moment from it)."""
    profile, schedule = BUILTIN["wdc2006"], Schedule(start=START, last_year=LAST_YEAR)
    t = START
    while t < START + timedelta(hours=12):
        v = view(profile, schedule, t, 1)
        if v.stage == "negotiating" and v.phase is not None \
                and (v.phase.year, v.phase.season) == (year, season):
            return t + timedelta(minutes=1)
        t += timedelta(minutes=1)
    raise AssertionError(f"no {season} {year} in the round")


def set_up(hub: ThreadHub) -> httpx.Client:
    td = hub.td()
    for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                       ("/api/td/round", {"number": 1, "start": START.isoformat(),
                                          "last_year": LAST_YEAR}),
                       ("/api/td/tables", {"tables": [1, 2]}),
                       ("/api/td/seating", {"csv": SEATS})):
        td.put(path, json=body).raise_for_status()
    return td


def link(hub: ThreadHub, td: httpx.Client, table: int) -> tuple[str, str]:
    """The vote page's address for ``table`` (the sheet link's key) and the key."""
    r = httpx.get(f"{hub.url}/api/tables/{table}/snapshot", headers=clocks_of(td)[table],
                  verify=hub.verify)
    r.raise_for_status()
    sheet = r.json()["sheet"]
    key = sheet.split("#", 1)[1]
    return f"{hub.url}{sheet.replace('/sheet/', '/vote/')}", key


def press(hub: ThreadHub, td: httpx.Client, table: int, vote: int, power: str,
          when: datetime) -> None:
    """``power``'s button pressed on table ``table``'s clock, as its outbox posts it (each
    press its own id: one sent again is the same press)."""
    PRESSES.append(power)
    r = httpx.post(f"{hub.url}/api/tables/{table}/votes/presses", headers=clocks_of(td)[table],
                   verify=hub.verify, json={"presses": [
                       {"id": f"v{vote}-{power}-{len(PRESSES)}", "vote": vote, "power": power,
                        "at": when.isoformat()}]})
    assert r.status_code == 200 and len(r.json()["taken"]) == 1, r.text


def claim(hub: ThreadHub, key: str, vote: int, power: str, choice: str) -> str:
    """A phone's vote for ``power`` sent without its page (the other players' phones)."""
    r = httpx.post(f"{hub.url}/api/votes/1/1/{vote}/claims", json={"power": power,
                   "choice": choice}, headers={"X-Sheet-Key": key}, verify=hub.verify)
    assert r.status_code == 200, r.text
    return str(r.json()["claim"])


class Player:
    """A player's phone on the table's vote page (the hub's Content-Security-Policy kept:
    the page runs under it), every script error and policy refusal kept."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = phone(browser, csp=True)
        self.page = self.context.new_page()
        self.page.set_viewport_size({"width": 360, "height": 780})
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if "Content Security Policy" in m.text else None)
        self.page.goto(url)

    def vote(self, power: str, choice: str, pressed: bool = True) -> None:
        """Step one, the power; step two, the vote: then the page asks for the button
        (``pressed``: unless the hub refused the choice at once)."""
        from playwright.sync_api import expect

        self.page.click(f"#power-choices button[data-power={power}]")
        self.page.click(f"#vote-choices button[data-choice={choice}]")
        if pressed:
            expect(self.page.locator("#press")).to_be_visible(timeout=WAIT)

    def shows_no_choice(self) -> None:
        """Nothing on the page says how this phone voted, once sent."""
        page = self.page
        assert page.locator("#vote-choices button").count() == 0
        text = "\n".join(page.locator(s).inner_text() for s in
                         ("#now", "#claim-end", "#ballot", "#press"))
        assert not re.search(r"\b(yes|no|abstain)\b", text, re.I), text
        assert not FIGURES.search(text), text

    def shot(self, name: str) -> None:
        self.page.evaluate("document.getElementById('toast').hidden = true")
        self.page.screenshot(path=os.path.join(SHOTS, name), full_page=True)
        assert self.page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_phone_proposes_a_dias_the_table_votes_it_through_and_a_clash_is_told(
        browser, hub):
    from playwright.sync_api import expect

    td = set_up(hub)
    when = negotiating(1906, "spring")  # after Fall 1905: the 1905 chart is in
    at(hub, when)
    url, key = link(hub, td, 1)
    # without the key (an address typed, not the QR code): the page says where to open it
    lost = Player(browser, url.split("#")[0])
    expect(lost.page.locator("#vote-problem")).to_have_text(
        "open the vote from the table's QR code (its result sheet)", timeout=WAIT)
    lost.context.close()
    # the player opens the table's sheet link (the clock's QR code) and taps the vote's
    austria = Player(browser, url.replace("/vote/", "/sheet/"))
    page = austria.page
    page.click("#vote-link")
    page.wait_for_url(url)
    expect(page.locator("#now-words")).to_have_text("No vote under way", timeout=WAIT)
    expect(page.locator("#vote-period")).to_have_text("Now: Spring 1906")
    page.click("#propose-box > summary")
    expect(page.locator("#btn-propose")).to_be_enabled(timeout=WAIT)
    assert page.locator("input[name=vote-form]").evaluate_all(
        "(r) => r.map((i) => i.value)") == ["dias"]  # wdc2006: a draw of all survivors only
    page.select_option("#proposer", "A")
    for p, n in CHART.items():
        page.locator(f"#chart input[data-power={p}]").fill(str(n))
    expect(page.locator("#chart-total")).to_have_text("34 of 34")
    page.click("#btn-propose")
    expect(page.locator("#press-words")).to_contain_text("Austria's button", timeout=WAIT)
    expect(page.locator("#now-detail")).to_contain_text("Waiting for Austria's button")
    austria.shot("dipclock-vote-propose-press.png")
    vote = td.get("/api/td/votes", params={"round": 1}).json()[0]["vote"]
    assert vote["state"] == "open" and vote["waiting_button"] == ["A"]
    press(hub, td, 1, vote["id"], "A", when)
    expect(page.locator("#claim-end")).to_have_text(
        "Austria's proposal is open: the vote begins.", timeout=WAIT)
    expect(page.locator("#now-words")).to_have_text(
        "A draw of all survivors proposed, Spring 1906")
    expect(page.locator("#now-detail")).to_have_text("Voted: 0 of 7")
    austria.shot("dipclock-vote-open.png")

    # Austria votes on its own phone; its button on the clock makes it count
    austria.vote("A", "yes")
    expect(page.locator("#press-words")).to_contain_text("Austria's button")
    expect(page.locator("#now-powers li[data-power=A]")).to_contain_text(
        "waiting for its button", timeout=WAIT)
    austria.shows_no_choice()
    austria.shot("dipclock-vote-press.png")
    press(hub, td, 1, vote["id"], "A", when)
    expect(page.locator("#claim-end")).to_have_text("Austria: your vote counts.", timeout=WAIT)
    expect(page.locator("#now-powers li[data-power=A]")).to_contain_text("✓ voted")
    austria.shows_no_choice()

    # two phones choose for England: both are told, and neither counts
    england, other = Player(browser, url), Player(browser, url)
    for phone_ in (england, other):
        expect(phone_.page.locator("#power-choices button[data-power=E]")).to_be_visible(
            timeout=WAIT)
    england.vote("E", "yes")
    other.vote("E", "no", pressed=False)  # the hub sees the clash at once
    for phone_ in (england, other):
        expect(phone_.page.locator("#claim-end")).to_contain_text(
            re.compile("two phones chose for England", re.I), timeout=WAIT)
        expect(phone_.page.locator("#press")).to_be_hidden()
        phone_.shows_no_choice()
    england.shot("dipclock-vote-conflict.png")
    # England chooses again, on one phone, and presses
    england.vote("E", "yes")
    press(hub, td, 1, vote["id"], "E", when)
    expect(england.page.locator("#claim-end")).to_have_text("England: your vote counts.",
                                                            timeout=WAIT)
    # France's choice on the other phone waits for its button: three minutes, then it lapses
    other.vote("F", "yes")
    at(hub, when + timedelta(minutes=4))
    expect(other.page.locator("#claim-end")).to_have_text(
        "France's button was not pressed within 3 minutes: choose again", timeout=WAIT)
    expect(other.page.locator("#press")).to_be_hidden()
    other.shows_no_choice()
    # the other five vote on their phones (sent without a page here) and press
    for p in "FGIRT":
        claim(hub, key, vote["id"], p, "yes" if p != "I" else "abstain")
    dash = Dashboard(browser, hub)
    row = dash.page.locator(f"#votes-list li[data-vote='{vote['id']}']")
    expect(row).to_contain_text("Table 1: A draw of all survivors proposed, Spring 1906",
                                timeout=WAIT)
    expect(row).to_contain_text("Voted: 2 of 7")
    expect(row.locator("li[data-power=F]")).to_contain_text("waiting for its button")
    for p in "FGIRT":
        press(hub, td, 1, vote["id"], p, when)
    headline = "Draw agreed, Spring 1906: the 1905 centre chart counts"
    expect(page.locator("#now-words")).to_have_text(headline, timeout=WAIT)
    expect(row).to_contain_text(headline, timeout=WAIT)
    austria.shows_no_choice()
    austria.shot("dipclock-vote-passed.png")
    assert not FIGURES.search(dash.page.locator("#votes-card").inner_text())
    assert austria.errors == [] and england.errors == [] and other.errors == []
    assert dash.errors == []


def test_the_td_proposes_counts_by_hand_and_undoes_a_vote(browser, hub):
    from playwright.sync_api import expect

    td = set_up(hub)
    at(hub, negotiating(1906, "spring"))
    dash = Dashboard(browser, hub)
    page = dash.page
    page.set_viewport_size({"width": 360, "height": 780})
    expect(page.locator("#votes-round")).to_have_text("· round 1", timeout=WAIT)
    expect(page.locator("#vh-table option")).to_have_count(2, timeout=WAIT)
    page.click("#votes-hand > summary")
    page.select_option("#vh-table", "2")
    page.select_option("#vh-proposer", "F")
    for p, n in CHART.items():
        page.locator(f"#vh-chart input[data-power={p}]").fill(str(n))
    assert dash.click("#btn-vh-propose") == (
        "Open a vote at table 2 on a draw of all survivors? The table's clock shows it at "
        "once; count it here when the players have voted.")
    row = page.locator("#votes-list li[data-table='2']").first
    expect(row).to_contain_text("Table 2: A draw of all survivors proposed, Spring 1906",
                                timeout=WAIT)
    expect(row).to_contain_text("proposed by France")
    page.click("#votes-list li[data-table='2'] button:has-text('Count by hand')")
    expect(page.locator("#votes-count")).to_be_visible()
    for p in LETTERS:
        page.select_option(f"#vc-voters select[data-power={p}]", "yes")
    page.select_option("#vc-voters select[data-power=G]", "no")
    page.add_style_tag(content=".top { position: static; }")
    element_shot(page.locator("#votes-card"), os.path.join(SHOTS, "dipclock-votes-count.png"))
    question = dash.click("#btn-vc-count")
    assert question.startswith("Count table 2's vote on a draw of all survivors as given?")
    expect(row).to_contain_text("Draw not agreed: the game goes on", timeout=WAIT)
    expect(page.locator("#votes-count")).to_be_hidden()
    got = td.get("/api/td/votes", params={"round": 1}).json()
    closed = next(r for r in got if r["table"] == 2)
    last = closed["vote"] or closed["history"][-1]
    assert last["state"] == "failed"
    assert not FIGURES.search(page.locator("#votes-card").inner_text())
    page.evaluate("document.getElementById('toast').hidden = true")
    element_shot(page.locator("#votes-card"), os.path.join(SHOTS, "dipclock-votes-card.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert dash.click("#votes-list li[data-table='2'] button:has-text('Undo')") == (
        "Undo table 2's vote: Draw not agreed: the game goes on?")
    expect(page.locator("#votes-list li[data-table='2'] button:has-text('Undo')")).to_have_count(
        0, timeout=WAIT)
    expect(page.locator("#votes-list li[data-table='2']").first).to_contain_text(
        "Undone by the TD: Draw not agreed")

    # table 1: a veto the TD saw made, then a vote cancelled
    page.select_option("#vh-table", "1")
    dash.click("#btn-vh-propose")
    row = page.locator("#votes-list li[data-table='1']").first
    expect(row).to_contain_text("proposed, Spring 1906", timeout=WAIT)
    page.click("#votes-list li[data-table='1'] button:has-text('Count by hand')")
    page.select_option("#vc-veto", "R")
    assert dash.click("#btn-vc-veto") == ("Record Russia's veto at table 1? The vote on a draw "
                                          "of all survivors ends and the game goes on.")
    expect(row).to_contain_text("Draw vetoed by Russia: the game goes on", timeout=WAIT)
    dash.click("#btn-vh-propose")
    expect(row).to_contain_text("proposed, Spring 1906", timeout=WAIT)
    assert dash.click("#votes-list li[data-table='1'] button:has-text('Cancel')") == (
        "Cancel table 1's vote on a draw of all survivors? It counts for nothing.")
    expect(row).to_contain_text("Cancelled by the TD: the game goes on", timeout=WAIT)
    states = [(v["state"], v["headline"]) for r in td.get("/api/td/votes").json()
              if r["table"] == 1 for v in r["history"]]
    assert [s for s, _ in states] == ["vetoed", "cancelled"], states
    assert dash.errors == []
