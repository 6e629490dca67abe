"""The hall's settings in the store: hub time, the event, the teams, the hall message.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from dipclock.events import EventProfile
from server.logline import Summary
from server.store.base import Base
from server.store.rows import HALL_MESSAGE, TIME_SEEN


class Settings(Base):
    """Hub time and its moves, the event, the teams and the TD's hall message."""

    def last_hub_time(self) -> datetime | None:
        """The latest hub time this hub wrote down: its log, the presses it received, and
        its own note of the time (``server.hubtime.note_time``). A restarted hub's tables
        may not set its time before it (``dipclock.keptvote``). ISO texts of one form sort
        as the times do."""
        row = self._one(
            "SELECT max(t) FROM (SELECT max(at) AS t FROM audit "
            "UNION ALL SELECT max(received) FROM presses "
            "UNION ALL SELECT value FROM meta WHERE key = ?)", (TIME_SEEN,))
        return datetime.fromisoformat(row[0]) if row and row[0] else None

    def note_time(self, now: datetime) -> None:
        """The hub's own note of its time, for ``last_hub_time`` when nothing else was
        written for a while (a lunch break)."""
        self.set_meta(TIME_SEEN, now.isoformat())

    def set_clock(
        self, shift: float, now: datetime, summary: Summary, anchor: str | None,
        new_epoch: bool = True, *, base: int | None = None,
    ) -> None:
        """The TD moved hub time by ``shift`` seconds: log it, keep every TD session as long
        as it was (their expiry is in hub time), and store ``anchor`` (``server.hubtime``:
        the boot and hub time minus the monotonic clock) for a restart in this boot.
        ``new_epoch``: kiosks must sync afresh (not when the hub took the tables' time)."""
        with self.change(now, "clock", summary, base=base) as db:
            db.execute("UPDATE sessions SET expires = expires + ?", (shift,))
            if new_epoch:
                db.execute(
                    "INSERT INTO meta(key, value) VALUES('clock_epoch', '1') ON CONFLICT(key) "
                    "DO UPDATE SET value = CAST(value AS INTEGER) + 1"
                )
            db.execute("DELETE FROM meta WHERE key = 'clock_correction'")  # before anchors
            if anchor is not None:
                db.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES('hub_time_anchor', ?)",
                    (anchor,),
                )

    def clock_epoch(self) -> int:
        """How many times hub time was moved (``set_clock``): kiosks resync when it rises,
        and a restart keeps it, so a kiosk that kept the time keeps trusting it."""
        return int(self.meta("clock_epoch") or 0)

    def event(self) -> EventProfile | None:
        text = self.meta("event")
        return EventProfile.model_validate_json(text) if text else None

    def set_event(
        self, profile: EventProfile, now: datetime, summary: Summary, current: int | None = None,
        *, base: int | None = None,
    ) -> None:
        """Set the event for rounds set up from now on, and for round ``current`` (a round
        not started yet, ``server.actions.event_scope``); every other round keeps its own."""
        text = profile.model_dump_json()
        with self.change(now, "event", summary, base=base) as db:
            db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('event', ?)", (text,))
            if current is not None:
                db.execute("UPDATE rounds SET profile = ? WHERE number = ?", (text, current))

    # --- teams --------------------------------------------------------------------------

    def teams(self) -> dict[str, list[str]]:
        """Each team's players, by name."""
        out: dict[str, list[str]] = {}
        for player, team in self._all("SELECT player, team FROM teams ORDER BY team, player"):
            out.setdefault(team, []).append(player)
        return out

    def team_powers(self) -> dict[str, dict[str, str]]:
        """Each team's player of each power (letter), where the teams give powers (a team
        round seated from its teams: graduated20)."""
        out: dict[str, dict[str, str]] = {}
        for player, team, power in self._all(
                "SELECT player, team, power FROM teams WHERE power IS NOT NULL "
                "ORDER BY team, power"):
            out.setdefault(team, {})[power] = player
        return out

    def set_teams(self, members: Sequence[tuple[str, str] | tuple[str, str, str | None]],
                  now: datetime, summary: Summary, *, base: int | None = None) -> None:
        """Replace the teams with ``members`` ((team, player) or (team, player, power
        letter)), logged."""
        with self.change(now, "teams", summary, bump=False, base=base) as db:
            db.execute("DELETE FROM teams")
            db.executemany("INSERT INTO teams(player, team, power) VALUES(?, ?, ?)",
                           [(m[1], m[0], m[2] if len(m) > 2 else None) for m in members])

    # --- the hall message (``server.hallmessage``) --------------------------------------

    def hall_message(self) -> str | None:
        """The TD's last hall message as stored (JSON), shown or run out; None: cleared."""
        return self.meta(HALL_MESSAGE)

    def set_hall_message(self, text: str | None, now: datetime, summary: Summary,
                         *, base: int | None = None) -> None:
        """Store the TD's message (JSON; None clears it), logged: one meta row, kept across
        a restart, replaced by the next; every table's snapshot carries it (``seq``)."""
        with self.change(now, "message", summary, base=base) as db:
            if text is None:
                db.execute("DELETE FROM meta WHERE key = ?", (HALL_MESSAGE,))
            else:
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                           (HALL_MESSAGE, text))
