"""A button going down many times in a second is one press (``dipclock.debounce``), for the
hub that merges the bounces and for every reader of presses, so a kiosk still holding a
bounce the hub merged shows what the hub shows."""

from datetime import datetime, timedelta

from dipclock.debounce import DEBOUNCE, debounced
from dipclock.events import BUILTIN
from dipclock.late import Press, out_of_game, submissions
from dipclock.schedule import Schedule
from dipclock.timeline import timetable

T = datetime(2024, 5, 4, 9, 48)
PHASES = timetable(BUILTIN["wdc2006"], Schedule(start=datetime(2024, 5, 4, 9, 30))).phases


def test_a_chattering_button_keeps_one_press_a_second_from_the_last_kept():
    chatter = [Press("A", T + timedelta(milliseconds=5 * k)) for k in range(600)]  # 3 s
    kept = debounced(chatter)
    assert [(p.at - T).total_seconds() for p in kept] == [0.0, 1.0, 2.0]


def test_only_the_same_power_and_kind_within_the_window_merge():
    a = Press("A", T)
    presses = [
        a,
        Press("A", T),  # the same stamp: the first given is kept
        Press("E", T + timedelta(milliseconds=10)),  # another power
        Press("A", T + timedelta(milliseconds=20), "hold"),  # another kind
        Press("A", T + DEBOUNCE),  # a second on: a press of its own
    ]
    assert debounced(presses) == [a, *presses[2:]]


def test_a_kiosk_holding_a_bounce_the_hub_merged_judges_as_the_hub():
    """The hub stored A's press and merged its bounce; the kiosk keeps both in its outbox.
    A press 30.2 s after the first is then no double tap for either (measured from a
    bounce, it would be one on the kiosk alone: the screen and the review would differ)."""
    first = Press("A", PHASES[0].deadline - timedelta(seconds=10))
    bounce = Press("A", first.at + timedelta(milliseconds=400))
    third = Press("A", first.at + timedelta(seconds=30.2))
    hub = submissions(PHASES, [first, third])
    assert submissions(PHASES, [first, bounce, third]) == hub
    assert [s.phase.code for s in hub] == ["S1901", "F1901"]


def test_a_bounced_hold_toggles_nothing_on_the_hub_or_the_kiosk():
    since = datetime(2024, 5, 4, 9, 30)
    hold = Press("I", T, "hold")
    bounce = Press("I", T + timedelta(milliseconds=300), "hold")
    assert out_of_game([hold, bounce], since) == {"I"}
    # the kiosk: the hub's list (the hold counted there) and its own bounce, unsent or merged
    assert out_of_game([bounce], since, base={"I"}, seen=[hold]) == {"I"}
    back = Press("I", T + timedelta(seconds=5), "hold")  # a real second hold: back in
    assert out_of_game([hold, bounce, back], since) == set()
