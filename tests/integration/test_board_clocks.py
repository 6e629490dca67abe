"""Board clocks on a real hall: a hub and two kiosks with button boxes, an event whose
``central_clock = false``. Two players of table 1 hold their buttons together: table 1's
next phase starts on its kiosk, its snapshot and the TD's grid; table 2 still waits."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.live import ROOT

from .conftest import Hall, running_hall, wait_for

CLUB = (ROOT / "examples" / "events" / "club-night.toml").read_text()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    # Spring 1901 (15 min) ended a minute ago: every board is adjudicating
    with running_hall(tmp_path_factory.mktemp("club"), minutes_in=16,
                      event={"toml": CLUB, "filename": "club-night.toml"}, tables=(1, 2),
                      stage="adjudicating") as h:
        yield h


def test_two_players_holding_together_start_their_board_s_next_phase_only(club: Hall) -> None:
    hub, kiosks = club.hub, club.kiosks
    one, two = kiosks[1], kiosks[2]
    assert one.box is not None
    one.box.sendall(b"H A\nH F\n")  # Austria and France hold together: the board is ready
    screen = wait_for("table 1 plays Fall 1901",
                      lambda: (s := one.screen()) and s["stage"] == "negotiating" and s)
    assert screen["phase"] == "Fall 1901" and screen["phase_code"] == "F1901"
    assert all(chip["state"] != "out" for chip in screen["chips"])
    wait_for("the hub has the chord", lambda: len(
        club.snapshot(1)["schedule"]["board_starts"]) == 1)
    snap = club.snapshot(1)
    assert snap["out"] == []  # the chord took no one out of the game
    assert [s["table"] for s in snap["schedule"]["board_starts"]] == [1]
    # table 2's board has not said it is ready: it still waits, on its screen and the grid
    assert (two.screen() or {})["stage"] == "adjudicating"
    td = hub.td()
    state = wait_for("the grid shows table 1 playing", lambda: (g := td.get(
        "/api/td/state").json()) and g["tables"][0]["view"]["stage"] == "negotiating" and g)
    tiles = {t["table"]: t for t in state["tables"]}
    assert tiles[2]["view"]["stage"] == "adjudicating"
    assert tiles[1]["view"]["phase"] == "F1901"
