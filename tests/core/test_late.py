"""Which phase a press belongs to, and who is late right now."""

from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN
from dipclock.late import LATE_WINDOW, Press, board, missed, submissions
from dipclock.schedule import Schedule
from dipclock.timeline import timetable

D = datetime.fromisoformat
PROFILE = BUILTIN["graduated20"]
PHASES = timetable(PROFILE, Schedule(start=D("2010-01-01T19:00"), last_year=1902)).phases
S1901 = PHASES[0].deadline  # 19:20


def test_press_before_the_deadline_is_on_time():
    [sub] = submissions(PHASES, [Press("A", S1901 - timedelta(seconds=5))])
    assert sub.phase.code == "S1901" and sub.seconds_late == -5 and not sub.late


def test_press_after_the_deadline_is_late_for_the_phase_just_ended():
    [sub] = submissions(PHASES, [Press("I", S1901 + timedelta(seconds=17))])
    assert (sub.phase.code, sub.seconds_late, sub.offence) == ("S1901", 17, 1)


def test_a_second_press_counts_for_the_running_phase_and_repeats_are_dropped():
    presses = [
        Press("E", S1901 - timedelta(seconds=60)),
        Press("E", S1901 - timedelta(seconds=50)),  # a double press: dropped
        Press("E", S1901 + timedelta(seconds=3)),  # already in for S1901: early for F1901
    ]
    subs = submissions(PHASES, presses)
    assert [(s.phase.code, s.late) for s in subs] == [("S1901", False), ("F1901", False)]


def test_after_the_window_a_press_is_for_the_next_phase_and_the_last_is_missed():
    late = S1901 + LATE_WINDOW + timedelta(seconds=1)
    [sub] = submissions(PHASES, [Press("T", late)])
    assert sub.phase.code == "F1901"
    gone = missed(PHASES, late, [Press("T", late)], out={"A"})
    assert ("T", PHASES[0].ref) in gone and ("A", PHASES[0].ref) not in gone
    assert len([m for m in gone if m[1] == PHASES[0].ref]) == 6


def test_offences_count_per_power_through_the_game():
    presses = [Press("R", S1901 + timedelta(seconds=2)),
               Press("R", PHASES[1].deadline + timedelta(seconds=40))]
    subs = submissions(PHASES, presses)
    assert [s.offence for s in subs] == [1, 2]


def test_board_counts_lateness_up_live_with_the_penalty_heading_for():
    now = S1901 + timedelta(seconds=17)
    presses = [Press(p, S1901 - timedelta(seconds=30)) for p in "AEFGR"]
    presses.append(Press("T", S1901 + timedelta(seconds=4)))
    status = board(PHASES, now, presses, PROFILE.penalty, out={"G"})
    italy = status["I"]
    assert italy.late_seconds == 17 and italy.heading_for.label == "2-unit NMR"
    assert status["T"].late_seconds is None and status["T"].last_late.seconds_late == 4
    assert status["A"].late_seconds is None and not status["A"].in_now
    assert status["G"].out and status["G"].late_seconds is None
    later = board(PHASES, S1901 + LATE_WINDOW + timedelta(seconds=1), presses, PROFILE.penalty)
    assert later["I"].late_seconds is None


def test_a_hold_toggles_a_power_out_and_back():
    from dipclock.late import out_of_game

    t, start = S1901, PHASES[0].opens
    holds = [Press("I", t, "hold"), Press("T", t + timedelta(seconds=5), "hold"),
             Press("I", t + LATE_WINDOW, "hold"), Press("A", t, "press")]
    assert out_of_game(holds, start, now=t + timedelta(seconds=10)) == {"I", "T"}
    assert out_of_game(holds, start, now=t + LATE_WINDOW) == {"T"}
    assert out_of_game(holds, start, base={"A"}, now=t - timedelta(seconds=1)) == {"A"}
    assert out_of_game(holds, start) == {"T"}  # no horizon: every recorded hold counts


def test_a_press_before_the_round_starts_counts_for_nothing():
    before = PHASES[0].opens - timedelta(minutes=1)
    assert submissions(PHASES, [Press("A", before), Press("A", PHASES[0].opens)]) == [
        submissions(PHASES, [Press("A", PHASES[0].opens)])[0]
    ]
    assert submissions(PHASES, [Press("A", before - timedelta(days=1))]) == []


def test_holds_before_the_round_start_are_ignored():
    from dipclock.late import out_of_game

    start = PHASES[0].opens
    holds = [Press("I", start - timedelta(days=60), "hold"),
             Press("A", start + timedelta(minutes=1), "hold")]
    assert out_of_game(holds, start, now=start + timedelta(minutes=2)) == {"A"}
    assert out_of_game(holds, start - timedelta(days=61)) == {"A", "I"}


def test_a_double_tap_across_the_deadline_is_one_submission():
    presses = [Press("E", S1901 - timedelta(seconds=1)), Press("E", S1901 + timedelta(seconds=2))]
    subs = submissions(PHASES, presses)
    assert [(s.phase.code, s.late) for s in subs] == [("S1901", False)]
    later = board(PHASES, PHASES[1].deadline + timedelta(seconds=5), presses, PROFILE.penalty)
    assert later["E"].late_seconds == 5  # still owes Fall 1901's orders


def test_why_a_press_counted_for_nothing():
    from dipclock.late import drop_reason

    def why(at: datetime, earlier: tuple[datetime, ...] = ()) -> str:
        presses = [Press("E", e) for e in earlier] + [Press("E", at)]
        assert all(s.at != at for s in submissions(PHASES, presses))  # really dropped
        return drop_reason(PHASES, at)

    assert why(PHASES[0].opens - timedelta(seconds=1)) == "not_started"
    mid = PHASES[0].deadline - timedelta(minutes=5)
    assert why(mid, (mid - timedelta(minutes=1),)) == "already_in"
    assert why(mid, (mid - timedelta(seconds=3),)) == "already_in"  # a double tap
    last = PHASES[-1].deadline
    assert why(last + LATE_WINDOW + timedelta(seconds=1)) == "game_over"
    # in the last deadline's late window, but already in for it: nothing left to count for
    assert why(last + timedelta(seconds=40), (last - timedelta(minutes=1),)) == "game_over"


def test_missed_phases_to_judge_skip_idle_kiosks_and_powers_out():
    from dipclock.late import missed_to_judge
    from dipclock.penalties import penalty

    start, s1, f1 = PHASES[0].opens, PHASES[0].deadline, PHASES[1].deadline
    presses = [Press(p, s1 - timedelta(minutes=1)) for p in "AEFGT"]
    presses += [Press("I", start + timedelta(minutes=2), "hold"),  # Italy out of the game
                Press("R", s1 + timedelta(seconds=30)),  # Russia late for Spring: offence 1
                Press("A", f1 - timedelta(minutes=1))]  # Fall's buttons in use
    now = PHASES[-1].deadline + LATE_WINDOW * 3
    got = [(m.power, m.phase.code, m.offence)
           for m in missed_to_judge(PHASES, now, presses, PROFILE.penalty, start)]
    # no Spring line (all in but Italy, out); no 1902 lines: no button was used then
    assert got == [("E", "F1901", 1), ("F", "F1901", 1), ("G", "F1901", 1),
                   ("R", "F1901", 2), ("T", "F1901", 1)]
    [first, *_] = missed_to_judge(PHASES, now, presses, PROFILE.penalty, start)
    assert first.proposed == penalty(PROFILE.penalty, LATE_WINDOW.total_seconds() + 1, 1)
    assert first.deadline == f1


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("AEFGIRT"), st.integers(0, 100 * 60)), max_size=20),
       st.integers(0, 110 * 60), st.integers(0, 110 * 60))
def test_a_judgment_stands_until_the_moment_judged_until_names(pressed, at, later):
    """The hub keeps a table's judged phases until ``judged_until``: the answer may not
    change before then, and must change only when a window has closed since."""
    from dipclock.late import judged_until, missed_to_judge

    start = PHASES[0].opens
    presses = [Press(p, start + timedelta(seconds=s)) for p, s in pressed]
    now = start + timedelta(seconds=at)
    until = judged_until(PHASES, now)
    before = missed_to_judge(PHASES, now, presses, PROFILE.penalty, start)
    then = now + timedelta(seconds=later)
    if until is None or then <= until:
        assert missed_to_judge(PHASES, then, presses, PROFILE.penalty, start) == before
    if until is None:
        assert all(p.deadline + LATE_WINDOW < now for p in PHASES)
    else:
        assert any(p.deadline + LATE_WINDOW == until for p in PHASES) and until >= now
