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
from dipclock.i18n import ENGLISH, N_, Words
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
    #: the label as its catalogue entry and fields (``said``); "": said as ``label``
    message: str = field(default="", compare=False)
    values: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    #: a ``no_orders`` label's: the late press's entry, said after "No orders: "
    of: str = field(default="", compare=False)

    def said(self, words: Words = ENGLISH) -> str:
        """The label in ``words``' language (the table's screen); ``label`` stays English,
        as the hub's JSON and the TD's proposals keep it."""
        if not self.message:
            return self.label
        if self.of:  # German nouns keep their capital
            late = words(self.of, **dict(self.values))
            return words(self.message, what=late if words.lang == "de" else _lower(late))
        return words(self.message, **dict(self.values))

    @property
    def text(self) -> str:
        """The label and, when the power's units were given, the orders it deletes: exactly
        as many as it deletes, and "all N" when that is every order the power has."""
        return self.told()

    def told(self, words: Words = ENGLISH) -> str:
        """``text`` in ``words``' language (``dipclock penalty --lang``)."""
        label = self.said(words)
        if not self.deleted_orders:
            return label
        names = ", ".join(self.deleted_orders)
        if not self.all_units_hold:
            return words("{label}: delete {orders}", label=label, orders=names)
        n = len(self.deleted_orders)
        every = words("the only order") if n == 1 else words("all {n} orders", n=n)
        return words("{label}: delete {which} ({orders})", label=label, which=every,
                     orders=names)

    @property
    def asks_units(self) -> bool:
        """It deletes some of the power's orders, not all: the TD is asked for the power's
        units, and the proposal then names the orders it deletes."""
        return self.units_deleted > 0 and not self.all_units_hold

    def no_orders(self) -> Penalty:
        """The same penalty, labelled for a power that handed in no orders at all (it never
        pressed): "No orders: all units hold (NMR)", not a late press's reason."""
        said = _NO_ORDERS.get(self.kind)
        if said is not None:
            return replace(self, label=said, message=said, values=(), of="")
        return replace(self, label=f"No orders: {_lower(self.label)}",
                       message=N_("No orders: {what}") if self.message else "",
                       of=self.message)

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


#: What a missed phase costs (the late press's reason, such as "more than 30 s late", says
#: nothing about orders that never came).
_NO_ORDERS: dict[str, str] = {
    "nmr": N_("No orders: all units hold (NMR)"),
    "red_card": N_("No orders: red card, all units hold"),
    "board_may_allow": N_("No orders: all units hold unless the board allows it"),
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
        return _with_units(_said("none", False, 0, N_("On time")), ordered, 0)
    grace = rules.grace_seconds
    match rules.model:
        case "yellow_red":
            if offence == 1 and late <= grace:
                return _with_units(_said("yellow_card", False, 0, N_("Yellow card")), ordered, 0)
            if offence > 1:
                said = _said("red_card", True, 0,
                             N_("Red card: all units hold (second late submission)"))
            else:
                said = _said("red_card", True, 0,
                             N_("Red card: all units hold (more than {grace} s late)"),
                             grace=grace)
            return _nmr(said, ordered)
        case "leniency":
            if late > grace:
                return _nmr(_said("nmr", True, 0,
                                  N_("All units hold (NMR: over {grace} s late)"), grace=grace),
                            ordered)
            if offence == 1:
                return _with_units(
                    _said("grace", False, 0, N_("Leniency used ({grace} s)"), grace=grace),
                    ordered, 0)
            # "tolerated only as determined by the other players": one objection and
            # all units hold, so that is the proposal until the board has said yes
            label = N_("All units hold unless the board allows it")
            return _with_units(_said("board_may_allow", True, 0, label), ordered, 0)
        case "warning":
            if offence == 1:
                return _with_units(_said("warning", False, 0, N_("Warning")), ordered, 0)
            return _nmr(_said("nmr", True, 0, N_("All units hold (after a warning)")), ordered)
        case "nmr":
            # late is NMR, from the first started second: no grace, no warning
            return _nmr(_said("nmr", True, 0, N_("Late: all units hold (NMR)")), ordered)
        case "referee":
            return _with_units(_said("referee", False, 0, N_("Referee decides")), ordered, 0)
        case "graduated":
            for band in rules.bands:
                if late <= band.up_to_seconds:
                    n = band.units
                    said = (_said("unit_nmr", False, n, N_("{n}-unit NMR"), n=n) if offence == 1
                            else _said("unit_nmr", False, n,
                                       N_("{n}-unit NMR (repeat: TD may add more)"), n=n))
                    return _with_units(said, ordered, n)
            return _nmr(_said("nmr", True, 0, N_("All units hold (NMR)")), ordered)
    raise AssertionError(f"unknown penalty model {rules.model}")


def _said(kind: Kind, all_hold: bool, units: int, message: str, **values: int) -> Penalty:
    """A penalty labelled in English from its catalogue entry, which it keeps for
    ``Penalty.said``."""
    return Penalty(kind, all_hold, units, message.format(**values), None, message,
                   tuple(values.items()))


def _with_units(p: Penalty, ordered: list[str] | None, n: int) -> Penalty:
    """Name the deleted orders; deleting every unit's order is all units holding."""
    if ordered is None:
        return p
    every = n > 0 and n >= len(ordered)
    return replace(p, all_units_hold=p.all_units_hold or every,
                   deleted_orders=tuple(ordered[:n]))


def _nmr(p: Penalty, ordered: list[str] | None) -> Penalty:
    """A full NMR deletes every order."""
    if ordered is None:
        return p
    return replace(p, deleted_orders=tuple(ordered))
