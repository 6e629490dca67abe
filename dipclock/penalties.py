"""What a late submission costs, under each event's penalty model.

``penalty(rules, seconds_late, offence, units)`` is the whole rule: the kiosk shows it
live as a player runs late, the hub proposes it to the TD, ``dipclock penalty`` prints it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from dipclock.events import PenaltyRules
from dipclock.provinces import alphabetical, parse_units

Kind = Literal[
    "none",
    "grace",
    "warning",
    "yellow_card",
    "red_card",
    "unit_nmr",
    "nmr",
    "board_may_allow",
    "referee",
]


@dataclass(frozen=True)
class Penalty:
    kind: Kind
    all_units_hold: bool
    units_deleted: int
    label: str
    deleted_orders: tuple[str, ...] | None = field(default=None)

    @property
    def text(self) -> str:
        """The label and, when the power's units were given, the orders it deletes: exactly
        as many as it deletes, and "all N" when that is every order the power has."""
        if not self.deleted_orders:
            return self.label
        names = ", ".join(self.deleted_orders)
        if not self.all_units_hold:
            return f"{self.label}: delete {names}"
        n = len(self.deleted_orders)
        every = "the only order" if n == 1 else f"all {n} orders"
        return f"{self.label}: delete {every} ({names})"

    @property
    def asks_units(self) -> bool:
        """It deletes some of the power's orders, not all: the TD is asked for the power's
        units, and the proposal then names the orders it deletes."""
        return self.units_deleted > 0 and not self.all_units_hold

    def no_orders(self) -> Penalty:
        """The same penalty, labelled for a power that handed in no orders at all (it never
        pressed): "No orders: all units hold (NMR)", not a late press's reason."""
        return replace(self, label=f"No orders: {_NO_ORDERS.get(self.kind) or _lower(self.label)}")

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind,
            "all_units_hold": self.all_units_hold,
            "units_deleted": self.units_deleted,
            "label": self.label,
        }
        if self.deleted_orders is not None:
            out["deleted_orders"] = list(self.deleted_orders)
        return out


#: What a missed phase costs, said after "No orders: " (the late press's reason, such as
#: "more than 30 s late", says nothing about orders that never came).
_NO_ORDERS: dict[str, str] = {
    "nmr": "all units hold (NMR)",
    "red_card": "red card, all units hold",
    "board_may_allow": "all units hold unless the board allows it",
}


def _lower(label: str) -> str:
    return label[:1].lower() + label[1:]


def started_seconds(seconds_late: float) -> int:
    """Any fraction counts as a started second: 15.2 s late is in the 16th second."""
    if not math.isfinite(seconds_late):
        raise ValueError(f"seconds late must be a number, not {seconds_late}")
    if seconds_late <= 0:
        return 0
    return math.ceil(round(seconds_late, 6))


def penalty(
    rules: PenaltyRules,
    seconds_late: float,
    offence: int = 1,
    units: Sequence[str] | None = None,
) -> Penalty:
    """The penalty for a submission ``seconds_late`` after the deadline.

    ``offence`` counts this player's late submissions in this game, this one included.
    ``units`` (the power's units, "A Vie" or "Vie", as typed) lets the graduated model name
    the deleted orders, in the order of the provinces' English names (``dipclock.provinces``:
    an unknown unit is an ``UnknownUnit``; one typed twice counts once).
    """
    if offence < 1:
        raise ValueError("offence counts this late submission too, so it is at least 1")
    late = started_seconds(seconds_late)
    ordered = (
        [u.text for u in alphabetical(parse_units(units))] if units is not None else None
    )
    if late == 0:
        return _with_units(Penalty("none", False, 0, "On time"), ordered, 0)
    grace = rules.grace_seconds
    match rules.model:
        case "yellow_red":
            if offence == 1 and late <= grace:
                return _with_units(Penalty("yellow_card", False, 0, "Yellow card"), ordered, 0)
            why = "second late submission" if offence > 1 else f"more than {grace} s late"
            return _nmr(Penalty("red_card", True, 0, f"Red card: all units hold ({why})"), ordered)
        case "leniency":
            if late > grace:
                label = f"All units hold (NMR: over {grace} s late)"
                return _nmr(Penalty("nmr", True, 0, label), ordered)
            if offence == 1:
                return _with_units(
                    Penalty("grace", False, 0, f"Leniency used ({grace} s)"), ordered, 0
                )
            # "tolerated only as determined by the other players": one objection and
            # all units hold, so that is the proposal until the board has said yes
            label = "All units hold unless the board allows it"
            return _with_units(Penalty("board_may_allow", True, 0, label), ordered, 0)
        case "warning":
            if offence == 1:
                return _with_units(Penalty("warning", False, 0, "Warning"), ordered, 0)
            return _nmr(Penalty("nmr", True, 0, "All units hold (after a warning)"), ordered)
        case "nmr":
            # late is NMR, from the first started second: no grace, no warning
            return _nmr(Penalty("nmr", True, 0, "Late: all units hold (NMR)"), ordered)
        case "referee":
            return _with_units(Penalty("referee", False, 0, "Referee decides"), ordered, 0)
        case "graduated":
            for band in rules.bands:
                if late <= band.up_to_seconds:
                    n = band.units
                    label = f"{n}-unit NMR"
                    if offence > 1:
                        label += " (repeat: TD may add more)"
                    return _with_units(Penalty("unit_nmr", False, n, label), ordered, n)
            return _nmr(Penalty("nmr", True, 0, "All units hold (NMR)"), ordered)
    raise AssertionError(f"unknown penalty model {rules.model}")


def _with_units(p: Penalty, ordered: list[str] | None, n: int) -> Penalty:
    """Name the deleted orders; deleting every unit's order is all units holding."""
    if ordered is None:
        return p
    every = n > 0 and n >= len(ordered)
    return Penalty(p.kind, p.all_units_hold or every, p.units_deleted, p.label,
                   tuple(ordered[:n]))


def _nmr(p: Penalty, ordered: list[str] | None) -> Penalty:
    """A full NMR deletes every order."""
    if ordered is None:
        return p
    return Penalty(p.kind, p.all_units_hold, p.units_deleted, p.label, tuple(ordered))
