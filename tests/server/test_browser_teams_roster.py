"""The Seating card's "Teams from the roster" (issue 36: a name is typed once per event):
on the TD's phone in Debian's headless Chromium against a real uvicorn hub, a tap with no
roster says why in the hub's one line; with a roster, it makes the teams from its club or
team column and the card says what it set, as the CSV import does."""

from __future__ import annotations

import pytest

from tests.server.conftest import START
from tests.server.test_browser_rounds import WAIT, Dashboard, hub  # noqa: F401 (a fixture)
from tests.server.test_live import set_up
from tests.server.test_teams_from_roster import ROSTER

pytestmark = [pytest.mark.browser]


def test_teams_from_the_roster_in_one_tap(browser, hub):  # noqa: F811
    from playwright.sync_api import expect

    td = hub.td()
    set_up(td, START, tables=3)
    dash = Dashboard(browser, hub)
    page = dash.page
    dash.open_set_up()
    button = page.locator("#btn-teams-roster")
    expect(button).to_have_text("Teams from the roster")
    button.click()
    expect(page.locator("#toast")).to_have_text(
        "teams from the roster: the roster is empty: import it on the Roster card first "
        "(its club or team column makes the teams)", timeout=WAIT)
    page.wait_for_function("() => !acting", timeout=WAIT)

    td.post("/api/td/roster/import", content=ROSTER.encode(),
            headers={"Content-Type": "text/csv"}).raise_for_status()
    assert dash.click("#btn-teams-roster") == (
        "Make the teams from the roster's clubs? They replace the teams set now.")
    expect(page.locator("#teams-summary")).to_have_text(
        "Set: teams from the roster: 2 teams, 3 players; 1 person with no club in no team")
    teams = page.locator("#teams-view li")
    expect(teams).to_have_count(2, timeout=WAIT)
    expect(teams.nth(0)).to_contain_text("London John Smith")
    expect(teams.nth(1)).to_contain_text("Paris DC John Smith (2), José García")
    assert dash.errors == []
