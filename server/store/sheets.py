"""The result sheets in the store: each board's sheet, its versions and the words of
every change (``server.sheets``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from server.logline import Summary, kept
from server.sheets import Sheet, change_of
from server.store.base import Base
from server.store.errors import SheetChanged, _Unchanged
from server.store.rows import _SHEET_COLUMNS, _sheet_row


class Sheets(Base):
    """Result sheets, changed one version at a time."""

    def sheets(self, round_no: int | None = None) -> list[Sheet]:
        sql = f"SELECT {_SHEET_COLUMNS} FROM sheets"
        args: tuple[object, ...] = ()
        if round_no is not None:
            sql, args = sql + " WHERE round = ?", (round_no,)
        return [_sheet_row(r) for r in self._all(sql + " ORDER BY round, table_no", args)]

    def sheet(self, round_no: int, table: int) -> Sheet | None:
        row = self._one(f"SELECT {_SHEET_COLUMNS} FROM sheets WHERE round = ? AND table_no = ?",
                        (round_no, table))
        return _sheet_row(row) if row else None

    def edit_sheet(self, round_no: int, table: int, version: int,
                   edit: Callable[[Sheet | None], tuple[Sheet, Summary] | None],
                   now: datetime, *, base: int | None = None,
                   line: bool = False) -> Sheet | None:
        """Change a board's sheet in one transaction, made against ``version``: the
        sheet's version when the phone, the TD or the table's clock saw it; 0 for no sheet
        yet. ``edit`` gets the sheet as stored and returns it changed with the log's line,
        or None to change nothing; every change raises the version by one (and
        ``settled`` unless it confirms a line: ``server.sheets.change_of``), set here.

        A sheet whose version is another by now refuses it (``SheetChanged``, with what
        changed since): two phones never write over each other's correction, and a stale
        page never undoes the TD's final. ``line``: a player's button confirming a line,
        made against any version from ``settled`` on: what that player confirms (the
        entries, and whether the TD has confirmed the sheet) is the same in all of them,
        so another player's confirmation in between does not refuse it. With ``base``
        (the TD's screen), any news of the sheet since then refuses it too. Returns the
        sheet as it now stands."""
        try:
            return self._edit_sheet(round_no, table, version, edit, now, base, line)
        except _Unchanged as same:
            return same.sheet

    def _edit_sheet(self, round_no: int, table: int, version: int,
                    edit: Callable[[Sheet | None], tuple[Sheet, Summary] | None],
                    now: datetime, base: int | None, line: bool) -> Sheet:
        with self.change(now, "result", "", subject=f"sheet {round_no}/{table}", base=base,
                         log=False) as db:
            row = db.execute(
                f"SELECT {_SHEET_COLUMNS} FROM sheets WHERE round = ? AND table_no = ?",
                (round_no, table)).fetchone()
            stored = _sheet_row(row) if row else None
            current = stored.version if stored else 0
            same = (stored.settled <= version <= current if line and stored
                    else version == current)
            if not same:
                raise self._sheet_changed(db, stored, version, line)
            done = edit(stored)
            if done is None:
                raise _Unchanged(stored)
            edited, summary = done
            said = change_of(stored, edited)
            settled = (current + 1 if said.kind != "line" or stored is None
                       else stored.settled)
            sheet = replace(edited, version=current + 1, settled=settled)
            db.execute(
                f"INSERT OR REPLACE INTO sheets({_SHEET_COLUMNS}) "
                "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (round_no, table, sheet.body.model_dump_json(),
                 json.dumps(dict(sorted(sheet.confirmations.items()))), int(sheet.td),
                 int(sheet.by_td), sheet.at, sheet.version, json.dumps(sheet.td_without),
                 sheet.settled))
            db.execute("INSERT OR REPLACE INTO sheet_changes(round, table_no, version, at, "
                       "kind, words) VALUES(?, ?, ?, ?, ?, ?)",
                       (round_no, table, sheet.version, now.isoformat(), said.kind,
                        said.words))
            db.execute("INSERT INTO audit(at, action, summary, subject, said) "
                       "VALUES(?, ?, ?, ?, ?)",
                       (now.isoformat(), "result", str(summary), f"sheet {round_no}/{table}",
                        kept(summary)))
            return sheet

    @staticmethod
    def _sheet_changed(db: sqlite3.Connection, stored: Sheet | None, version: int,
                       line: bool) -> SheetChanged:
        """The refusal of a change made against ``version``, with what changed since (for
        a line's confirmation, what refused it: not the other lines confirmed)."""
        if stored is None or version > stored.version:  # a version it never had
            return SheetChanged(stored)
        rows = db.execute(
            "SELECT at, kind, words FROM sheet_changes WHERE round = ? AND table_no = ? "
            "AND version > ? ORDER BY version", (stored.round, stored.table, version)
        ).fetchall()
        unknown = stored.version - version - len(rows)
        return SheetChanged(stored, [(datetime.fromisoformat(at), words)
                                     for at, kind, words in rows if not line or kind != "line"],
                            unknown)
