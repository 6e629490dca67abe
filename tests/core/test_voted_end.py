"""A board whose game a vote ended (issue 37): its clock says so and counts no more
deadlines; the rest of the hall plays on. Time is a parameter: each test jumps to its
instant."""

from datetime import datetime, timedelta

from dipclock.events import BUILTIN
from dipclock.phaseview import view
from dipclock.schedule import Schedule, VotedEnd
from dipclock.screen import build
from dipclock.timeline import table_clock

START = datetime(2026, 11, 28, 10, 0)
HEADLINE = "Draw agreed, Fall 1905: the 1904 centre chart counts"
WDC2006 = BUILTIN["wdc2006"]  # Spring 17, Fall 15 minutes, central clock


def schedule(at: datetime) -> Schedule:
    return Schedule(start=START, ends=(VotedEnd(at=at, table=2, headline=HEADLINE),))


def test_the_table_whose_vote_passed_is_over_with_the_vote_s_words():
    voted = START + timedelta(minutes=150)  # 12:30: Fall 1905 runs (Spring 1905 ended 12:25)
    s = schedule(voted)
    after = view(WDC2006, s, voted + timedelta(seconds=1), 2)
    assert after.stage == "game_over" and after.game_over_reason == "voted"
    assert after.voted == HEADLINE
    screen = build(WDC2006, s, voted + timedelta(seconds=1), table=2)
    assert screen.label == HEADLINE and screen.big == "Game over" and screen.notes == ()
    before = view(WDC2006, s, voted - timedelta(seconds=1), 2)
    assert before.stage == "negotiating" and before.phase is not None
    assert before.phase.code == "F1905" and before.deadline is not None
    other = view(WDC2006, s, voted + timedelta(minutes=30), 1)
    assert other.stage != "game_over"  # the hall plays on


def test_no_deadline_after_the_vote_is_due_so_nobody_is_late_for_it():
    voted = START + timedelta(minutes=150)
    built = table_clock(WDC2006, schedule(voted), 2)
    assert built.phases[-1].ref.code == "S1905"
    assert all(p.deadline <= voted for p in built.phases)
    table = built.timetable()
    assert table.ends == "voted" and table.ends_at == voted and table.scoring_phase is None
    assert table_clock(WDC2006, schedule(voted), 1).timetable().ends == "last_year"
    at = voted + timedelta(minutes=11)  # Fall 1905's deadline (12:40) has passed
    over = build(WDC2006, schedule(voted), at, table=2)
    playing = build(WDC2006, schedule(voted), at, table=1)
    assert any(p.late_seconds for p in playing.powers.values())  # nobody pressed at table 1
    assert not any(p.late_seconds for p in over.powers.values())
