"""The WDD's files from a hub (issue 36, "Out of the hub"): the roster's people, the
standings and each confirmed board gathered for ``dipclock.wdd``, served to the TD as a zip;
a seated name the roster lacks is split into first name and name, and the TD is told."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

from server.exports import ExportRefused, split_name, wdd_event
from tests.server.conftest import Hub
from tests.server.test_archive import NAMES, play
from tests.server.test_results_desk import BOARD_1


def files(hub: Hub) -> dict[str, list[dict[str, str]]]:
    r = hub.client.get("/api/td/export/wdd")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        return {name: list(csv.DictReader(io.StringIO(z.read(name).decode("utf-8"),
                                                      newline="")))
                for name in z.namelist()}


def test_the_wdd_files_hold_the_hub_s_standings_and_boards(hub: Hub):
    play(hub)
    got = files(hub)
    assert set(got) == {"classification.csv", "boards.csv"}
    standings = hub.client.get("/api/td/standings?round=2").json()["standings"]
    rows = got["classification.csv"]
    # one row per player, in the standings' order, the roster's names (accents kept)
    assert [f"{r['FIRST NAME']} {r['NAME']}" for r in rows] == [s["player"] for s in standings]
    assert {(r["FIRST NAME"], r["NAME"]) for r in rows} == set(NAMES)
    assert [int(r["RANK"]) for r in rows] == [s["rank"] for s in standings]
    assert all(r["NATIONALITY"] == "FRA" and r["LOCATION"] == "FRA" for r in rows)
    assert all(r["R1"] and r["R2"] for r in rows)  # everyone played both rounds
    boards = got["boards.csv"]
    assert len(boards) == 2 * 2 * 7  # two rounds, two boards, seven powers
    germany = next(r for r in boards if r["ROUND"] == "1" and r["BOARD"] == "1"
                   and r["COUNTRY"] == "0GE")
    assert (germany["NB_CENTRE"], germany["YEAR_ELIMINATION"]) == ("0", "5")  # 1905


def test_a_seated_name_the_roster_lacks_is_split_and_said(hub: Hub):
    td = hub.sign_in()
    hub.set_up(td)
    seats = "".join(f"1,1,{p},{n}\n" for p, n in zip(
        "AEFGIRT", ["Ludwig van Beethoven", "Ann Lee", "Bob Marsh", "Cy Nolan", "Di Okafor",
                    "Ed Price", "Cher"], strict=True))
    assert hub.client.put("/api/td/seating", json={"csv": seats}, headers=td).status_code \
        == 200
    from tests.server.test_results_desk import enter

    enter(hub, td, 1, BOARD_1)
    event, notes = wdd_event(hub.client.app.state.hub.store)
    assert (event.people["Ludwig van Beethoven"].given,
            event.people["Ludwig van Beethoven"].family) == ("Ludwig", "van Beethoven")
    assert (event.people["Cher"].given, event.people["Cher"].family) == ("", "Cher")
    assert len(notes) == 7 and any(str(n).startswith(
        "'Ludwig van Beethoven' is not on the roster: written as first name 'Ludwig', name "
        "'van Beethoven'") for n in notes)
    r = hub.client.get("/api/td/export/wdd")
    assert r.status_code == 200 and r.headers["X-Dipclock-Notes"] == "7"


def test_no_wdd_files_before_a_board_is_confirmed(hub: Hub):
    td = hub.sign_in()
    hub.set_up(td)
    r = hub.client.get("/api/td/export/wdd")
    assert r.status_code == 409 and r.json()["detail"].startswith(
        "no board's result is confirmed yet")
    with pytest.raises(ExportRefused):
        wdd_event(hub.client.app.state.hub.store)


def test_the_wdd_files_are_the_td_s(hub: Hub):
    assert hub.client.get("/api/td/export/wdd").status_code == 401


@pytest.mark.parametrize(("name", "given", "family"), [
    ("Ann Lee", "Ann", "Lee"), ("Ana de la Cruz", "Ana", "de la Cruz"),
    ("Jean Paul Sartre", "Jean Paul", "Sartre"), ("De Gaulle", "De", "Gaulle"),
    ("  José   García ", "José", "García"), ("Cher", "", "Cher")])
def test_a_name_is_split_at_its_family_name(name: str, given: str, family: str):
    assert split_name(name) == (given, family)
