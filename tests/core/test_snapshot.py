"""The snapshot model both sides share: what the hub dumps is what the kiosk takes back."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from pydantic import ValidationError

from dipclock.events import BUILTIN
from dipclock.schedule import Pause, Schedule
from dipclock.snapshot import PressesReply, Snapshot, reason

START = datetime(2024, 5, 4, 9, 0)


def built() -> Snapshot:
    schedule = Schedule(start=START, pauses=(Pause(at=datetime(2024, 5, 4, 10), minutes=45),))
    return Snapshot.model_validate({
        "seq": 17, "hub": "9f2c", "table": 3, "event": BUILTIN["wdc2006"], "schedule": schedule,
        "out": ["I"], "presses": [{"id": "p1", "power": "I", "kind": "hold",
                                   "at": datetime(2024, 5, 4, 9, 30)}],
        "hub_time": 1234567.5, "claims": [{"id": "card-1", "address": "10.0.0.12"}],
        "clock": 2, "players": {"I": "Ann Smith", "E": "Chloé O'Neil, jr"}})


def test_what_the_hub_sends_the_kiosk_reads_back_unchanged() -> None:
    snap = built()
    wire = json.loads(json.dumps(snap.model_dump(mode="json")))
    assert Snapshot.model_validate(wire) == snap
    assert wire["presses"][0]["at"] == "2024-05-04T09:30:00"  # naive local ISO, as documented
    assert wire["players"] == {"I": "Ann Smith", "E": "Chloé O'Neil, jr"}


def test_a_newer_hubs_extra_field_is_ignored_and_an_older_hubs_missing_ones_default() -> None:
    wire: dict[str, Any] = built().model_dump(mode="json") | {"board_clocks": [1, 2]}
    assert Snapshot.model_validate(wire) == built()
    for key in ("hub", "claims", "clock", "players"):
        del wire[key]
    old = Snapshot.model_validate(wire)
    assert (old.hub, old.claims, old.clock, old.players) == (None, (), 0, {})


@pytest.mark.parametrize(("change", "where"), [
    ({"clock": True}, "clock"), ({"clock": "1"}, "clock"), ({"clock": -1}, "clock"),
    ({"out": ["X"]}, "out.0"), ({"schedule": None}, "snapshot"),
    ({"presses": [{"id": "p", "power": "I", "kind": "tap", "at": "2024-05-04T09:30"}]},
     "presses.0.kind"),
    ({"claims": [{"id": 7}]}, "claims.0.id"),
    ({"players": {"X": "Ann"}}, "players.X.[key]"), ({"players": {"I": "Ann\nSmith"}}, "players.I"),
    ({"players": {"I": ""}}, "players.I"),
])
def test_a_bad_snapshot_gets_one_line_naming_where(change: dict[str, Any], where: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Snapshot.model_validate(built().model_dump(mode="json") | change)
    line = reason(caught.value)
    assert line.startswith(f"{where}: ") and "\n" not in line


def test_no_round_yet_is_a_valid_snapshot() -> None:
    snap = Snapshot.model_validate({"seq": 1, "table": 3, "event": None, "schedule": None,
                                    "hub_time": 0.0})
    assert snap.event is None and snap.presses == ()


def test_a_presses_reply_without_an_id_still_parses() -> None:
    reply = PressesReply.model_validate({"stored": 1, "duplicates": 0,
                                         "rejected": [{"id": None, "reason": "no id"}]})
    assert reply.rejected[0].id is None
