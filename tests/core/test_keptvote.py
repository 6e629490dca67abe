"""The tables' vote on a restarted hub's time (``dipclock.keptvote``): a quorum moves it,
by a bounded amount; one clock or a minority never does, whatever round trip it claims."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.keptvote import KEPT_AWAY, kept_time_change, quorum
from dipclock.sync import KEPT_LIMIT

NOW = 1_714_815_000.0  # the restarted hub's (wrong) time
SEEN = NOW - 3600.0 - 120.0  # its last record: two minutes before the cut, an hour back


def votes(*pairs: tuple[float, float]) -> dict[int, tuple[float, float]]:
    return {table: vote for table, vote in enumerate(pairs, start=1)}


@pytest.mark.parametrize(("paired", "needed"), [(1, 2), (2, 2), (3, 2), (4, 3), (7, 4),
                                                (60, 31)])
def test_a_move_needs_more_than_half_the_paired_tables_and_never_one(paired, needed):
    assert quorum(paired) == needed


@pytest.mark.parametrize(("given_votes", "change"), [
    ({}, None),
    (votes((0.1, 0.01), (-0.2, 0.01), (KEPT_LIMIT, 0.01)), None),  # within a sample's error
    (votes((3600.0, 0.01), (3600.2, 0.01), (3599.9, 0.01)), -3600.0),
    (votes((3600.0, 0.01), (0.0, 0.01), (0.1, 0.01)), None),  # one table against two
    (votes((3600.0, 0.0), (0.0, 0.01), (0.01, 0.01), (-0.01, 0.01)), None),  # rtt 0: no sway
    (votes((3600.01, 0.06), (3599.99, 0.01), (3600.0, 0.02), (0.1, 0.0)), -3600.0),
])
def test_the_change_is_the_median_of_the_tables_that_agree(given_votes, change):
    got = kept_time_change(given_votes, paired=5, now=NOW, last_seen=SEEN).change
    assert got == (pytest.approx(change) if change is not None else None)


def test_one_table_alone_never_moves_the_hall_even_in_a_hall_of_one():
    verdict = kept_time_change({7: (3600.0, 0.0)}, paired=1, now=NOW, last_seen=SEEN)
    assert verdict.change is None and verdict.agreeing == (7,) and verdict.needed == 2
    assert verdict.text == ("hub time kept: 1 of the 1 paired tables kept a time 3600.0 s "
                            "behind the hub's, and moving it needs 2 (table 7 +3600.00 s)")


def test_a_minority_that_agrees_does_not_move_a_hall_whose_others_are_silent():
    verdict = kept_time_change(votes((3600.0, 0.01), (3600.0, 0.01), (3600.0, 0.01)),
                               paired=7, now=NOW, last_seen=SEEN)
    assert verdict.change is None and verdict.needed == 4
    assert "3 of the 7 paired tables" in verdict.text


@pytest.mark.parametrize(("kept", "why"), [
    (SEEN - 60.0, "before the hub's last record"),
    (SEEN + KEPT_AWAY + 60.0, "more than 18 h after the hub's last record"),
])
def test_a_time_the_hubs_own_record_rules_out_does_not_move_it(kept, why):
    difference = NOW - kept
    verdict = kept_time_change(votes(*[(difference, 0.01)] * 5), paired=5, now=NOW,
                               last_seen=SEEN)
    assert verdict.change is None and why in verdict.text


def test_a_hub_that_recorded_nothing_keeps_its_time():
    verdict = kept_time_change(votes(*[(3600.0, 0.01)] * 5), paired=5, now=NOW,
                               last_seen=None)
    assert verdict.change is None and "no record" in verdict.text


def test_the_verdict_names_every_tables_vote():
    verdict = kept_time_change({2: (3600.02, 0.01), 1: (3599.98, 0.01), 9: (0.1, 0.0)},
                               paired=3, now=NOW, last_seen=SEEN)
    assert verdict.change == pytest.approx(-3600.0) and verdict.agreeing == (1, 2)
    assert verdict.text == "table 1 +3599.98 s, table 2 +3600.02 s, table 9 +0.10 s"


honest = st.floats(-0.05, 0.05)
claims = st.floats(-1e9, 1e9, allow_nan=False)
round_trips = st.floats(0.0, 1.0)


@settings(max_examples=200, deadline=None)  # no wall-clock margin: a loaded machine
@given(st.integers(3, 60), st.data())
def test_a_minority_never_moves_the_hall_whatever_it_claims(paired, data):
    """However many honest tables vote (even none), the liars short of a quorum, with any
    difference and any round trip, never move the hub's time."""
    liars = data.draw(st.integers(1, quorum(paired) - 1))
    honest_voters = data.draw(st.integers(0, paired - liars))
    cast = {t: (data.draw(claims), data.draw(round_trips)) for t in range(1, liars + 1)}
    cast |= {t: (data.draw(honest), data.draw(round_trips))
             for t in range(liars + 1, liars + honest_voters + 1)}
    assert kept_time_change(cast, paired, NOW, SEEN).change is None


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 60), st.data())
def test_a_move_is_always_bounded_by_the_hubs_record(paired, data):
    cast = {t: (data.draw(claims), data.draw(round_trips)) for t in range(1, paired + 1)}
    change = kept_time_change(cast, paired, NOW, SEEN).change
    if change is not None:
        assert SEEN - 0.25 <= NOW + change <= SEEN + KEPT_AWAY
