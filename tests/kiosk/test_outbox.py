"""The outbox: durable, exactly once, unsent rows for the hub."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import datetime
from pathlib import Path

import pytest

from kiosk.outbox import Outbox

AT = datetime(2019, 9, 6, 10, 18, 12, 250000)


def test_records_are_durable_and_unique(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "deep" / "o.sqlite")
    p = box.record("I", "press", AT, "r1", "gpio")
    assert uuid.UUID(p.id).version == 4
    with pytest.raises(sqlite3.IntegrityError):
        box.record("I", "press", AT, "r1", press_id=p.id)
    box.record("A", "hold", AT, "r2")
    box.close()
    again = Outbox(tmp_path / "deep" / "o.sqlite")
    assert [(r.power, r.at, r.source) for r in again.presses("r1")] == [("I", AT, "gpio")]
    assert len(again.presses()) == 2
    db = sqlite3.connect(tmp_path / "deep" / "o.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_unsent_and_mark_sent(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    ids = [box.record(c, "press", AT, "r").id for c in "AEF"]
    assert [p.id for p in box.unsent()] == ids
    box.mark_sent(ids[:2])
    assert [p.id for p in box.unsent()] == ids[2:]
    assert box.presses()[0].as_json() == {"id": ids[0], "power": "A", "kind": "press",
                                          "at": "2019-09-06T10:18:12.250000"}


def test_settings_round_trip(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    assert box.get("standalone") is None
    box.put("standalone", {"a": 1})
    box.put("standalone", {"a": 2})
    assert box.get("standalone") == {"a": 2}
