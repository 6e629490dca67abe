"""The teams come from the roster (issue 36: "the same people used by seating, board calls,
sheets, penalties, scores, standings and teams, so a name is typed once per event"): one
tap makes them from the roster's club or team column, refused with one line where it
cannot; and a teams CSV names roster people only, kept in the roster's spelling, an
unknown name refused by its line. On a real SQLite file in tmp_path, through the app."""

from __future__ import annotations

import unicodedata

from dipclock.roster import COLUMNS
from server.stale import BASE_HEADER

HEADER = ",".join(COLUMNS)
#: given,family,homonym,note,wdd,wdr,nationality,club,preregistered,email,location
ROSTER = (f"{HEADER}\n"
          "José,García,1,,,,ES,Paris DC,yes,,\n"
          "John,Smith,1,,,,GB,London,no,,\n"
          "John,Smith,2,,,,GB,paris dc,no,,\n"
          "Ann,Lee,1,,,,FR,,yes,,\n")


def import_roster(hub, csrf, text: str = ROSTER) -> None:
    r = hub.client.post("/api/td/roster/import", content=text.encode(),
                        headers=csrf | {"Content-Type": "text/csv"})
    assert r.status_code == 200, r.text


def from_roster(hub, csrf):
    return hub.client.put("/api/td/teams/from-roster", headers=csrf)


def put_teams(hub, csrf, lines: str):
    return hub.client.put("/api/td/teams", json={"csv": lines}, headers=csrf)


def teams(hub) -> dict[str, list[str]]:
    r = hub.client.get("/api/td/teams")
    assert r.status_code == 200, r.text
    return r.json()


def test_one_tap_makes_the_teams_from_the_roster_s_clubs(hub, td):
    import_roster(hub, td)
    assert from_roster(hub, {}).status_code == 403  # a TD write: the CSRF header too
    # a screen drawn before another phone set the teams is refused, as every TD write is
    base = hub.client.get("/api/td/state").json()["base"]
    put_teams(hub, td, "Reds,Ann Lee\n").raise_for_status()
    assert from_roster(hub, td | {BASE_HEADER: str(base)}).status_code == 409
    r = from_roster(hub, td)
    assert r.status_code == 200, r.text
    assert r.json()["summary"] == ("teams from the roster: 2 teams, 3 players; 1 person "
                                   "with no club in no team")
    # "paris dc" is the Paris DC written first; each by the name the hub keys them by
    assert teams(hub) == {"London": ["John Smith"],
                          "Paris DC": ["John Smith (2)", "José García"]}
    state = hub.client.get("/api/td/state").json()
    assert r.json()["seq"] == state["seq"]
    assert r.json()["summary"] in str(state["audit"])  # in the log, as every change


def test_the_teams_from_the_roster_are_refused_with_one_line_where_they_cannot_be(hub, td):
    r = from_roster(hub, td)
    assert r.status_code == 409
    assert r.json()["detail"] == ("teams from the roster: the roster is empty: import it on "
                                  "the Roster card first (its club or team column makes the "
                                  "teams)")
    assert put_teams(hub, td, "Reds,Alice\nBlues,Bob\n").status_code == 200  # no roster yet
    import_roster(hub, td, f"{HEADER}\nAnn,Lee,1,,,,FR,,yes,,\nBo,Ek,1,,,,SE,,no,,\n")
    r = from_roster(hub, td)
    assert r.status_code == 409
    assert r.json()["detail"] == ("teams from the roster: no one on the roster (2 people) "
                                  "has a club or team: fill in their club, or give "
                                  "team,player lines in the box")
    assert teams(hub) == {"Blues": ["Bob"], "Reds": ["Alice"]}  # refused: nothing changed


def test_a_team_round_seated_from_its_teams_keeps_its_powers_on_the_csv(hub):
    """graduated20 2: "teams of seven players, with one player playing each of the seven
    Great Powers": the roster holds no powers, so its clubs cannot make those teams."""
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    import_roster(hub, td)
    r = from_roster(hub, td)
    assert r.status_code == 409
    detail = r.json()["detail"]
    assert detail.startswith("teams from the roster: the team round of ")
    assert detail.endswith("is seated from its teams, each player at a power, and the "
                           "roster holds no powers: give team,player,power lines in the "
                           "box instead")
    assert teams(hub) == {}


def test_with_a_roster_a_teams_csv_names_its_people_in_its_spelling(hub, td):
    import_roster(hub, td)
    nfd = unicodedata.normalize("NFD", "JOSÉ GARCÍA")  # another case, another Unicode form
    r = put_teams(hub, td, f"team,player\nIberia,{nfd}\nIberia,john  smith (2)\nIsles,ANN LEE\n")
    assert r.status_code == 200, r.text
    assert teams(hub) == {"Iberia": ["John Smith (2)", "José García"], "Isles": ["Ann Lee"]}


def test_with_a_roster_a_name_not_on_it_is_refused_by_its_line(hub, td):
    import_roster(hub, td)
    put_teams(hub, td, "Isles,Ann Lee\n").raise_for_status()
    for lines, says in (
        ("team,player\nA,José García\nA,John Smith\nB,Jon Smith\n",
         "teams line 4: Jon Smith is not on the roster"),
        # accents are part of a name (as everywhere on the hub): the roster's is suggested
        ("A,jose garcia\n", "teams line 1: jose garcia is not on the roster (the roster has "
                            "José García: give the name as it has it)"),
        # one person in two spellings is one person twice
        ("A,José García\nB,JOSÉ garcía\n", "teams line 2: José García is already in A"),
    ):
        r = put_teams(hub, td, lines)
        assert r.status_code == 422 and r.json()["detail"] == says, r.text
    assert teams(hub) == {"Isles": ["Ann Lee"]}


def test_without_a_roster_a_teams_csv_is_taken_as_it_is(hub, td):
    assert put_teams(hub, td, "Reds,Jon Smith\n").status_code == 200
    assert teams(hub) == {"Reds": ["Jon Smith"]}
