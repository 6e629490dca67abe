"""Every penalty band's edges, for the five events (EVENTS.md and the rule texts)."""

import pytest

from dipclock.events import BUILTIN
from dipclock.penalties import penalty, started_seconds


def pen(event, late, offence=1, units=None):
    return penalty(BUILTIN[event].penalty, late, offence, units)


@pytest.mark.parametrize(
    "late, started", [(-3, 0), (0, 0), (0.001, 1), (1, 1), (15, 15), (15.2, 16), (90.0, 90)]
)
def test_a_started_second_counts(late, started):
    assert started_seconds(late) == started


@pytest.mark.parametrize(
    "late, units",
    [
        (0.5, 1), (1, 1), (15, 1),
        (15.2, 2), (16, 2), (30, 2),
        (30.01, 3), (45, 3),
        (46, 4), (60, 4),
        (61, 6), (75, 6),
        (76, 10), (90, 10),
    ],
)
def test_graduated20_bands(late, units):
    p = pen("graduated20", late)
    assert (p.kind, p.units_deleted, p.all_units_hold) == ("unit_nmr", units, False)
    assert p.label == f"{units}-unit NMR"


@pytest.mark.parametrize("late", [90.001, 91, 600])
def test_graduated20_past_90_seconds_is_a_full_nmr(late):
    p = pen("graduated20", late)
    assert (p.kind, p.all_units_hold) == ("nmr", True)


def test_graduated20_deletes_the_alphabetically_earliest_provinces():
    p = pen("graduated20", 20, units=["Vie", "bud", "Tri", "Gal"])
    assert p.deleted_orders == ("Bud", "Gal")  # written back in the usual short form
    assert pen("graduated20", 95, units=["Vie", "Bud"]).deleted_orders == ("Bud", "Vie")
    assert pen("graduated20", 5, units=[]).deleted_orders == ()


@pytest.mark.parametrize("late", [0, -10])
@pytest.mark.parametrize("event", sorted(BUILTIN))
def test_on_time_is_no_penalty_in_every_event(event, late):
    p = pen(event, late, offence=3)
    assert (p.kind, p.all_units_hold, p.units_deleted) == ("none", False, 0)


@pytest.mark.parametrize(
    "late, offence, kind, hold",
    [
        (0.1, 1, "yellow_card", False),
        (30, 1, "yellow_card", False),
        (30.1, 1, "red_card", True),
        (5, 2, "red_card", True),
        (120, 1, "red_card", True),
    ],
)
def test_wdc2006_yellow_then_red(late, offence, kind, hold):
    p = pen("wdc2006", late, offence)
    assert (p.kind, p.all_units_hold) == (kind, hold)


@pytest.mark.parametrize(
    "late, offence, kind, hold",
    [
        (1, 1, "grace", False),
        (30, 1, "grace", False),
        (30.2, 1, "nmr", True),
        (10, 2, "board_may_allow", True),
        (31, 2, "nmr", True),
    ],
)
def test_wdc2003_thirty_second_leniency_once_per_game(late, offence, kind, hold):
    p = pen("wdc2003", late, offence)
    assert (p.kind, p.all_units_hold) == (kind, hold)


def test_wdc2018_warning_then_all_units_hold():
    assert pen("wdc2018", 200, 1).kind == "warning"
    assert not pen("wdc2018", 200, 1).all_units_hold
    second = pen("wdc2018", 2, 2)
    assert (second.kind, second.all_units_hold) == ("nmr", True)


def test_wdc2019_referee_decides():
    p = pen("wdc2019", 12)
    assert p.kind == "referee" and p.label


def test_offence_counts_this_one_too():
    with pytest.raises(ValueError):
        pen("wdc2006", 10, 0)


def test_json_shape():
    assert pen("graduated20", 15.2, units=["Bud", "Tri", "Vie"]).as_json() == {
        "kind": "unit_nmr", "all_units_hold": False, "units_deleted": 2,
        "label": "2-unit NMR", "deleted_orders": ["Bud", "Tri"],
    }
    assert "deleted_orders" not in pen("wdc2006", 3).as_json()


def test_deleting_every_units_order_is_all_units_holding():
    p = pen("graduated20", 80, units=["Vie", "Bud"])  # a 10-unit NMR for two units
    assert p.kind == "unit_nmr" and p.all_units_hold and p.deleted_orders == ("Bud", "Vie")
    eleven = ["Vie", "Bud", "Tri", "Ser", "Gre", "Rum", "Bul", "Con", "Smy", "Ank", "Sev"]
    assert not pen("graduated20", 80, units=eleven).all_units_hold


def test_a_unit_named_twice_counts_once():
    assert pen("graduated20", 20, units=["Vie", "Vie", "Bud"]).deleted_orders == ("Bud", "Vie")


@pytest.mark.parametrize("late", [float("nan"), float("inf"), float("-inf")])
def test_lateness_must_be_a_number(late):
    with pytest.raises(ValueError):
        pen("wdc2006", late)


# --- labels a TD reads: no "No press: Full NMR: ...", no deletion naming fewer units --------

def test_a_graduated_deletion_names_as_many_orders_as_it_deletes():
    two = pen("graduated20", 15.2, units=["Vie", "Bud", "Tri"])
    assert two.text == "2-unit NMR: delete Bud, Tri"
    # a 4-unit NMR for a power with three units deletes every order it has, and says so
    assert pen("graduated20", 50, units=["Lvp", "Edi", "Lon"]).text == (
        "4-unit NMR: delete all 3 orders (Edi, Lvp, Lon)")  # Liverpool before London
    assert pen("graduated20", 50, units=["Edi"]).text == "4-unit NMR: delete the only order (Edi)"
    assert pen("graduated20", 95, units=["Vie", "Bud"]).text == (
        "All units hold (NMR): delete all 2 orders (Bud, Vie)")
    assert pen("graduated20", 50).text == "4-unit NMR"  # no units given: nothing to name
    assert pen("graduated20", 50, units=[]).text == "4-unit NMR"


@pytest.mark.parametrize("event, late, offence, label", [
    ("graduated20", 95, 1, "All units hold (NMR)"),
    ("wdc2003", 40, 1, "All units hold (NMR: over 30 s late)"),
    ("wdc2006", 40, 1, "Red card: all units hold (more than 30 s late)"),
])
def test_a_full_nmr_says_all_units_hold_once(event, late, offence, label):
    assert pen(event, late, offence).label == label


@pytest.mark.parametrize("event, offence, label", [
    ("graduated20", 1, "No orders: all units hold (NMR)"),
    ("wdc2003", 1, "No orders: all units hold (NMR)"),
    ("wdc2006", 1, "No orders: red card, all units hold"),
    ("wdc2018", 1, "No orders: warning"),
    ("wdc2018", 2, "No orders: all units hold (NMR)"),
    ("wdc2019", 1, "No orders: referee decides"),
])
def test_a_missed_phase_reads_no_orders_then_the_cost(event, offence, label):
    """What ``late.missed_to_judge`` proposes (orders later than the 5-minute window),
    labelled for a power that never pressed."""
    late = pen(event, 301, offence)
    missed = late.no_orders()
    assert missed.label == label
    assert (missed.kind, missed.all_units_hold, missed.units_deleted) == (
        late.kind, late.all_units_hold, late.units_deleted)  # the rule is unchanged
    assert missed.label.count(":") == 1


def test_the_leniency_label_leads_with_what_happened():
    # the kiosk's chip shows the part before " (": "Leniency used" fits two short lines
    assert pen("wdc2003", 12).label == "Leniency used (30 s)"


def test_the_td_is_asked_for_units_only_when_some_orders_are_deleted() -> None:
    """A graduated NMR deletes some orders: the units are asked for, to name them; all
    units holding, or a card, deletes none by name."""
    from dipclock.events import BUILTIN
    from dipclock.penalties import penalty

    graduated, cards = BUILTIN["graduated20"].penalty, BUILTIN["wdc2006"].penalty
    assert penalty(graduated, 17, 1).asks_units
    assert not penalty(graduated, 200, 1).asks_units  # all units hold
    assert not penalty(cards, 17, 1).asks_units
