"""Issue 36's "Done when", end to end on real hubs in Debian's headless Chromium, on a
360 px phone: what a TD does on the event's day goes through the dashboard's cards; the API
only sets up what this test is not about (the rounds' times, the tables, the games' results)
and reads what is checked.

One event shows it all: wdc2019 ("WDC 2019"), whose text has every piece:
- II.1b3: "If the organisation need some players to sit out, they will choose first the
  non-preregistered players", and a bonus "may be given to the player who ask to sit out";
- II: a player who leaves may be replaced, and "The tournament director will decide how
  many points will get each player" (``replaced_score = "td"``: the card asks the share);
- III: the top 7 after the third round play the final's top board (round 4 here), and on a
  withdrawal "the next player will take the place".

The day: 35 people imported from a file (a duplicate name and a bad line refused by their
line numbers, the good lines kept); round 1 everyone pre-registered (35: five boards);
round 2 a walk-in added and marked late before the board call and a volunteer who asks to
sit out (36: the volunteer sits out, not the walk-in who did not pre-register); the
volunteer takes over Germany at round 2's table 1 from Fall 1903 for 40 %; a withdrawal
before round 3 (35 again, the withdrawn seated nowhere after); a top-board qualifier
withdraws before round 4 and the next in the ranking takes the seat; the WDD files and the
archive saved from the Event files card; the archive imported into a second hub, whose
standings, CSV files and records are the first's."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from dipclock.roster import COLUMNS
from server import archive
from tests.chromium import element_shot
from tests.server.conftest import START
from tests.server.live import ThreadHub, at, held_hub
from tests.server.test_browser_rounds import WAIT, Dashboard

pytestmark = [pytest.mark.browser]

ACCENTED = [("José", "García"), ("Zoë", "Ørsted"), ("Chloé", "Lefèvre"), ("Jürgen", "Müller"),
            ("Søren", "Dalgård"), ("Łukasz", "Wójcik"), ("Inês", "Conceição"),
            ("François", "Côté"), ("Ağa", "Yılmaz"), ("Björn", "Åström")]
NAMES = ACCENTED + [("Player", f"{n:02d}") for n in range(11, 36)]
PEOPLE = [f"{g} {f}" for g, f in NAMES]
GOOD = [f'{g},{f},,,,,FR,,yes,,"Lyon, France"' for g, f in NAMES]
#: line 1 is the header: line 6 names José García again (the same person, an accent form
#: aside: NFD), line 12 has no such country; both refused, the 35 others kept
LINES = GOOD[:4] + ["Jose\u0301,Garci\u0301a,,,,,ES,,yes,,"] + GOOD[4:9] \
    + ["Bad,Country,,,,,ZZ,,yes,,"] + GOOD[9:]
ROSTER = ",".join(COLUMNS) + "\n" + "\n".join(LINES) + "\n"
WALK_IN = "Zoé Tardieu"  # not on the file: comes to round 2 late, not pre-registered
VOLUNTEER = "Player 20"  # asks to sit out round 2, then takes over a power in it
WITHDRAWN = "Player 30"  # withdraws before round 3
#: each table's centres in 1907 (34 each, none eliminated), best first, by table: unequal
#: boards, so the ranking has no tie at the top board's seventh seat
CENTRES = [(16, 6, 5, 3, 2, 1, 1), (13, 9, 5, 3, 2, 1, 1), (11, 10, 6, 3, 2, 1, 1),
           (12, 8, 6, 4, 2, 1, 1), (9, 8, 7, 5, 2, 2, 1)]
POWERS = "AEFGIRT"


def start(n: int) -> Any:
    return START + timedelta(hours=6 * (n - 1))


def row(name: str) -> str:
    return f"#roster-list li:has(.roster-name:text-is('{name}'))"


def ok(r: httpx.Response) -> Any:
    assert r.status_code == 200, r.text
    return r.json() if r.headers.get("content-type", "").startswith("application/json") \
        else r.text


def set_up_round(hub: ThreadHub, td: httpx.Client, n: int) -> None:
    """The round's time and tables: not what this test is about."""
    ok(td.put("/api/td/round", json={"number": n, "start": start(n).isoformat()}))
    ok(td.put("/api/td/tables", json={"count": 5}))


def results(hub: ThreadHub, td: httpx.Client, n: int) -> None:
    """Every table of round ``n`` plays to 1907; the TD enters and confirms each sheet."""
    at(hub, start(n) + timedelta(hours=5))
    tables = sorted({s["table"] for s in ok(td.get("/api/td/seating", params={"round": n}))})
    for t in tables:
        shift = (t + n) % 7
        order = POWERS[shift:] + POWERS[:shift]
        body = {"centres": dict(zip(order, CENTRES[(t - 1) % 5], strict=True)), "year": 1907}
        sheet = ok(td.put(f"/api/sheets/{n}/{t}", json=body, headers={"If-Match": '"0"'}))
        ok(td.post(f"/api/td/sheets/{n}/{t}/final", json={"final": True, "incomplete": True},
                   headers={"If-Match": str(sheet["version"])}))


def seated(td: httpx.Client, n: int) -> dict[int, set[str]]:
    tables: dict[int, set[str]] = {}
    for s in ok(td.get("/api/td/seating", params={"round": n})):
        tables.setdefault(s["table"], set()).add(s["player"])
    return tables


def everyone(td: httpx.Client, n: int) -> set[str]:
    return set().union(*seated(td, n).values())


def shot(page: Any, card: str, tmp_path: Path, name: str) -> None:
    """One card as the TD sees it, kept under ``tmp_path`` to look at."""
    page.evaluate("document.getElementById('toast').hidden = true")
    element_shot(page.locator(card), str(tmp_path / f"{name}.png"))


class Desk:
    """The Roster and Seating cards on the TD's phone."""

    def __init__(self, dash: Dashboard) -> None:
        self.dash, self.page = dash, dash.page

    def register(self, n: int) -> None:
        from playwright.sync_api import expect

        self.page.fill("#reg-round", str(n))
        self.page.dispatch_event("#reg-round", "change")
        expect(self.page.locator("#reg-summary")).to_contain_text(f"Round {n}:", timeout=WAIT)

    def status(self, name: str, status: str, shown: str) -> None:
        from playwright.sync_api import expect

        self.page.fill("#roster-search", name)
        self.page.select_option(f"{row(name)} select", status)
        expect(self.page.locator(row(name))).to_contain_text(shown, timeout=WAIT)
        self.page.fill("#roster-search", "")

    def seat(self, n: int, players: int, tables: int, look: Path | None = None
             ) -> tuple[str, str]:
        """Round ``n`` seated from its register and called: the draft's figures line and
        its notes.
        ``look``: where to keep a picture of the Seating card's draft before the call."""
        from playwright.sync_api import expect

        page = self.page
        page.fill("#seat-round", str(n))
        page.click("#btn-seat-register")
        expect(page.locator("#seat-register-note")).to_contain_text(
            f"From round {n}'s register: {players} players", timeout=WAIT)
        page.fill("#seat-seed", "1")
        page.click("#btn-seat-draft")
        expect(page.locator("#seat-quality")).to_contain_text(
            f"Round {n}: {tables} tables", timeout=WAIT)
        quality, notes = page.inner_text("#seat-quality"), page.inner_text("#seat-notes")
        if look is not None:
            shot(page, "#seat-card", look.parent, look.stem)
        assert self.dash.click("#btn-seat-call").startswith(
            f"Call round {n}'s seating, {tables} tables?")
        return quality, notes


def test_an_event_day_from_the_roster_file_to_the_archive_on_another_hub(browser, tmp_path):
    from playwright.sync_api import expect

    from dipclock.standings import top_board_seeds
    from server.resultsdesk import game_scores

    with held_hub(tmp_path / "first", start(1) - timedelta(minutes=30)) as hub:
        td = hub.td()
        ok(td.put("/api/td/event", json={"builtin": "wdc2019"}))
        set_up_round(hub, td, 1)
        dash = Dashboard(browser, hub)
        page = dash.page
        page.set_viewport_size({"width": 360, "height": 780})
        page.wait_for_function("() => last !== null", timeout=WAIT)
        page.add_style_tag(content=".top { position: static; }")  # not over the cards
        desk = Desk(dash)

        # 1. the roster file: refused whole, each bad line by its number; the good kept
        page.click("#roster-desk > summary")
        page.click("#roster-import-box > summary")
        (tmp_path / "players.csv").write_text(ROSTER, encoding="utf-8")
        page.set_input_files("#roster-file", str(tmp_path / "players.csv"))
        page.click("#btn-roster-import")
        refused = page.locator("#roster-refused li")
        expect(refused).to_have_count(2, timeout=WAIT)
        expect(refused.nth(0)).to_contain_text("Line 6:")
        expect(refused.nth(0)).to_contain_text("José García")
        expect(refused.nth(1)).to_contain_text("Line 12: nationality: 'ZZ'")
        shot(page, "#roster-card", tmp_path, "1-import-refused")
        page.click("#btn-roster-keep")
        expect(page.locator("#roster-import-done")).to_have_text(
            "Imported: 35 added, 0 updated, 2 lines refused", timeout=WAIT)
        expect(page.locator("#roster-summary")).to_have_text("· 35 people", timeout=WAIT)
        page.click("#roster-import-box > summary")
        people = {p["name"] for p in ok(td.get("/api/td/roster"))["people"]}
        assert people == set(PEOPLE)

        # 2. round 1: everyone pre-registered, in one tap; seated from the register
        expect(page.locator("#reg-round")).to_have_value("1", timeout=WAIT)
        page.click("#btn-reg-prereg")
        expect(page.locator("#reg-summary")).to_have_text(
            "Round 1: 35 here, 0 not here yet.", timeout=WAIT)
        page.click("#seat-desk > summary")
        assert "sitting out" not in desk.seat(1, 35, 5)[0]
        assert everyone(td, 1) == set(PEOPLE)
        results(hub, td, 1)

        # round 2: a volunteer asks to sit out; a walk-in, added to the roster, marked late
        # (before the board call): 36, so one sits out, the volunteer first
        set_up_round(hub, td, 2)
        at(hub, start(2) - timedelta(minutes=20))
        desk.register(2)
        page.click("#btn-reg-prereg")
        expect(page.locator("#reg-summary")).to_contain_text("Round 2: 35 here", timeout=WAIT)
        desk.status(VOLUNTEER, "sitting_out", "Asks to sit out")
        page.click("#roster-person > summary")
        given, family = WALK_IN.split()
        page.fill("#rp-given_name", given)
        page.fill("#rp-family_name", family)
        page.fill("#rp-nationality", "FR")
        page.click("#btn-person-save")
        expect(page.locator("#toast")).to_have_text(f"{WALK_IN} added to the roster",
                                                    timeout=WAIT)
        page.fill("#roster-search", "tardieu")
        page.click(f"{row(WALK_IN)} button")
        expect(page.locator(f"{row(WALK_IN)} button")).to_have_text("Here ✓", timeout=WAIT)
        page.fill("#roster-search", "")
        expect(page.locator("#reg-summary")).to_have_text(
            "Round 2: 35 here, 0 not here yet, 1 asking to sit out.", timeout=WAIT)
        quality, notes = desk.seat(2, 36, 5, tmp_path / "2-round-2-draft.png")
        assert f"sitting out: {VOLUNTEER}" in quality
        expect(page.locator("#seat-register-note")).to_contain_text(
            f"first asked to sit out: {VOLUNTEER}; then not pre-registered: {WALK_IN}")
        two = seated(td, 2)
        assert set().union(*two.values()) == (set(PEOPLE) | {WALK_IN}) - {VOLUNTEER}

        # 3. the volunteer takes over Germany at table 1 from Fall 1903, for 40 % (wdc2019
        # leaves the points to the TD)
        germany = next(s["player"] for s in ok(td.get("/api/td/seating", params={"round": 2}))
                       if s["table"] == 1 and s["power"] == "G")
        page.click("#leaves-desk > summary")
        page.fill("#lv-round", "2")
        page.dispatch_event("#lv-round", "change")
        expect(page.locator("#lv-rule")).to_have_text(
            "The event leaves the score to you: give the new player's share.", timeout=WAIT)
        page.select_option("#lv-table", "1")
        page.select_option("#lv-power", label=f"Germany: {germany}")
        page.select_option("#lv-phase", label="Fall 1903")
        page.fill("#lv-player", VOLUNTEER)
        page.fill("#lv-share", "40")
        assert dash.click("#btn-lv-record") == (
            f"Record Germany at table 1: {VOLUNTEER} from Fall 1903?")
        expect(page.locator("#lv-list li")).to_have_count(1, timeout=WAIT)
        expect(page.locator("#lv-list li")).to_contain_text(
            f"Table 1, Germany: {VOLUNTEER} from Fall 1903 (40 %) (started: {germany})")
        shot(page, "#leaves-card", tmp_path, "3-replacement")
        results(hub, td, 2)
        said = f"Germany at round 2 table 1: 60 % to {germany}, 40 % to {VOLUNTEER}"
        assert any(line.startswith(said) for line in
                   ok(td.get("/api/td/standings", params={"round": 2}))["replaced"])
        board = dash.page.context.new_page()
        board.goto(hub.url + "/standings?round=2")
        expect(board.locator("#standings-replaced")).to_contain_text(said, timeout=WAIT)
        board.screenshot(path=str(tmp_path / "3-standings.png"), full_page=True)
        board.close()

        # a withdrawal before round 3: seated in no later round
        set_up_round(hub, td, 3)
        at(hub, start(3) - timedelta(minutes=20))
        desk.register(3)
        page.click("#btn-reg-prereg")
        desk.status(WITHDRAWN, "withdrawn", "Withdrawn")
        assert dash.asked[-1].startswith(f"{WITHDRAWN} withdraws from the event, from round 3")
        page.fill("#roster-search", "tardieu")
        expect(page.locator(f"{row(WALK_IN)} button")).to_have_text("Mark here", timeout=WAIT)
        page.click(f"{row(WALK_IN)} button")
        expect(page.locator(f"{row(WALK_IN)} button")).to_have_text("Here ✓", timeout=WAIT)
        page.fill("#roster-search", "")
        expect(page.locator("#reg-summary")).to_have_text(
            "Round 3: 35 here, 0 not here yet, 1 withdrawn.", timeout=WAIT)
        assert "sitting out" not in desk.seat(3, 35, 5)[0]
        assert everyone(td, 3) == (set(PEOPLE) | {WALK_IN}) - {WITHDRAWN}
        results(hub, td, 3)

        # 4. the final: a top-board qualifier withdraws; the next in the ranking sits there
        seeds = ok(td.get("/api/td/standings", params={"round": 3}))["top_board"]["seeds"]
        assert len(seeds) == 7 and WITHDRAWN not in seeds, seeds
        steps_back = seeds[2]
        set_up_round(hub, td, 4)
        at(hub, start(4) - timedelta(minutes=20))
        desk.register(4)
        page.click("#btn-reg-prereg")
        desk.status(steps_back, "withdrawn", "Withdrawn")
        page.fill("#roster-search", "tardieu")
        expect(page.locator(f"{row(WALK_IN)} button")).to_have_text("Mark here", timeout=WAIT)
        page.click(f"{row(WALK_IN)} button")
        expect(page.locator(f"{row(WALK_IN)} button")).to_have_text("Here ✓", timeout=WAIT)
        page.fill("#roster-search", "")
        expect(page.locator("#reg-summary")).to_have_text(
            "Round 4: 34 here, 0 not here yet, 2 withdrawn.", timeout=WAIT)
        app: Any = hub.server.config.app  # the hub's own store, for the core's ranking
        store = app.state.hub.store
        expected = top_board_seeds(game_scores(store, 4), store.event().standings,
                                   absent={steps_back, WITHDRAWN})
        [taken] = set(expected) - set(seeds)
        assert taken not in seeds and set(expected) - {taken} == set(seeds) - {steps_back}
        _, notes = desk.seat(4, 34, 4, tmp_path / "4-top-board-draft.png")
        assert taken in notes and steps_back not in notes, notes
        four = seated(td, 4)
        assert set(expected) in four.values(), four
        assert WITHDRAWN not in everyone(td, 4) and steps_back not in everyone(td, 4)
        results(hub, td, 4)

        # 5. the event's files saved from the Event files card
        with page.expect_download() as saving:
            page.click("#btn-wdd")
        wdd = tmp_path / saving.value.suggested_filename
        saving.value.save_as(wdd)
        with zipfile.ZipFile(wdd) as z:
            assert sorted(z.namelist()) == ["boards.csv", "classification.csv"]
            lines = z.read("classification.csv").decode("utf-8").splitlines()
        assert len(lines) == 1 + 36 and "García" in "".join(lines)
        with page.expect_download() as saving:
            page.click("#btn-archive")
        saved = tmp_path / saving.value.suggested_filename
        saving.value.save_as(saved)
        assert dash.errors == []
        first = records(td)

    # ... and carried on by a second hub, from its own Event files card
    with held_hub(tmp_path / "second", start(4) + timedelta(hours=6)) as other:
        phone = Dashboard(browser, other)
        phone.page.set_input_files("#archive-file", saved)
        expect(phone.page.locator("#archive-done")).to_contain_text(
            "4 rounds, 36 people on the roster", timeout=WAIT)
        assert phone.asked[0].startswith(f"Carry on the event saved in {saved.name}")
        shot(phone.page, "#exports-card", tmp_path, "5-archive-imported")
        td2 = other.td()
        assert records(td2) == first
        again = td2.get("/api/td/export/archive").content
        assert archive.canonical(again) == archive.canonical(saved.read_bytes())
        assert phone.errors == []


def records(td: httpx.Client) -> dict[str, Any]:
    """What the TD and the hall see of the event: standings and sheets of every round, the
    replacements, roster and register, the CSV files and the WDD's two files."""
    got: dict[str, Any] = {}
    for n in (1, 2, 3, 4):
        for path in (f"/api/td/standings?round={n}", f"/api/td/results?round={n}",
                     f"/api/td/register/{n}", f"/api/td/replacements/{n}",
                     f"/api/td/seating?round={n}", f"/api/standings.csv?round={n}"):
            got[path] = ok(td.get(path))
            if isinstance(got[path], dict):
                got[path].pop("base", None)
    for path in ("/api/td/roster", "/api/td/roster.csv", "/api/results.csv",
                 "/api/standings.csv", "/api/best-countries.csv", "/api/top-board.csv"):
        got[path] = ok(td.get(path))
    wdd = td.get("/api/td/export/wdd")
    assert wdd.status_code == 200, wdd.text
    with zipfile.ZipFile(io.BytesIO(wdd.content)) as z:  # the files, not the zip's times
        got["wdd"] = {name: z.read(name) for name in z.namelist()}
    return got
