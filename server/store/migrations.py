"""The store's schema, one step per version (``PRAGMA user_version``): a hub file of
any older version is brought up to this one when the hub opens it (``Base._migrate``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from dipclock.eventfiles import machine_zone


def _to_utc(db: sqlite3.Connection) -> None:
    """Version 5: times were the hub machine's naive local time; they are UTC now
    (``dipclock.venuetime``), so a hub restarted after a daylight-saving change, or under
    another zone, shows every stored deadline where it was. Converted with the zone the
    machine has now, the one they were written in; each stored event gets that zone, so
    its rounds stay in it whatever the machine says later. Sessions (local seconds) end."""
    name = machine_zone()
    tz = ZoneInfo(name)

    def utc(text: str | None) -> str | None:
        if not text:
            return text
        local = datetime.fromisoformat(text).replace(tzinfo=tz)  # a gap time: its old offset
        return local.astimezone(UTC).replace(tzinfo=None).isoformat()

    def profile(text: str | None) -> str | None:
        if not text:
            return text
        data = json.loads(text)
        data.setdefault("timezone", None)
        data["timezone"] = data["timezone"] or name
        return json.dumps(data)

    def body(text: str) -> str:
        data = json.loads(text)
        for key in ("at", "until", "ended"):
            if isinstance(data.get(key), str):
                data[key] = utc(data[key])
        return json.dumps(data)

    for table, columns in (("rounds", ("start", "call")), ("presses", ("at", "received")),
                           ("decisions", ("at",)), ("audit", ("at",))):
        for column in columns:
            rows = db.execute(f"SELECT rowid, {column} FROM {table}").fetchall()
            db.executemany(f"UPDATE {table} SET {column} = ? WHERE rowid = ?",
                           [(utc(value), rowid) for rowid, value in rows])
    for table in ("pauses", "adjustments"):
        rows = db.execute(f"SELECT id, body FROM {table}").fetchall()
        db.executemany(f"UPDATE {table} SET body = ? WHERE id = ?",
                       [(body(text), rowid) for rowid, text in rows])
    rows = db.execute("SELECT number, profile FROM rounds").fetchall()
    db.executemany("UPDATE rounds SET profile = ? WHERE number = ?",
                   [(profile(text), number) for number, text in rows])
    event = db.execute("SELECT value FROM meta WHERE key = 'event'").fetchone()
    if event is not None:
        db.execute("UPDATE meta SET value = ? WHERE key = 'event'", (profile(event[0]),))
    db.execute("DELETE FROM sessions")


def _records(db: sqlite3.Connection) -> None:
    """Version 10 (see ``MIGRATIONS``): the sheets' confirmations, a list of powers until
    now, become each power's way of confirming (``"phone"``: on the sheet's page)."""
    db.execute("ALTER TABLE audit ADD COLUMN subject TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE sheets ADD COLUMN version INTEGER NOT NULL DEFAULT 1")
    db.execute("ALTER TABLE sheets ADD COLUMN td_without TEXT NOT NULL DEFAULT '[]'")
    rows = db.execute("SELECT round, table_no, confirmed FROM sheets").fetchall()
    db.executemany("UPDATE sheets SET confirmed = ? WHERE round = ? AND table_no = ?",
                   [(json.dumps(dict.fromkeys(json.loads(c), "phone")), r, t)
                    for r, t, c in rows])
    db.execute("""CREATE TABLE round_undo(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, before TEXT,
        current_before INTEGER, summary TEXT NOT NULL, at TEXT NOT NULL)""")


MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    # version 1
    """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE rounds(
        number INTEGER PRIMARY KEY, start TEXT NOT NULL, last_year INTEGER,
        call TEXT, title TEXT NOT NULL DEFAULT '');
    CREATE TABLE tables(number INTEGER PRIMARY KEY);
    CREATE TABLE pauses(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, body TEXT NOT NULL);
    CREATE TABLE adjustments(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, body TEXT NOT NULL);
    CREATE TABLE presses(
        id TEXT PRIMARY KEY, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
        power TEXT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, received TEXT NOT NULL);
    CREATE INDEX presses_by_table ON presses(round, table_no, at);
    CREATE TABLE decisions(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL,
        phase TEXT NOT NULL, decision TEXT NOT NULL, final TEXT NOT NULL,
        note TEXT NOT NULL, at TEXT NOT NULL,
        PRIMARY KEY(round, table_no, power, phase));
    CREATE TABLE audit(
        id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, action TEXT NOT NULL,
        summary TEXT NOT NULL);
    CREATE TABLE sessions(
        token_hash TEXT PRIMARY KEY, csrf TEXT NOT NULL, expires REAL NOT NULL);
    """,
    # version 2: each round keeps the event profile it was set up under (review and the
    # CSV judge a round by its own rules after the TD replaces the event); rounds set up
    # before this version get the event stored now.
    """
    ALTER TABLE rounds ADD COLUMN profile TEXT;
    UPDATE rounds SET profile = (SELECT value FROM meta WHERE key = 'event');
    """,
    # version 3: who plays which power at which table in each round (the review and the
    # CSV name the player, not only the power)
    """
    CREATE TABLE seating(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL,
        player TEXT NOT NULL, PRIMARY KEY(round, table_no, power));
    """,
    # version 4: a power's units in a phase, as the TD entered them (graduated penalties:
    # the review names the orders a late power's penalty deletes); a JSON list of strings
    """
    CREATE TABLE units(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL,
        phase TEXT NOT NULL, units TEXT NOT NULL,
        PRIMARY KEY(round, table_no, power, phase));
    """,
    # version 5: every stored time in UTC, every stored event in its zone (``_to_utc``)
    _to_utc,
    # version 6: a revision per round and table, raised by each press or units stored there,
    # so the hub reads again only the tables that changed (``server.history``), and each
    # table's final judgment kept under it, so a restarted hub does not judge the whole
    # event again; the holds indexed apart, so a board clock's ready signals are found
    # without reading the round
    """
    CREATE TABLE table_revs(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, rev INTEGER NOT NULL,
        PRIMARY KEY(round, table_no));
    INSERT INTO table_revs(round, table_no, rev)
        SELECT round, table_no, count(*) FROM presses GROUP BY round, table_no;
    CREATE INDEX presses_holds ON presses(round, table_no, at) WHERE kind = 'hold';
    CREATE TABLE judged(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, rev INTEGER NOT NULL,
        basis TEXT NOT NULL, items TEXT NOT NULL, PRIMARY KEY(round, table_no));
    """,
    # version 7: each table's clock its own credential (``server.pairing``): the clocks
    # waiting for the TD's approval, and those paired, each for one table, by the SHA-256
    # of a token only the clock holds; the hall's shared kiosk key goes
    """
    CREATE TABLE waiting(
        code TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, kiosk TEXT NOT NULL,
        wished INTEGER, fingerprint TEXT, address TEXT NOT NULL, asked TEXT NOT NULL,
        expires REAL NOT NULL);
    CREATE TABLE clocks(
        id INTEGER PRIMARY KEY AUTOINCREMENT, token_hash TEXT NOT NULL UNIQUE,
        table_no INTEGER NOT NULL, kiosk TEXT NOT NULL, address TEXT NOT NULL,
        paired TEXT NOT NULL);
    DELETE FROM meta WHERE key = 'kiosk_key';
    """,
    # version 8: each board's result sheet (``server.sheets``): what it says as JSON, the
    # powers whose players confirmed it, and whether the TD has (then its scores count)
    """
    CREATE TABLE sheets(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, body TEXT NOT NULL,
        confirmed TEXT NOT NULL, td INTEGER NOT NULL, by_td INTEGER NOT NULL,
        at TEXT NOT NULL, PRIMARY KEY(round, table_no));
    """,
    # version 9: the teams, each player in one (the standings' team table)
    """
    CREATE TABLE teams(player TEXT PRIMARY KEY, team TEXT NOT NULL);
    """,
    # version 10: records a TD can defend. Each log line says what it is about (a change
    # from a stale screen is refused, ``server.stale``); each sheet has a version a change
    # is made against, who confirmed each line, and whose lines were missing when the TD
    # confirmed it; each change to the rounds keeps what it replaced, for its undo
    _records,
    # version 11: a press is known by its table and its id: ids are each clock's own, and
    # one clock sending another table's ids must not make that table's presses duplicates
    """
    CREATE TABLE presses_by_id(
        id TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
        power TEXT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, received TEXT NOT NULL,
        PRIMARY KEY(table_no, id));
    INSERT INTO presses_by_id SELECT id, round, table_no, power, kind, at, received
        FROM presses;
    DROP TABLE presses;
    ALTER TABLE presses_by_id RENAME TO presses;
    CREATE INDEX presses_by_table ON presses(round, table_no, at);
    CREATE INDEX presses_holds ON presses(round, table_no, at) WHERE kind = 'hold';
    """,
    # version 12: every change of a sheet raises its version (a line's confirmation, the
    # TD's final and reopening too) and is kept in words, so a change made against an
    # older version is refused with what happened since; ``settled``: the version at the
    # last change of what a player confirms (``Sheet.settled``)
    """
    ALTER TABLE sheets ADD COLUMN settled INTEGER NOT NULL DEFAULT 1;
    UPDATE sheets SET settled = version;
    CREATE TABLE sheet_changes(
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, version INTEGER NOT NULL,
        at TEXT NOT NULL, kind TEXT NOT NULL, words TEXT NOT NULL,
        PRIMARY KEY(round, table_no, version));
    """,
    # version 13: the event's roster (``server.store.roster``): each person once, by the
    # key of the display name every other table names them by, an id of the WDD or WDR
    # one person's; the pairs kept apart, by person, gone with either
    """
    CREATE TABLE people(
        id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE, given TEXT NOT NULL, family TEXT NOT NULL,
        homonym INTEGER NOT NULL DEFAULT 1, note TEXT NOT NULL DEFAULT '',
        wdd INTEGER UNIQUE, wdr INTEGER UNIQUE, nationality TEXT NOT NULL DEFAULT '',
        club TEXT NOT NULL DEFAULT '', preregistered INTEGER NOT NULL DEFAULT 0,
        email TEXT NOT NULL DEFAULT '', location TEXT NOT NULL DEFAULT '');
    CREATE TABLE apart(
        a INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        PRIMARY KEY(a, b), CHECK(a < b));
    """,
    # version 14: the register (``server.store.register``): the TD's mark of a person for a
    # round (present, absent, asking to sit out, withdrawn), gone with the person
    """
    CREATE TABLE register(
        round INTEGER NOT NULL,
        person INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        status TEXT NOT NULL
            CHECK(status IN ('present', 'absent', 'sitting_out', 'withdrawn')),
        PRIMARY KEY(round, person));
    """,
    # version 15: replacements (``server.store.replacements``): from a phase, a power is
    # played by another player (``player``) or is in civil disorder (``player`` NULL);
    # ``share``: the TD's percent of the game's score to that player (NULL: the event's)
    """
    CREATE TABLE replacements(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL,
        table_no INTEGER NOT NULL, power TEXT NOT NULL, phase TEXT NOT NULL, player TEXT,
        share REAL CHECK(share IS NULL OR (share >= 0 AND share <= 100)),
        UNIQUE(round, table_no, power, phase));
    """,
    # version 16: a team member's power, for a team round seated from its teams
    # (graduated20 2: "teams of seven players, with one player playing each of the seven
    # Great Powers"); NULL where the teams give none
    """
    ALTER TABLE teams ADD COLUMN power TEXT
        CHECK(power IS NULL OR power IN ('A', 'E', 'F', 'G', 'I', 'R', 'T'));
    """,
    # version 17: game-end votes (``server.store.votes``): one row per proposal, its moment,
    # board, result and who voted (never how), kept for the record; the secret votes of an
    # open ballot (deleted when it closes); the phones' claims, each proved by its power's
    # button on the clock (its choice forgotten when the ballot closes)
    """
    CREATE TABLE votes(
        id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL,
        table_no INTEGER NOT NULL, form TEXT NOT NULL, proposer TEXT,
        year INTEGER NOT NULL, season TEXT NOT NULL CHECK(season IN ('spring', 'fall')),
        centres TEXT NOT NULL, previous TEXT, absent TEXT NOT NULL DEFAULT '[]',
        voters TEXT NOT NULL DEFAULT '[]', voted TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL CHECK(state IN ('proposed', 'open', 'passed', 'failed',
                                            'vetoed', 'cancelled')),
        why TEXT NOT NULL DEFAULT '', headline TEXT NOT NULL DEFAULT '', chart_year INTEGER,
        vetoed_by TEXT, proposed_at TEXT NOT NULL, proposed_by TEXT NOT NULL,
        opened_at TEXT, closed_at TEXT, closed_by TEXT, undone_at TEXT, undone_by TEXT);
    CREATE INDEX votes_by_table ON votes(round, table_no);
    CREATE TABLE vote_secrets(
        vote INTEGER NOT NULL REFERENCES votes(id) ON DELETE CASCADE, power TEXT NOT NULL,
        choice TEXT NOT NULL, PRIMARY KEY(vote, power));
    CREATE TABLE vote_claims(
        token TEXT PRIMARY KEY, vote INTEGER NOT NULL REFERENCES votes(id) ON DELETE CASCADE,
        round INTEGER NOT NULL, table_no INTEGER NOT NULL, power TEXT NOT NULL, choice TEXT,
        device TEXT NOT NULL, at TEXT NOT NULL,
        state TEXT NOT NULL CHECK(state IN ('waiting', 'cast', 'conflict', 'refused')),
        why TEXT NOT NULL DEFAULT '', press TEXT);
    CREATE INDEX vote_claims_by_table ON vote_claims(round, table_no, power);
    """,
    # version 18: a log line's sentence, kept to be said in its reader's language (issue
    # 38: ``server.logline``), beside its English ``summary``, which stays the record;
    # NULL for a line written before, or one with no sentence (it is shown in English)
    """
    ALTER TABLE audit ADD COLUMN said TEXT;
    ALTER TABLE round_undo ADD COLUMN said TEXT;
    """,
)
