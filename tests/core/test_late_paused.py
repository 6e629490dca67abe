"""A late submission says how long the table's clock stood still after its deadline, so a
reader of the penalties CSV can check its lateness by hand (issue 34, item 6)."""

from datetime import timedelta

from dipclock.late import FIRST_SECOND, Press, submissions
from dipclock.schedule import Pause, Schedule
from dipclock.timeline import table_clock
from tests.core.test_late import PHASES, PROFILE, S1901


def built(*pauses: Pause):
    return table_clock(PROFILE, Schedule(start=PHASES[0].opens, last_year=1902,
                                         pauses=pauses))


def test_a_late_press_over_a_pause_names_the_seconds_the_clock_stood_still():
    """Deadline 19:20:00, a 2-minute lunch from 19:20:30, pressed 19:23:20: 200 wall
    seconds, 120 of them paused, 80 late; the wall time less the pause is the lateness."""
    clock = built(Pause(at=S1901 + timedelta(seconds=30), minutes=2, reason="Lunch"))
    pressed = S1901 + timedelta(minutes=3, seconds=20)
    [sub] = submissions(clock.phases, [Press("I", pressed)], stops=clock.stops)
    assert (sub.seconds_late, sub.paused_seconds) == (80, 120)
    assert (pressed - S1901).total_seconds() - sub.paused_seconds == sub.seconds_late


def test_no_pause_or_an_on_time_press_stood_still_for_nothing():
    [late] = submissions(PHASES, [Press("I", S1901 + timedelta(seconds=17))])
    assert (late.seconds_late, late.paused_seconds) == (17, 0)
    clock = built(Pause(at=S1901 - timedelta(minutes=5), minutes=2, reason="Lunch"))
    [early] = submissions(clock.phases, [Press("I", clock.phases[0].deadline
                                                  - timedelta(seconds=5))], stops=clock.stops)
    assert not early.late and early.paused_seconds == 0


def test_a_press_inside_a_break_at_the_deadline_stood_still_for_all_of_it():
    """A break from the deadline: every wall second since was paused; the lateness is the
    first started second, as the rule says."""
    clock = built(Pause(at_deadline=PHASES[0].ref, minutes=45, reason="Meal break"))
    [sub] = submissions(clock.phases, [Press("I", S1901 + timedelta(minutes=20))],
                        stops=clock.stops)
    assert (sub.seconds_late, sub.paused_seconds) == (FIRST_SECOND, 20 * 60)
