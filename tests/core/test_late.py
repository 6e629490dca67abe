"""Which phase a press belongs to, and who is late right now."""

from datetime import datetime, timedelta

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dipclock.events import BUILTIN
from dipclock.late import FIRST_SECOND, LATE_WINDOW, Press, board, missed, submissions
from dipclock.penalties import penalty, started_seconds
from dipclock.schedule import Adjustment, Pause, Schedule
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


def test_offences_are_each_power_s_own_not_the_board_s():
    """Three powers late once each: each is a first offence (a board's count would make the
    third a third offence, and a red card for a yellow)."""
    presses = [Press(p, S1901 + timedelta(seconds=k)) for k, p in enumerate("AEF", 2)]
    assert [(s.power, s.offence) for s in submissions(PHASES, presses)] == [
        ("A", 1), ("E", 1), ("F", 1)]


def test_the_live_penalty_counts_the_power_s_earlier_late_orders():
    """Russia was late in Spring; late again after the Fall deadline, the penalty it is
    heading for is a second offence's, live as on the screen."""
    fall = PHASES[1].deadline
    presses = [Press("R", S1901 + timedelta(seconds=2)),
               *(Press(p, fall - timedelta(seconds=30)) for p in "AEFGIT")]
    now = fall + timedelta(seconds=17)
    russia = board(PHASES, now, presses, PROFILE.penalty)["R"]
    assert russia.late_seconds == 17
    assert russia.heading_for == penalty(PROFILE.penalty, 17, 2)
    assert russia.heading_for != penalty(PROFILE.penalty, 17, 1)  # the rule tells them apart


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


def test_a_hold_belongs_to_one_chord_at_most():
    """On a board clock, Austria and England hold together (the board's ready signal), and
    France holds a second later: England's hold is in the chord already, so France's is a
    hold of its own, and France goes out."""
    from dipclock.late import CHORD, chords, out_of_game

    t, start = S1901, PHASES[0].opens
    a, e = Press("A", t, "hold"), Press("E", t + CHORD / 2, "hold")
    f = Press("F", t + CHORD, "hold")  # within CHORD of England's, not of Austria's
    assert chords([a, e, f]) == [(a, e)]
    assert out_of_game([a, e, f], start, board=True) == {"F"}


def test_powers_out_follow_the_event_s_clock_in_table_order():
    """What the hub sends a table and its kiosk shows: on a central clock two holds together
    are two powers out, listed in table order; on board clocks they are the ready signal."""
    from dipclock.late import CHORD, powers_out

    t, start = S1901, PHASES[0].opens
    holds = [Press("T", t, "hold"), Press("A", t + CHORD / 2, "hold")]
    assert powers_out(PROFILE, holds, start) == ("A", "T")
    board = PROFILE.model_copy(update={"central_clock": False})
    assert powers_out(board, holds, start) == ()
    assert powers_out(board, holds[1:], start, seen=holds[:1], base={"T"}) == ()


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


# --- a paused hall stops every count the clock drives: late counts and windows too ---------

LUNCH_AT = S1901 + timedelta(seconds=40)  # the TD pauses the hall while Italy is 40 s late
LUNCH = Schedule(start=PHASES[0].opens, last_year=1902,
                 pauses=(Pause(at=LUNCH_AT, minutes=60, reason="Lunch"),))


def clock_of(schedule: Schedule, table: int | None = None):
    from dipclock.timeline import table_clock

    return table_clock(PROFILE, schedule, table)


def test_a_pause_after_the_deadline_freezes_the_late_count_and_holds_the_window_open():
    from dipclock.late import judged_until

    built = clock_of(LUNCH)
    s1, stops = built.phases[0].deadline, built.stops
    assert s1 == S1901 and stops == ((LUNCH_AT, LUNCH_AT + timedelta(minutes=60)),)
    in_lunch = board(built.phases, LUNCH_AT + timedelta(minutes=30), [], PROFILE.penalty,
                     stops=stops)
    assert in_lunch["I"].late_seconds == 40 and in_lunch["I"].paused
    assert in_lunch["I"].heading_for.label == "3-unit NMR"  # 31-45 s, not "full NMR"
    wall = board(built.phases, LUNCH_AT + timedelta(minutes=30), [], PROFILE.penalty)
    assert wall["I"].late_seconds is None  # without the stops: the window shut in lunch
    after = board(built.phases, LUNCH_AT + timedelta(minutes=60, seconds=5), [],
                  PROFILE.penalty, stops=stops)
    assert after["I"].late_seconds == 45 and not after["I"].paused  # counting again
    closes = s1 + LATE_WINDOW + timedelta(minutes=60)  # five running minutes
    assert judged_until(built.phases, s1, stops=stops) == closes
    assert missed(built.phases, closes, [], stops=stops) == []
    gone = missed(built.phases, closes + timedelta(seconds=1), [], stops=stops)
    assert ("I", PHASES[0].ref) in gone
    last = board(built.phases, closes, [], PROFILE.penalty, stops=stops)
    assert last["I"].late_seconds == LATE_WINDOW.total_seconds()


def test_a_press_during_the_pause_is_late_by_the_running_seconds_before_it():
    built = clock_of(LUNCH)
    in_lunch = LUNCH_AT + timedelta(minutes=25)
    [sub] = submissions(built.phases, [Press("I", in_lunch)], stops=built.stops)
    assert (sub.phase.code, sub.seconds_late, sub.offence) == ("S1901", 40, 1)
    after = LUNCH_AT + timedelta(minutes=62)
    [sub] = submissions(built.phases, [Press("I", after)], stops=built.stops)
    assert (sub.phase.code, sub.seconds_late) == ("S1901", 160)  # 40 s + 2 min after lunch
    status = board(built.phases, after + timedelta(seconds=1), [Press("I", in_lunch)],
                   PROFILE.penalty, stops=built.stops)
    assert status["I"].late_seconds is None and status["I"].last_late.seconds_late == 40


def test_a_break_at_the_deadline_holds_the_late_count_at_its_first_second():
    """wdc2003: "meal breaks will take place after submission": orders not in when the
    break starts at their deadline are late, in their first second, however long lunch
    is; the count runs on when the clock restarts."""
    schedule = Schedule(start=PHASES[0].opens, last_year=1902, pauses=(
        Pause(at_deadline=PHASES[0].ref, minutes=45, reason="Meal break"),))
    built = clock_of(schedule)
    s1 = built.phases[0].deadline
    assert s1 == S1901
    status = board(built.phases, s1 + timedelta(minutes=30), [], PROFILE.penalty,
                   stops=built.stops)
    assert started_seconds(status["I"].late_seconds or 0) == 1 and status["I"].paused
    status = board(built.phases, s1 + timedelta(minutes=45, seconds=12), [], PROFILE.penalty,
                   stops=built.stops)
    assert status["I"].late_seconds == 12 and not status["I"].paused
    [sub] = submissions(built.phases, [Press("I", s1 + timedelta(minutes=49))],
                        stops=built.stops)
    assert (sub.phase.code, sub.seconds_late) == ("S1901", 240)
    [lunch] = submissions(built.phases, [Press("I", s1 + timedelta(minutes=20))],
                          stops=built.stops)
    assert lunch.late and started_seconds(lunch.seconds_late) == 1
    [due] = submissions(built.phases, [Press("I", s1)], stops=built.stops)
    assert not due.late  # at the deadline itself: in time


def test_a_hold_stops_the_late_count_of_its_own_table_only():
    held = Schedule(start=PHASES[0].opens, last_year=1902,
                    pauses=(Pause(at=LUNCH_AT, minutes=10, table=3, reason="ruling"),))
    mine, other = clock_of(held, 3), clock_of(held, 5)
    assert other.stops == () and mine.stops
    at = LUNCH_AT + timedelta(minutes=8)
    assert board(mine.phases, at, [], PROFILE.penalty, stops=mine.stops)["I"].late_seconds == 40
    assert board(other.phases, at, [], PROFILE.penalty, stops=other.stops)["I"].late_seconds \
        is None  # table 5 played on: its window shut at 5 minutes
    pressed = [Press("I", at)]
    assert submissions(mine.phases, pressed, stops=mine.stops)[0].phase.code == "S1901"
    assert submissions(other.phases, pressed, stops=other.stops)[0].phase.code == "F1901"


def test_a_pause_starting_as_the_window_closes_keeps_it_open_through_the_pause():
    from dipclock.late import judged_until, missed_to_judge

    close = S1901 + LATE_WINDOW
    schedule = Schedule(start=PHASES[0].opens, last_year=1902,
                        pauses=(Pause(at=close, minutes=20),))
    built = clock_of(schedule)
    [sub] = submissions(built.phases, [Press("I", close + timedelta(minutes=10))],
                        stops=built.stops)
    assert (sub.phase.code, sub.seconds_late) == ("S1901", 300)
    end = close + timedelta(minutes=20)
    assert judged_until(built.phases, close, stops=built.stops) == end
    presses = [Press(p, S1901 - timedelta(seconds=9)) for p in "AEFGRT"]
    judged = [(m.power, m.phase.code) for m in missed_to_judge(
        built.phases, end, presses, PROFILE.penalty, PHASES[0].opens, stops=built.stops)]
    assert judged == []
    judged = [(m.power, m.phase.code) for m in missed_to_judge(
        built.phases, end + timedelta(seconds=1), presses, PROFILE.penalty, PHASES[0].opens,
        stops=built.stops)]
    assert judged == [("I", "S1901")]


def test_an_open_ended_pause_keeps_the_window_open_until_the_td_resumes():
    from dipclock.gameclock import NEVER
    from dipclock.late import judged_until

    built = clock_of(Schedule(start=PHASES[0].opens, last_year=1902,
                              pauses=(Pause(at=LUNCH_AT),)))
    assert built.stops == ((LUNCH_AT, NEVER),)
    days = LUNCH_AT + timedelta(days=2)
    assert missed(built.phases, days, [], stops=built.stops) == []
    assert board(built.phases, days, [], PROFILE.penalty, stops=built.stops)["I"].late_seconds \
        == 40
    assert judged_until(built.phases, days, stops=built.stops) == NEVER


def test_extra_time_after_a_deadline_changes_no_lateness():
    schedule = Schedule(start=PHASES[0].opens, last_year=1902, adjustments=(
        Adjustment(at=S1901 + timedelta(seconds=10), seconds=120),))
    built = clock_of(schedule)
    assert built.stops == ()
    at = S1901 + timedelta(seconds=50)
    [sub] = submissions(built.phases, [Press("I", at)], stops=built.stops)
    assert sub.seconds_late == 50
    assert board(built.phases, at, [], PROFILE.penalty, stops=built.stops)["A"].late_seconds \
        == 50


def test_a_board_clock_s_own_stop_at_a_deadline_is_no_pause_for_late_orders():
    from dipclock.timeline import table_clock

    club = PROFILE.model_copy(update={"central_clock": False})
    schedule = Schedule(start=PHASES[0].opens, last_year=1902)
    built = table_clock(club, schedule, 3)
    assert built.breaks and all(b.board for b in built.breaks) and built.stops == ()
    at = S1901 + timedelta(seconds=70)  # the board adjudicates, its clock stopped
    assert board(built.phases, at, [], club.penalty, stops=built.stops)["I"].late_seconds == 70
    # a TD's pause on a board clock does stop the count
    paused = schedule.model_copy(update={"pauses": (Pause(at=LUNCH_AT, minutes=30),)})
    built = table_clock(club, paused, 3)
    assert built.stops == ((LUNCH_AT, LUNCH_AT + timedelta(minutes=30)),)
    status = board(built.phases, LUNCH_AT + timedelta(minutes=20), [], club.penalty,
                   stops=built.stops)
    assert status["I"].late_seconds == 40 and status["I"].paused


_pauses = st.lists(st.tuples(st.integers(0, 70 * 60), st.integers(1, 90), st.booleans(),
                             st.booleans()), max_size=3)


@settings(max_examples=150, deadline=None)
@given(_pauses, st.integers(0, 2), st.integers(0, 15 * 60), st.sampled_from(sorted(BUILTIN)))
def test_lateness_is_what_the_game_clock_ran_since_the_deadline(pauses, k, after, event):
    """With no adjustment the game clock runs exactly when late counts run (central clock),
    so a late press's lateness is the game time since the deadline's mark, and a press is
    for the phase just ended exactly while that is at most five minutes."""
    from dipclock.timeline import table_clock

    profile = BUILTIN[event].model_copy(update={"central_clock": True})
    start = PHASES[0].opens
    made = tuple(
        Pause(at=start + timedelta(seconds=s), minutes=m, table=3 if mine else None)
        if not at_deadline else
        Pause(at_deadline=PHASES[s % 3].ref, minutes=m, table=3 if mine else None)
        for s, m, mine, at_deadline in pauses)
    built = table_clock(profile, Schedule(start=start, last_year=1902, pauses=made), 3)
    assume(len(built.phases) > k + 1)
    moment = built.phases[k].deadline + timedelta(seconds=after)
    prev = next(p for p in reversed(built.phases) if p.deadline <= moment)
    assume(prev is not built.phases[-1])
    mark = next(m.seconds for m in built.marks if m.ref == prev.ref)
    ran = built.clock.game(moment) - mark
    [sub] = submissions(built.phases, [Press("I", moment)], stops=built.stops)
    status = board(built.phases, moment, [], profile.penalty, stops=built.stops)
    if ran <= LATE_WINDOW.total_seconds():
        # after the deadline, late by the game time run, at least the first second
        late = ran if ran > 0 or moment == prev.deadline else FIRST_SECOND
        assert sub.phase == prev.ref and abs(sub.seconds_late - late) < 1e-6
        assert abs(status["I"].late_seconds - late) < 1e-6
        assert status["I"].paused == built.clock.paused_at(moment)
    else:
        assert sub.phase != prev.ref and status["I"].late_seconds is None
