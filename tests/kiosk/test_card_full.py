"""A full card under the outbox (``kiosk.outbox``): SQLite refusing to grow the file, as on
a full SD card (``PRAGMA max_page_count`` gives the very error, SQLITE_FULL), then room
again. The clock counts on, says so, keeps every press, and recovers by itself."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

from kiosk.app import CARD_FULL_ALERT, FLUSH_EVERY
from kiosk.outbox import Outbox
from tests.kiosk.conftest import Table

T = datetime(2019, 9, 6, 10, 5)


def fill(outbox: Outbox) -> None:
    """The card is full: the file may not grow by one more page."""
    db = outbox._db
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    for table, row in (("settings", "INSERT INTO settings(key, value) VALUES(?, '1')"),
                       ("presses", "INSERT INTO presses(id, round, power, kind, at, sent) "
                                   "VALUES(?, 'ballast', 'A', 'press', '2019-01-01', 1)")):
        for n in range(10_000):  # whatever room each table's last page had, used up
            try:
                db.execute(row, (f"ballast-{n}",))
            except sqlite3.OperationalError as exc:
                assert "full" in str(exc), exc
                break
        else:
            raise AssertionError(f"the outbox's {table} never filled")


def room(outbox: Outbox) -> None:
    outbox._db.execute("PRAGMA max_page_count = 1073741823")


def test_presses_on_a_full_card_are_kept_shown_sent_and_written_once_there_is_room(
        tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox.sqlite")
    try:
        first = outbox.record("A", "press", T, "r1")
        fill(outbox)
        held = [outbox.record(p, "press", T + timedelta(seconds=k), "r1")
                for k, p in enumerate("EFG", start=1)]
        outbox.put("hub_snapshot", {"seq": 7})
        assert outbox.full
        assert [p.id for p in outbox.presses("r1")] == [first.id, *(p.id for p in held)]
        assert [p.id for p in outbox.unsent()] == [first.id, *(p.id for p in held)]
        assert outbox.get("hub_snapshot") == {"seq": 7}
        outbox.mark_sent([first.id, held[0].id], rejected=[held[1].id])  # the hub has them
        assert [p.id for p in outbox.unsent()] == [held[2].id]  # a row marked in place
        assert not outbox.flush() and outbox.full  # still no room: all kept
        room(outbox)
        assert outbox.flush() and not outbox.full
        reopened = Outbox(tmp_path / "outbox.sqlite")  # on disk now, as after a restart
        try:
            assert [p.id for p in reopened.presses("r1")] == [first.id, *(p.id for p in held)]
            assert reopened.rejected() == [held[1].id]
            assert [p.id for p in reopened.unsent()] == [held[2].id]
            assert reopened.get("hub_snapshot") == {"seq": 7}
        finally:
            reopened.close()
    finally:
        outbox.close()


def test_the_clock_counts_on_says_the_card_is_full_and_the_alert_goes_with_room(
        table: Table) -> None:
    table.screen(T)
    fill(table.outbox)
    stored = table.press("E", T + timedelta(seconds=5))
    screen = table.screen(T + timedelta(seconds=6))
    assert CARD_FULL_ALERT in screen.alerts
    later = table.screen(T + timedelta(seconds=9))
    assert later.big != screen.big  # the clock counts on
    assert stored.id in [p.id for p in table.outbox.presses()]
    room(table.outbox)
    after = table.screen(T + timedelta(seconds=10 + FLUSH_EVERY))
    assert CARD_FULL_ALERT not in after.alerts
    assert not table.outbox.full
