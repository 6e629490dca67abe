"""The kiosk's shell: button events in, the core asked, the screen drawn.

The clock is injected: ``Kiosk`` never calls ``time`` itself but is handed a monotonic
reading and a ``TimeBase`` that turns it into hub time, so tests jump straight to a
deadline. ``run`` is the live loop: it blocks on the input queue until the next second
boundary (or a button, or news from the hub), redraws only when the ``Screen`` changed,
and so sits near idle on a Pi.

A time base may not be trusted yet (a Pi boots on an old saved time; the hub may be out of
reach): the screen then says so, and presses are stored as guesses with their monotonic
reading, re-stamped the moment the time base is trusted, and only then uploaded (see
``Kiosk`` and ``kiosk.outbox``). Both modes, hub and standalone, share that one path.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

import pygame

from dipclock import sheetlines, votescreen
from dipclock.hallmessage import HallMessage
from dipclock.i18n import ENGLISH, N_, Said, Words, words_of
from dipclock.late import powers_out
from dipclock.powers import LETTERS
from dipclock.replacements import begun, players_now
from dipclock.sync import Slew, to_moment
from hardware.events import ButtonEvent
from hardware.keyboard import KeyboardButtons
from kiosk import state
from kiosk.config import HEARD, heard
from kiosk.display import Display
from kiosk.draw import Painter
from kiosk.outbox import Outbox, StoredConfirmation, StoredPress, StoredVotePress
from kiosk.round import Round
from kiosk.sound import Sounds
from machine.network import NetworkState
from machine.storage import is_disk_full
from machine.timesync import boot_id, clock_synchronised

log = logging.getLogger(__name__)

#: The screen's alert while presses can only be stamped with a guess.
CLOCK_ALERT = N_("Clock not verified: no hub and no network time")
#: The outbox's card is full (``kiosk.outbox.Outbox.full``): the clock counts on, presses
#: are kept in memory and sent, and the alert goes once they are written. Meanwhile a press
#: the hub has not taken either is no "IN" but "NOT SAVED" (``state.with_unsaved``), and is
#: acknowledged ``UNSAVED`` (not ``PRESS``) until the card takes it.
CARD_FULL_ALERT = N_("This clock cannot save presses: its card is full: tell the TD")
#: Why a vote press was not taken when the card is full (the screen's banner says it, in the
#: event's language: the press is kept in memory only, said as it is made).
VOTE_NOT_KEPT = N_("this clock's card is full: tell the TD")
#: Seconds between two attempts to write what a full card could not take.
FLUSH_EVERY = 10.0
#: Seconds between two attempts to settle the guesses when the outbox refused it.
SETTLE_RETRY = 10.0

_EPS = timedelta(microseconds=500)


def this_boot() -> str:
    """The kernel's boot id; where it does not say, one per kiosk process, so a reading of an
    earlier process counts as another boot's and is never converted on a guess."""
    return boot_id() or f"process-{uuid.uuid4()}"

#: Put on the input queue by other threads (the hub client) to make the loop redraw now.


class Source(Protocol):
    """Where the round comes from; the hub client is one, a fixed round another."""

    def current(self) -> Round | None: ...

    def hub_lost(self) -> bool: ...

    def sent(self) -> None:
        """A press was recorded: upload it when possible."""


@dataclass
class FixedRound:
    """Standalone: the round given on the command line, no hub."""

    round: Round

    def current(self) -> Round | None:
        return self.round

    def hub_lost(self) -> bool:
        return False

    def sent(self) -> None:
        pass


class TimeBase(Protocol):
    def local(self, mono: float) -> float:
        """Hub time (POSIX seconds, see dipclock.sync) at monotonic reading ``mono``."""
        ...

    def trusted(self) -> bool:
        """Whether ``local`` is known to be right, not a guess from an unverified clock."""
        ...

    def stamp(self, mono: float) -> float:
        """Hub time at ``mono`` by the current estimate, unslewed: to re-stamp a guess."""
        ...


class WallTime:
    """Standalone: the machine's wall clock, followed gently so NTP steps don't jolt it.

    Small differences are slewed (dipclock.sync.Slew); a step of a second or more (NTP
    setting the clock after boot) is taken at once, since a wrong minute is worse.
    The clock is trusted while the system says it is synchronised (``synchronised``, asked
    at most every ``recheck`` s: cheap, but the screen loop asks many times a second). A
    machine that cannot tell (None: not Linux, so not a Pi on fake-hwclock but a computer
    with a battery clock) counts as synchronised, so it never shows a false alarm.
    """

    def __init__(
        self,
        wall: Callable[[], float] = time.time,
        mono: Callable[[], float] = time.monotonic,
        shift: float = 0.0,
        synchronised: Callable[[], bool | None] = clock_synchronised,
        recheck: float = 10.0,
    ):
        self._wall, self._mono, self.shift = wall, mono, shift
        self._slew = Slew()
        self._synchronised, self._recheck = synchronised, recheck
        self._checked_at: float | None = None
        self._trusted = False

    def local(self, mono: float) -> float:
        target = self._wall() - self._mono() + self.shift
        return mono + self._slew.update(target, mono)

    def trusted(self) -> bool:
        now = self._mono()
        if self._checked_at is None or not 0 <= now - self._checked_at < self._recheck:
            self._checked_at = now
            self._trusted = self._synchronised() is not False
        return self._trusted

    def stamp(self, mono: float) -> float:
        return mono + self._wall() - self._mono() + self.shift


@dataclass
class Kiosk:
    """One table's kiosk without the window: record presses, say what the screen shows.

    While the time base is not trusted, each press is stored as a guess with its monotonic
    reading and ``boot`` id, and the screen carries ``CLOCK_ALERT``. At the first frame
    with a trusted time base every guess of this boot is re-stamped from its monotonic
    reading (``TimeBase.stamp``: hub time = mono + the sync's offset), durably, before the
    upload is told; so a press made offline, even after a reboot, lands at the right
    second. A guess of an earlier boot cannot be converted (the monotonic clock restarted):
    it is uploaded with its guessed stamp, flagged ``uncorrected`` in the outbox and logged.
    ``alerts`` gives the shell's own alert lines (box unplugged, another kiosk), a sentence
    said in the screen's language;
    ``message`` the TD's hall message of the hub's last snapshot, shown across the top
    until its ``until`` by this clock's hub time, with a chime once for each new one.
    """

    source: Source
    outbox: Outbox
    timebase: TimeBase
    warning_seconds: float = 120.0
    log: Callable[[str], None] = print
    sounds: Sounds | None = None
    alerts: Callable[[], tuple[Said | str, ...]] = lambda: ()
    message: Callable[[], HallMessage | None] = lambda: None
    table: int | None = None  # named on the screen before a round, with ``hub_text``
    hub_text: str = ""  # "Hub 10.0.0.1:8000, found on the network"
    hub_url: str = ""  # "https://10.0.0.1:8000": the result sheet's QR code points there
    #: the hub was found on the network: with ``hub_url``, named in the screen's language
    #: ("Hub 10.0.0.1:8000, found on the network"), instead of ``hub_text``
    hub_found: bool = False
    #: the screens' language while there is no round to show (``kiosk.config.spoken``);
    #: the event's once a round's snapshot has said it
    words: Words = ENGLISH
    #: the event's language a round said in this run (kept in the outbox too, ``HEARD``,
    #: for the next boot's first screens); None: none yet
    told: Words | None = None
    #: the network's last reading: told, with its fix, while the hub does not answer and
    #: there is no round to show (``state.with_network``)
    network: Callable[[], NetworkState | None] = lambda: None
    boot: str = field(default_factory=lambda: this_boot())
    _presses: dict[str, list[StoredPress]] = field(default_factory=dict)
    _lines: tuple[tuple[str, int, int], list[StoredConfirmation]] | None = None
    _votes: tuple[tuple[str, int, int], list[StoredVotePress]] | None = None
    _last: state.Frame | None = None
    _cache: tuple[object, datetime, datetime, state.Frame] | None = None
    _unsettled: bool = True  # guesses may wait in the outbox (a press, or an earlier run)
    _settle_after: float = float("-inf")
    _flush_after: float = float("-inf")
    _heard: tuple[str, datetime] | None = None  # the last hall message shown: (text, since)
    #: presses acknowledged ``UNSAVED`` (a full card), by id: their line, for the ``PRESS``
    #: that acknowledges each once the card has taken it
    _unsaved: dict[str, str] = field(default_factory=dict)
    _started: bool = False  # a frame was made: a message up when the clock starts is no news
    #: until when (hub time) the vote page's code shows to propose: the key ``v``
    #: (``show_vote_code``); None: not asked, or hidden by ``Esc``
    _vote_code_until: datetime | None = None
    #: the TD's ask (``Round.vote_code_until``) that ``Esc`` hid: not shown again
    _vote_code_hidden: datetime | None = None

    def now(self, mono: float) -> datetime:
        return to_moment(self.timebase.local(mono))

    def presses(self, key: str) -> list[StoredPress]:
        """This round's local presses (read from disk once, then kept in memory)."""
        if key not in self._presses:
            self._presses[key] = self.outbox.presses(key)
        return self._presses[key]

    def confirmations(self, rnd: Round) -> list[StoredConfirmation]:
        """The lines of the round's sheet confirmed on this clock (read from disk again only
        after one changed: the upload marks them from its own thread)."""
        if rnd.result is None:
            return []
        key = (rnd.hub or "", rnd.result.round, self.outbox.confirmations_revision)
        if self._lines is None or self._lines[0] != key:
            self._lines = (key, self.outbox.confirmations(key[0], key[1]))
        return self._lines[1]

    def vote_presses(self, rnd: Round) -> list[StoredVotePress]:
        """This clock's presses of the table's vote (read from disk again only after one
        changed: the upload marks them from its own thread)."""
        if rnd.vote is None:
            return []
        key = (rnd.hub or "", rnd.vote.id, self.outbox.votes_revision)
        if self._votes is None or self._votes[0] != key:
            self._votes = (key, self.outbox.vote_presses(key[0], key[1]))
        return self._votes[1]

    def table_now(self, rnd: Round, now: datetime) -> sheetlines.TableNow:
        """The table at ``now``: the hub's presses and this clock's own not yet among them,
        and who is out."""
        local = self.presses(rnd.key)
        hub_ids = {p.id for p in rnd.hub_presses}
        mine = [p for p in local if p.id not in hub_ids]
        out = powers_out(rnd.profile, mine, rnd.schedule.start, rnd.hub_out, now=now,
                         seen=rnd.hub_presses)
        presses = sorted([*rnd.hub_presses, *mine], key=lambda p: p.at)
        return sheetlines.TableNow(rnd.profile, rnd.schedule, now, presses, out, rnd.table)

    def handle(self, event: ButtonEvent) -> StoredPress | StoredConfirmation | StoredVotePress:
        """Record a button event durably, then acknowledge it (stdout line, upload). A
        press a full card could not take counts all the same (in memory, sent to the hub)
        but is acknowledged ``UNSAVED``, and ``PRESS`` only once the card has taken it.

        While the table's vote waits for a power's button (its phone chose), that power's
        press is the vote's (``StoredVotePress``), not orders in. At game over, with the
        sheet on the screen, a press may confirm its power's line instead
        (``dipclock.sheetlines.confirms``): stored as a confirmation, not a press."""
        rnd = self.source.current()
        if rnd is not None and votes_for(rnd, event):
            return self._vote(rnd, event)
        if rnd is not None and rnd.result is not None:
            line = sheetlines.confirms(self.table_now(rnd, self.now(event.at)), event.power,
                                       event.kind, rnd.result, self.confirmations(rnd))
            if line is not None:
                try:
                    return self._confirm(rnd, line, event)
                except sqlite3.OperationalError as exc:  # a full card: kept as a press
                    if not is_disk_full(exc):            # (the player confirms again
                        raise                            # once there is room)
                    log.error("this clock's card is full: %s's confirmation is not kept",
                              event.power)
        key = rnd.key if rnd is not None else "unknown"
        trusted = self.timebase.trusted()
        at = self.now(event.at)
        known = self.presses(key)  # loaded before the new row, so it is not counted twice
        stored = self.outbox.record(event.power, event.kind, at, key, event.source,
                                    mono=event.at, boot=self.boot, trusted=trusted)
        known.append(stored)
        guess = "" if trusted else " unverified"
        said = f"{stored.id} {stored.power} {stored.kind} {at.isoformat()}{guess}"
        if self.outbox.full and stored.id in {p.id for p in self.outbox.held()}:
            self._unsaved[stored.id] = said
            self.log(f"UNSAVED {said} (this clock's card is full: kept in memory only)")
        else:
            self.log(f"PRESS {said}")
        self._saved()  # the card may have taken the ones held before it, too
        if not trusted:
            self._unsettled = True
        self.source.sent()
        return stored

    def _vote(self, rnd: Round, event: ButtonEvent) -> StoredVotePress:
        """The vote press of ``event``'s power, stored before the screen says "vote sent";
        a second press while the first waits for the hub is the same press."""
        vote = rnd.vote
        assert vote is not None
        waiting = next((v for v in self.vote_presses(rnd)
                        if v.power == event.power and v.state == "pending"), None)
        if waiting is not None:
            return waiting
        at = self.now(event.at)
        try:
            stored = self.outbox.vote_press(event.power, vote.id, rnd.hub or "", at,
                                            event.source)
        except sqlite3.OperationalError as exc:  # a full card: not kept, and said so on
            if not is_disk_full(exc):            # the screen (an orders press it is not)
                raise
            log.error("this clock's card is full: %s's vote press is not kept", event.power)
            lost = StoredVotePress(str(uuid.uuid4()), rnd.hub or "", vote.id, event.power,
                                   at, event.source, "refused", self.words(VOTE_NOT_KEPT))
            self.vote_presses(rnd).append(lost)
            self._cache = None
            return lost
        self.log(f"VOTE {stored.id} {stored.power} vote {stored.vote}")
        self.source.sent()
        return stored

    def _confirm(self, rnd: Round, line: sheetlines.Confirm,
                 event: ButtonEvent) -> StoredConfirmation:
        stored = self.outbox.confirm(line.power, line.round, line.version, rnd.hub or "",
                                     self.now(event.at), event.source)
        self.log(f"CONFIRM {stored.id} {stored.power} round {stored.round} "
                 f"version {stored.version}")
        self.source.sent()
        return stored

    def settle(self, mono: float) -> int:
        """Re-stamp this boot's guesses (and release older boots') once the time is trusted.

        Returns how many presses changed. Called by ``frame``; the outbox does it in one
        transaction, so a power cut leaves every guess either untouched or re-stamped.
        """
        if not self._unsettled or mono < self._settle_after or not self.timebase.trusted():
            return 0
        try:
            restamped, released = self.outbox.correct(
                self.boot, lambda m: to_moment(self.timebase.stamp(m)))
        except sqlite3.Error as exc:  # a full or failing card: keep the guesses, try again
            log.warning("cannot re-stamp the presses made on an unverified clock: %s", exc)
            self._settle_after = mono + SETTLE_RETRY
            return 0
        self._unsettled = False
        if not restamped and not released:
            return 0
        self._presses.clear()  # read the new stamps back from the outbox
        self._cache = None
        for p in restamped:
            self.log(f"RESTAMP {p.id} {p.power} {p.kind} {p.at.isoformat()}")
        for p in released:
            log.warning("press %s %s %s was made on an unverified clock in an earlier boot: "
                        "it cannot be corrected and goes to the hub stamped %s", p.id,
                        p.power, p.kind, p.at.isoformat())
        self.source.sent()
        return len(restamped) + len(released)

    def screen_alerts(self) -> tuple[str, ...]:
        """The alert lines: the clock's own while untrusted, a full card, then the shell's;
        in the screen's language (a shell's sentence said in it, a line said already, as the
        card's notes are, as it is)."""
        words = self.words
        own = () if self.timebase.trusted() else (words(CLOCK_ALERT),)
        full = (words(CARD_FULL_ALERT),) if self.outbox.full else ()
        return own + full + tuple(a.in_(words) if isinstance(a, Said) else a
                                  for a in self.alerts())

    def flush(self, mono: float) -> None:
        """Now and then, write what a full card could not take (the alert goes with it)."""
        if self.outbox.full and mono >= self._flush_after:
            self._flush_after = mono + FLUSH_EVERY
            if self.outbox.flush():
                self._presses.clear()  # read back from the outbox
                self._cache = None
                self._saved()

    def _saved(self) -> None:
        """``PRESS``: the acknowledgement of each press acknowledged ``UNSAVED`` that the
        card has taken since (power cut or not, it is kept now)."""
        if not self._unsaved:
            return
        held = {p.id for p in self.outbox.held()}
        for press_id in [i for i in self._unsaved if i not in held]:
            self.log(f"PRESS {self._unsaved.pop(press_id)}")

    def at_risk(self, key: str) -> frozenset[str]:
        """The powers with a press of round ``key`` that a power cut would lose: held in
        memory by a full card, and not taken by the hub yet."""
        if not self.outbox.full:
            return frozenset()
        return frozenset(p.power for p in self.outbox.held() if p.round == key and not p.sent)

    def frame(self, mono: float) -> state.Frame:
        """What the screen shows at ``mono``; plays a cue when a stage begins. Before a round
        it names the table and the hub, so a TD walking a hall of cloned cards can check."""
        inner = self._frame(mono)
        hub = (state.hub_line(self.hub_url, self.hub_found, inner.screen.words)
               if self.hub_url else self.hub_text)
        fr = state.introduce(inner, self.table, hub)
        if fr.screen.look == "connecting" and fr.screen.hub_lost:
            fr = state.with_network(fr, self.network())
        message = self.message()
        if message is not None:  # shown while its time lasts, by this clock's hub time
            fr = state.with_message(fr, message, self.now(mono))
        self._announce(message if fr.screen.message else None)
        return fr

    def show_vote_code(self, mono: float) -> None:
        """The key ``v``: the vote page's QR code for ``votescreen.VOTE_CODE_SECONDS``, for
        players to propose a game end from their phones (a player asks, or the TD at the
        table presses it); the clock runs on as ever."""
        self._vote_code_until = self.now(mono) + timedelta(seconds=votescreen.VOTE_CODE_SECONDS)

    def hide_vote_code(self) -> None:
        """``Esc``: the code shown to propose goes (the key's, and the TD's ask of the
        hub's last snapshot); a vote open keeps its code, for its voters."""
        rnd = self.source.current()
        self._vote_code_until = None
        self._vote_code_hidden = rnd.vote_code_until if rnd is not None else None

    def _announce(self, shown: HallMessage | None) -> None:
        """The message cue, once for each new hall message (``since`` tells the same words
        set again from the one shown), where sound is on; not for one already up when the
        clock starts, nor for one back after a moment hidden (a resync)."""
        news = shown is not None and self._started and (shown.text, shown.since) != self._heard
        if shown is not None:
            self._heard = (shown.text, shown.since)
        self._started = True
        if news and self.sounds is not None:
            self.sounds.play("message")

    def _frame(self, mono: float) -> state.Frame:
        self.flush(mono)
        self.settle(mono)
        rnd = self.source.current()
        lost = self.source.hub_lost()
        if rnd is None:
            return state.connecting("", lost, alerts=self.screen_alerts(), words=self.words)
        self._hear(words_of(rnd.profile))
        alerts = self.screen_alerts()  # in the event's language, just heard
        now = self.now(mono)
        local = self.presses(rnd.key)
        risky = self.at_risk(rnd.key)
        # The keyboard wakes the loop 20 times a second: reuse the frame while it is right.
        key = (id(rnd), len(local), lost, self.warning_seconds, alerts,
               self.outbox.confirmations_revision, self.outbox.votes_revision, risky,
               self._vote_code_until, self._vote_code_hidden)
        if self._cache is not None:
            cached_key, since, until, cached = self._cache
            if cached_key == key and since <= now <= until:
                return cached
        table = self.table_now(rnd, now)
        players = players_now(dict(rnd.players), rnd.players_from,
                              begun(rnd.profile, rnd.schedule, rnd.table, now)
                              if rnd.players_from else None)
        fr = state.build(
            rnd.profile, rnd.schedule, now, table.presses, table.out, rnd.table,
            self.warning_seconds, lost, alerts=alerts, players=players,
        )
        if rnd.sheet and self.hub_url:
            fr = state.with_sheet(fr, self.hub_url.rstrip("/") + rnd.sheet)
        if rnd.sheet_before and self.hub_url:
            fr = state.with_sheet_before(fr, self.hub_url.rstrip("/") + rnd.sheet_before)
        words = fr.screen.words  # the event's language (``dipclock.i18n.words_of``)
        fr = state.with_result(fr, sheetlines.sheet_view(table, rnd.result,
                                                         self.confirmations(rnd), players,
                                                         words=words))
        fr = state.with_unsaved(fr, risky)
        fr = state.with_vote(fr, votescreen.view(rnd.vote, now, self.vote_presses(rnd),
                                                 players, [p.at for p in table.presses],
                                                 words=words))
        if rnd.sheet and self.hub_url:  # the vote page: the sheet's key, on the hub's address
            asked = [u for u in (self._vote_code_until, rnd.vote_code_until)
                     if u is not None and u != self._vote_code_hidden]
            fr = state.with_vote_code(fr, self.hub_url.rstrip("/") + state.vote_link(rnd.sheet),
                                      now, max(asked, default=None))
        self._cue(fr)
        self._cache = (key, now, now + timedelta(seconds=fr.valid_for) - _EPS, fr)
        return fr

    def _hear(self, words: Words) -> None:
        """The event's language, said by a round: the screens with no round speak it from
        now on, and the outbox keeps it for the next boot's first screens (a full or
        failing card only loses that: the clock runs on)."""
        if words == self.told:
            return
        self.told = self.words = words
        try:
            self.outbox.put(HEARD, heard(words))
        except sqlite3.Error as exc:
            log.warning("cannot keep the event's language for the next start: %s", exc)

    def _cue(self, fr: state.Frame) -> None:
        last, self._last = self._last, fr
        if self.sounds is None or last is None or last.view is None or fr.view is None:
            return
        if not 0 <= (fr.view.now - last.view.now).total_seconds() <= 5:
            return  # a jump (restart, resync), not the clock passing a moment
        was, now = last.screen.look, fr.screen.look
        passed = fr.view.previous is not None and (
            last.view.previous is None or fr.view.previous.ref != last.view.previous.ref
        )
        if passed:
            self.sounds.play("deadline")
        elif now == "writing" and was != "writing":
            self.sounds.play("writing")
        elif now == "warning" and was == "negotiating":
            self.sounds.play("warning")


def votes_for(rnd: Round, event: ButtonEvent) -> bool:
    """Whether ``event`` is a press of the table's open vote: its power's phone chose and
    the vote waits for that power's button (``TableVote.waiting_button``). A hold is never
    one (3 s on a button is a player leaving or back)."""
    vote = rnd.vote
    return (vote is not None and vote.state == "open" and event.kind == "press"
            and event.power in vote.waiting_button)


KEYS = {getattr(pygame, f"K_{c.lower()}"): c for c in LETTERS}
#: ``v`` shows the vote page's QR code to propose a game end, ``Esc`` hides it
#: (``Kiosk.show_vote_code``): on any keyboard, buttons from the keyboard or not
VOTE_KEYS = frozenset({pygame.K_v, pygame.K_ESCAPE})


def run(
    kiosk: Kiosk,
    display: Display,
    inputs: queue.Queue[object],
    mono: Callable[[], float] = time.monotonic,
    run_for: float | None = None,
    keyboard: KeyboardButtons | None = None,
    on_screen: Callable[[state.Frame, float], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> int:
    """The live loop; returns when the window is closed, ``run_for`` seconds have passed or
    ``stop()`` says so (the clock was unpaired: whoever stops it puts an item on ``inputs``).

    No busy waiting: between screen changes it blocks on the input queue (SDL's own
    event wait polls every millisecond under the console drivers). Keyboard buttons need
    SDL's events pumped, so with a keyboard the wait is cut to ``PUMP`` seconds.
    ``on_screen(frame, mono)`` is told of every new screen (``--status-file``). While no
    screen is connected the display draws nothing and the loop runs on: presses are
    recorded as ever, and the display draws the current frame once a screen is there.
    """
    painter = Painter()
    shown: state.Screen | None = None
    end = None if run_for is None else mono() + run_for
    pump = 0.05 if keyboard is not None else 1.0
    while True:
        now = mono()
        if (end is not None and now >= end) or stop():
            return 0
        fr = kiosk.frame(now)
        if fr.screen != shown:
            display.show(fr, painter)
            shown = fr.screen
            if on_screen is not None:
                on_screen(fr, now)
        display.look()
        timeout = min(fr.valid_for + 0.002, pump)
        if end is not None:
            timeout = min(timeout, max(0.0, end - now))
        try:
            item = inputs.get(timeout=timeout)
            while True:
                if isinstance(item, ButtonEvent):
                    kiosk.handle(item)
                item = inputs.get_nowait()
        except queue.Empty:
            pass
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT:
                return 0
            if ev.type == pygame.KEYDOWN and ev.key in VOTE_KEYS:  # any keyboard plugged in
                if ev.key == pygame.K_v:
                    kiosk.show_vote_code(mono())
                else:
                    kiosk.hide_vote_code()
            if keyboard is not None and ev.type == pygame.WINDOWFOCUSLOST:
                keyboard.cancel()  # a key up we'd never see
            if keyboard is not None and ev.type in (pygame.KEYDOWN, pygame.KEYUP):
                letter = KEYS.get(ev.key)
                if letter is not None:
                    if ev.type == pygame.KEYDOWN:
                        keyboard.key_down(letter, mono())
                    else:
                        keyboard.key_up(letter, mono())
        if keyboard is not None:
            keyboard.poll(mono())
