"""A round seated again (a player left, the TD redrafts or moves two players) is judged
against the rounds before it only: its own seating as called is not its past, or every pair
at a kept table would count as "met before" and the draft would avoid the very seating the
TD is correcting (issue 34, item 13: ``earlier`` with ``<=``)."""

from __future__ import annotations

from tests.server.test_seating_desk import PLAYERS, call, check, draft

SEVEN = PLAYERS[:7]
NONE_REPEATED = {"pairs_met_before": 0, "powers_repeated": 0, "apart_together": 0}


def _round_one_called(hub, td) -> list[dict]:
    """Round 1 drafted for seven players (one table: every pair meets) and called."""
    first = draft(hub, {"round": 1, "players": SEVEN, "seed": 1}).json()
    assert len(first["tables"]) == 1 and first["quality"] == NONE_REPEATED
    assert call(hub, td, {"round": 1, "tables": first["tables"]}).status_code == 200
    return first["tables"]


def test_a_called_round_checked_again_is_not_its_own_past(hub, td):
    tables = _round_one_called(hub, td)
    judged = check(hub, {"round": 1, "tables": tables})
    assert judged.status_code == 200, judged.text
    assert judged.json()["quality"] == NONE_REPEATED
    r = call(hub, td, {"round": 1, "tables": tables})
    assert r.status_code == 200, r.text
    assert r.json()["summary"].endswith("; 0 pairs met before, 0 powers repeated")


def test_a_called_round_drafted_again_is_not_its_own_past(hub, td):
    _round_one_called(hub, td)
    again = draft(hub, {"round": 1, "players": SEVEN, "seed": 2})
    assert again.status_code == 200, again.text
    assert again.json()["quality"] == NONE_REPEATED


def test_round_two_still_counts_round_one(hub, td):
    """The control: the round before is the past, so the same seven meet again in round 2."""
    tables = _round_one_called(hub, td)
    judged = check(hub, {"round": 2, "tables": tables}).json()
    assert judged["quality"] == {"pairs_met_before": 21, "powers_repeated": 7,
                                 "apart_together": 0}
    drafted = draft(hub, {"round": 2, "players": SEVEN, "seed": 2}).json()
    assert drafted["quality"]["pairs_met_before"] == 21
