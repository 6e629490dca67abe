"""The outbox: durable, exactly once, unsent rows for the hub."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from kiosk.outbox import SCHEMA_VERSION, STAMP_COLUMNS, Outbox

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


# The presses table as kiosks before 0.2 wrote it: no stamp columns.
OLD_SCHEMA = """
CREATE TABLE presses (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    id       TEXT NOT NULL UNIQUE,
    round    TEXT NOT NULL,
    power    TEXT NOT NULL CHECK (length(power) = 1),
    kind     TEXT NOT NULL CHECK (kind IN ('press', 'hold')),
    at       TEXT NOT NULL,
    source   TEXT NOT NULL DEFAULT '',
    sent     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX presses_unsent ON presses (sent) WHERE sent = 0;
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO presses (id, round, power, kind, at, source, sent) VALUES
    ('old-sent', 'r', 'A', 'press', '2019-09-06T10:05:00', 'gpio', 1),
    ('old-unsent', 'r', 'E', 'press', '2019-09-06T10:06:00', 'gpio', 0);
INSERT INTO settings VALUES ('hub_wall_offset', '0.25');
"""


def test_an_outbox_written_by_an_older_kiosk_is_migrated_and_its_rows_trusted(
        tmp_path: Path) -> None:
    path = tmp_path / "o.sqlite"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.close()
    box = Outbox(path)
    again = Outbox(path)  # a second process opening it adds nothing twice
    assert [(p.id, p.trusted, p.sent, p.mono) for p in box.presses()] == [
        ("old-sent", True, True, None), ("old-unsent", True, False, None)]
    assert [p.id for p in again.unsent()] == ["old-unsent"]  # still goes to the hub
    assert box.get("hub_wall_offset") == 0.25
    guess = box.record("F", "press", AT, "r", mono=12.5, boot="b1", trusted=False)
    assert [p.id for p in box.unsent()] == ["old-unsent"]
    assert box.correct("b1", lambda m: AT)[0][0].id == guess.id
    box.close()
    again.close()
    columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(presses)")]
    assert columns[-5:] == ["mono", "boot", "trusted", "guess", "uncorrected"]


def test_guesses_wait_until_corrected_then_go_restamped_or_flagged(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    sure = box.record("A", "press", AT, "r", mono=5.0, boot="now")
    mine = box.record("E", "press", AT, "r", mono=100.0, boot="now", trusted=False)
    older = box.record("F", "hold", AT, "r", mono=100.0, boot="before", trusted=False)
    assert [p.id for p in box.unsent()] == [sure.id]
    assert [p.id for p in box.guesses()] == [mine.id, older.id]
    restamped, released = box.correct("now", lambda m: datetime(2019, 9, 6, 10, 0) +
                                      timedelta(seconds=m))
    assert [(p.id, p.at, p.trusted) for p in restamped] == [
        (mine.id, datetime(2019, 9, 6, 10, 1, 40), True)]
    assert [(p.id, p.at, p.uncorrected) for p in released] == [(older.id, AT, True)]
    box.close()
    box = Outbox(tmp_path / "o.sqlite")  # durably so
    assert box.guesses() == []
    assert [p.id for p in box.unsent()] == [sure.id, mine.id, older.id]
    assert box.presses()[1:] == [*restamped, *released]
    assert box.guessed_at(mine.id) == AT and box.guessed_at(sure.id) is None
    assert box.correct("now", lambda m: AT) == ([], [])  # nothing left to settle


def test_a_guess_needs_its_monotonic_reading(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    with pytest.raises(ValueError, match="mono"):
        box.record("A", "press", AT, "r", trusted=False)
    assert box.presses() == []


def test_an_older_kiosk_s_local_stamps_become_utc_once(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Before UTC, a Pi in Berlin stamped 10:18 local; opened on it, the press says 08:18
    UTC (summer time), and a second opening converts nothing again."""
    import os
    import time

    import tzlocal

    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    tzlocal.reload_localzone()
    try:
        path = tmp_path / "o.sqlite"
        db = sqlite3.connect(path)
        db.executescript(OLD_SCHEMA)
        db.close()
        before = {r[0]: r[1] for r in sqlite3.connect(path).execute("SELECT id, at FROM presses")}
        Outbox(path).close()
        box = Outbox(path)
        after = {p.id: p.at for p in box.presses()}
        box.close()
    finally:
        os.environ["TZ"] = "UTC"
        time.tzset()
        tzlocal.reload_localzone()
    for press_id, local in before.items():
        assert after[press_id] == datetime.fromisoformat(local) - timedelta(hours=2)


# --- the result sheet's lines, confirmed with the powers' buttons ------------------------


def test_a_confirmation_is_durable_and_goes_to_its_own_hub_only(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    seen = box.confirmations_revision
    mine = box.confirm("I", 2, 3, "hub-a", AT, "serial")
    other = box.confirm("E", 2, 1, "hub-b", AT)
    assert box.confirmations_revision > seen  # the screen reads them again
    assert mine.as_json() == {"id": mine.id, "round": 2, "power": "I", "version": 3}
    box.close()
    box = Outbox(tmp_path / "o.sqlite")  # committed before ``confirm`` returned
    assert [(c.id, c.hub, c.round, c.power, c.version, c.at, c.source, c.state)
            for c in box.confirmations()] == [
        (mine.id, "hub-a", 2, "I", 3, AT, "serial", "pending"),
        (other.id, "hub-b", 2, "E", 1, AT, "", "pending")]
    # a hub started afresh numbers its sheets anew: it never gets another hub's
    assert [c.id for c in box.unsent_confirmations("hub-a")] == [mine.id]
    assert box.unsent_confirmations("hub-c") == []
    assert box.confirmations("hub-b", 2) == [other] and box.confirmations("hub-a", 1) == []


def test_a_refused_confirmation_is_kept_with_its_reason_and_never_resent(
        tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.sqlite")
    taken, refused, waiting = (box.confirm(p, 1, 1, "h", AT) for p in "AET")
    seen = box.confirmations_revision
    box.mark_confirmations([taken.id], [(refused.id, "the sheet changed meanwhile")])
    assert box.confirmations_revision > seen
    box.close()
    box = Outbox(tmp_path / "o.sqlite")
    assert [(c.power, c.state, c.reason) for c in box.confirmations()] == [
        ("A", "taken", ""), ("E", "refused", "the sheet changed meanwhile"),
        ("T", "pending", "")]
    assert [c.id for c in box.unsent_confirmations("h")] == [waiting.id]


def test_an_older_kiosk_s_file_gets_the_confirmations_table_once(tmp_path: Path) -> None:
    """Files of 0.1 (no stamp columns, local times) and of 0.2 (UTC, ``user_version`` 1,
    no confirmations): opened, both gain the table, keep every press, and a second opening
    changes nothing."""
    old = tmp_path / "0.1.sqlite"
    db = sqlite3.connect(old)
    db.executescript(OLD_SCHEMA)
    db.close()
    recent = tmp_path / "0.2.sqlite"
    db = sqlite3.connect(recent)
    db.executescript(OLD_SCHEMA)
    for name, kind in STAMP_COLUMNS.items():
        db.execute(f"ALTER TABLE presses ADD COLUMN {name} {kind}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    for path in (old, recent):
        box = Outbox(path)
        again = Outbox(path)
        assert [p.id for p in again.unsent()] == ["old-unsent"]
        line = box.confirm("A", 1, 1, "h", AT)
        assert [c.id for c in again.unsent_confirmations("h")] == [line.id]
        box.close()
        again.close()
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert db.execute("SELECT count(*) FROM presses").fetchone() == (2,)
        db.close()
    # 0.2's times were UTC already: not converted a second time
    assert Outbox(recent).presses()[0].at == datetime(2019, 9, 6, 10, 5)
