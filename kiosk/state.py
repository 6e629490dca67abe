"""What the table's screen shows: the core's screen model, plus what only a kiosk knows.

``build`` asks ``dipclock.screen.build`` (a pure function of event, schedule, presses and
moment) for the look, words and numbers, and adds the kiosk's own marks: the hub lost, a
box unplugged, a clock not verified. The screens with no round (``connecting``,
``looking_for_hub``, ``problem``) are the kiosk's alone. Tests assert on the ``Screen``;
``kiosk.draw`` only paints it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from dipclock import hallmessage
from dipclock import screen as core
from dipclock.events import EventProfile
from dipclock.i18n import ENGLISH, N_, Words, words_of
from dipclock.late import Pressed
from dipclock.phaseview import PhaseView
from dipclock.powers import LETTERS
from dipclock.schedule import Schedule
from dipclock.screen import BANNER_SECONDS, Chip, ChipState, clock_text, duration_text
from dipclock.sheetlines import SheetView
from dipclock.votescreen import VoteView
from machine.network import NetworkState

__all__ = [
    "BANNER_SECONDS", "Chip", "ChipState", "Frame", "Look", "Screen", "build", "clock_text",
    "connecting", "duration_text", "hub_line", "introduce", "looking_for_hub",
    "pairing", "problem", "with_card_notes", "with_message", "with_result", "with_sheet",
    "with_sheet_before", "with_unsaved", "with_vote", "with_vote_code",
]

Look = Literal[core.Look, "connecting", "problem"]


@dataclass(frozen=True)
class Screen:
    """Everything drawn, as text and a look; equal Screens draw identical frames.

    The heading is two texts: ``title`` (the round's, or a screen's own: "New clock") and
    ``table_name``, drawn at a size no long title shrinks (read from two metres)."""

    look: Look
    title: str  # "Round 2"
    table_name: str  # "Table 3"
    phase: str  # "Spring 1903"
    deadline: str  # "Deadline 10:17"
    label: str  # the stage in words
    big: str  # the remaining time, as large as the screen allows
    notes: tuple[str, ...]
    banner: str
    chips: tuple[Chip, ...]
    hub_lost: bool
    alerts: tuple[str, ...] = ()  # small marks: box unplugged, clock not verified, ...
    #: at game over, the address of the table's result sheet, drawn as a QR code (before a
    #: round set up in advance starts: the sheet of the round played before it)
    qr: str = ""
    #: the words under the code ("" for the round's own sheet: "Result sheet: scan")
    qr_caption: str = ""
    #: at game over, the table's result sheet for its players to check and confirm with
    #: their buttons (``dipclock.sheetlines``): drawn instead of the big words and the chips
    sheet: SheetView | None = None
    #: before the round, the table's players by power (``dipclock.screen.board_call``):
    #: drawn large beside the time to the start
    board_call: tuple[tuple[str, str], ...] = ()
    #: the TD's hall message, in a band across the top ("" when none shows)
    message: str = ""
    #: the table's game-end vote (``dipclock.votescreen``): a panel above the chips and a
    #: mark on each voter's chip, the countdown running on beside it (None: none shows)
    vote: VoteView | None = None
    #: the language the screen speaks (its event's, ``dipclock.i18n.words_of``): the words
    #: ``kiosk.draw`` adds itself ("Table", "Starts in", "hub lost") are said in it too. A
    #: screen with no event yet (connecting, pairing, a problem) speaks the card's
    #: (``kiosk.config.spoken``: the last event's, or the card's ``language`` setting).
    words: Words = field(default=ENGLISH)
    #: the players' vote page as a QR code beside the vote's panel (``with_vote_code``):
    #: while a vote is open, or for ``VOTE_CODE_SECONDS`` when asked ("" when none shows)
    vote_code: str = ""
    #: the words under it: "Vote: scan", or "Propose a game end: scan" when no vote is open
    vote_code_caption: str = ""

    @property
    def heading(self) -> str:
        """"Round 2 · Table 3"."""
        return core.heading_text(self.title, self.table_name)


@dataclass(frozen=True)
class Frame:
    """A screen and how long it stays right: the loop sleeps that long."""

    screen: Screen
    valid_for: float  # seconds until something on the screen changes (<= 1)
    view: PhaseView | None


def _waiting_chips(words: Words) -> tuple[Chip, ...]:
    """The seven powers' chips before any round: named, nothing pressed."""
    return tuple(Chip(c, words.power(c), "waiting", "", "") for c in LETTERS)


def connecting(table_name: str, hub_lost: bool, alerts: tuple[str, ...] = (),
               words: Words = ENGLISH) -> Frame:
    """No round to show yet: say why rather than show a made-up clock.

    Hub lost: it has not answered yet. Hub there: the TD has not set up the round.
    ``words``: the card's language (``kiosk.config.spoken``), there being no event yet.
    """
    label = words(WAITING_FOR_HUB if hub_lost else WAITING_FOR_TD)
    screen = Screen("connecting", "", table_name, "", "", label, "--:--", (), "",
                    _waiting_chips(words), hub_lost, tuple(alerts), words=words)
    return Frame(screen, 1.0, None)


def hub_line(address: str, discovered: bool = False, words: Words = ENGLISH) -> str:
    """"Hub 10.0.0.1:8000, found on the network": which hub this table talks to."""
    shown = address.removeprefix("http://").removeprefix("https://").rstrip("/")
    return (words("Hub {address}, found on the network", address=shown) if discovered
            else words("Hub {address}", address=shown))


#: What a table looking for its hub shows once its network works (``looking_for_hub``).
LOOKING = N_("Looking for the hub on the network")
#: The advice under it: true on a card (the hub card announces itself on its network), the
#: typed address only as a last resort.
HUB_ADVICE = N_("Start the hub card on this same network: it is found by itself. Last "
                "resort: hub = https://ADDRESS:8000 in dipclock.txt")
#: The labels of the screens of a table that has no hub answering yet (``with_network``).
WAITING_FOR_HUB = N_("Waiting for the hub")
ASKING_FOR_CODE = N_("Asking the hub for a pairing code")
#: ... and of one whose hub answers, with no round set up yet
WAITING_FOR_TD = N_("Waiting for the TD to set up the round")
#: A fix, as the screens with no round say it under what is wrong
FIX = N_("Fix: {fix}")


def looking_for_hub(table: int | None, alerts: tuple[str, ...] = (),
                    network: NetworkState | None = None, words: Words = ENGLISH) -> Frame:
    """A kiosk with no hub address browses the network (mDNS) for its hub.

    With no working network there is nothing to browse: the network's state and its fix
    instead (a wrong Wi-Fi password is fixed in dipclock.txt, not with a hub address). Once
    connected, the card's address and name, then the hub advice. ``network`` None: not read
    yet (the hub advice alone).
    """
    notes: tuple[str, ...]
    if network is not None and network.kind != "connected":
        label, notes = network.words(words), (words(FIX, fix=network.fix(words)),)
    else:
        label = words(LOOKING)  # one note: wrapped, drawn larger than two one to a line
        advice = words(HUB_ADVICE)  # two whole sentences, each said in the language
        notes = (f"{network.words(words)}. {advice}" if network is not None else advice,)
    screen = Screen("connecting", "", _table_heading(table, words), "", "", label, "--:--",
                    notes, "", _waiting_chips(words), False, tuple(alerts), words=words)
    return Frame(screen, 1.0, None)


def with_network(frame: Frame, network: NetworkState | None) -> Frame:
    """A table whose hub does not answer (its typed address, or the one it found) and whose
    network is down says so, with the fix, instead of only waiting for the hub."""
    screen = frame.screen
    words = screen.words
    if (network is None or network.kind == "connected" or screen.look != "connecting"
            or screen.label not in (words(WAITING_FOR_HUB), words(ASKING_FOR_CODE))):
        return frame
    notes = (*screen.notes[:1], words(FIX, fix=network.fix(words)))
    return replace(frame, screen=replace(screen, label=network.words(words), notes=notes))


def pairing(table: int | None, code: str | None, hub: str, fingerprint: str | None,
            note: str | None = None, words: Words = ENGLISH) -> Frame:
    """A clock not yet paired shows the code the TD approves it with (``kiosk.pairing``).

    The code is the big text, read from across the table; the hub and its certificate's
    fingerprint are named, so the TD sees which hub this clock asked and can check it is
    theirs. Before the hub has given a code: dashes, and why if something is wrong.
    ``hub`` and ``note`` come said in ``words`` (``hub_line``, the kiosk's own notes)."""
    label = (words("Pair this clock: the TD enters this code on the dashboard, under Clocks")
             if code else words(ASKING_FOR_CODE))
    notes = [hub]
    if fingerprint:
        notes.append(words("Hub certificate {fingerprint}", fingerprint=fingerprint))
    if note:
        notes.append(note)
    title, asked = (("", words("Table {number}?", number=table)) if table is not None
                    else (words("New clock"), ""))
    screen = Screen("connecting", title, asked, "", "", label, code or "---  ---",
                    tuple(notes), "", _waiting_chips(words), False, words=words)
    return Frame(screen, 1.0, None)


def problem(what: str, fix: str, table: int | None = None, words: Words = ENGLISH) -> Frame:
    """The kiosk cannot start: what is wrong and the fix, for the TD called to the table.

    Drawn instead of a clock (a wrong clock is worse than none); the kiosk stays up on it
    and starts over when a settings file changes. ``what`` and ``fix`` come said in
    ``words`` (``kiosk.problems.Problem.shown``).
    """
    screen = Screen("problem", "" if table is not None else "dipclock",
                    _table_heading(table, words), "", "",
                    words("This clock cannot start: please call the TD"), "",
                    (what, words(FIX, fix=fix)), "", (), False, words=words)
    return Frame(screen, 1.0, None)


def with_card_notes(frame: Frame, notes: tuple[str, ...]) -> Frame:
    """The card's notes on its settings (a line of dipclock.txt not used and the fix,
    Imager's settings ignored) among the alerts of every screen but a start-up problem: the
    clock works meanwhile, and the TD learns which line to correct, and where."""
    screen = frame.screen
    if screen.look == "problem" or not notes:
        return frame
    added = tuple(n for n in notes if n not in screen.alerts)
    if not added:
        return frame
    return replace(frame, screen=replace(screen, alerts=(*screen.alerts, *added)))


def _table_heading(table: int | None, words: Words = ENGLISH) -> str:
    return core.table_words(table, words) if table is not None else ""


def introduce(frame: Frame, table: int | None, hub: str) -> Frame:
    """Before a round (waiting, or counting down to the start), name the table and its hub.

    A TD walking a hall of cloned cards checks each screen against the seating plan.
    """
    screen = frame.screen
    if screen.look not in ("connecting", "before_start"):
        return frame
    named = screen.table_name or ("" if screen.title else _table_heading(table, screen.words))
    notes = screen.notes if not hub or hub in screen.notes else (*screen.notes, hub)
    if (named, notes) == (screen.table_name, screen.notes):
        return frame
    return replace(frame, screen=replace(screen, table_name=named, notes=notes))


def with_sheet(frame: Frame, url: str) -> Frame:
    """At game over, the table's result sheet as a QR code beside the final words: the
    players scan it and enter the centres there (``server.routers.results``)."""
    if frame.screen.look != "game_over" or not url or frame.screen.qr == url:
        return frame
    return replace(frame, screen=replace(frame.screen, qr=url))


def with_sheet_before(frame: Frame, url: str) -> Frame:
    """Before the round starts, the QR code of the table's sheet in the round played before
    it, named: a round set up in advance must not take the code from the players still
    entering that one. From the start on, the round's own code (``with_sheet``)."""
    found = re.search(r"/sheet/(\d+)/", url)
    if frame.screen.look != "before_start" or found is None or frame.screen.qr == url:
        return frame
    caption = frame.screen.words("Round {number} sheet: scan", number=int(found[1]))
    return replace(frame, screen=replace(frame.screen, qr=url, qr_caption=caption))


def with_result(frame: Frame, sheet: SheetView | None) -> Frame:
    """At game over, the sheet the players entered, each line to confirm with its power's
    button; a confirmation made on this clock is the banner while it is the latest press."""
    if frame.screen.look != "game_over" or sheet is None or frame.screen.sheet == sheet:
        return frame
    banner = sheet.banner or frame.screen.banner
    return replace(frame, screen=replace(frame.screen, sheet=sheet, banner=banner))


#: The looks a vote's panel is drawn on: a round under way (before it, a board call or a
#: pause of the whole hall has no vote; at game over the result is the screen's own label).
VOTE_LOOKS = frozenset({"negotiating", "warning", "writing", "late", "paused", "held",
                        "adjudicating"})


def with_vote(frame: Frame, vote: VoteView | None) -> Frame:
    """The table's vote (``dipclock.votescreen.view``) on a clock that is counting: its
    panel and marks, and what this clock's last vote press did as the banner. The frame is
    redrawn no later than the moment the view changes by itself (a banner, a result gone)."""
    if vote is None or frame.screen.look not in VOTE_LOOKS:
        return frame
    banner = vote.banner or frame.screen.banner
    valid = frame.valid_for if vote.valid_for is None else min(frame.valid_for,
                                                               vote.valid_for)
    screen = replace(frame.screen, vote=vote, banner=banner)
    return replace(frame, screen=screen, valid_for=max(0.001, valid))


#: The words under the vote page's code while a vote is open: each voter scans it
VOTE_CODE_CAPTION = N_("Vote: scan")
#: ... and when asked for, to propose
PROPOSE_CODE_CAPTION = N_("Propose a game end: scan")
#: The vote's panel while the code shows to propose (no vote open): what the players do
PROPOSE_HEADLINE = N_("Propose a game end from your phone")
PROPOSE_STATUS = N_("Scan the code, then press your power's button")


def vote_link(sheet: str) -> str:
    """The players' vote page of a table ("/vote/2/14#key"): its result sheet's link
    ("/sheet/2/14#key") with the same key (``server.routers.pages``)."""
    return re.sub(r"^(\w+://[^/]*)?/sheet/", r"\1/vote/", sheet, count=1)


def with_vote_code(frame: Frame, url: str, now: datetime,
                   until: datetime | None = None) -> Frame:
    """The vote page's QR code beside the vote's panel on a clock that is counting (the
    looks of ``with_vote``): while the table's vote is open (a proposal waiting for its
    proposer's button too), "Vote: scan", so each voter reaches it at once; else until
    ``until`` (hub time: the key ``v`` or the TD asked), "Propose a game end: scan". The
    frame is then redrawn no later than the moment it goes."""
    screen = frame.screen
    if not url or screen.look not in VOTE_LOOKS or screen.sheet is not None \
            or screen.board_call:
        return frame
    voting = screen.vote is not None and screen.vote.state == "open"
    if voting:
        return replace(frame, screen=replace(screen, vote_code=url,
                                             vote_code_caption=screen.words(VOTE_CODE_CAPTION)))
    if until is None or now >= until:
        return frame
    left = max(0.001, min(frame.valid_for, (until - now).total_seconds()))
    return replace(frame, screen=replace(screen, vote_code=url,
                                         vote_code_caption=screen.words(PROPOSE_CODE_CAPTION)),
                   valid_for=left)


#: A chip's note while its power's press is held in memory only (the clock's card is full)
#: and the hub has not taken it yet: a power cut would lose it, so it is not "IN".
UNSAVED = N_("NOT SAVED")


def with_unsaved(frame: Frame, powers: Collection[str]) -> Frame:
    """The chips of ``powers``, whose presses this clock could not save (a full card) and
    the hub does not have yet, say "NOT SAVED" instead of "IN": the press counts, and is
    sent as soon as it can be, but is not acknowledged as kept (the alert says why)."""
    note = frame.screen.words(UNSAVED)
    chips = tuple(replace(c, note=note) if c.letter in powers else c
                  for c in frame.screen.chips)
    if chips == frame.screen.chips:
        return frame
    return replace(frame, screen=replace(frame.screen, chips=chips))


def with_message(frame: Frame, message: hallmessage.HallMessage | None, now: datetime
                 ) -> Frame:
    """The TD's hall message across the top of any screen but a start-up problem, while
    it shows at ``now`` (hub time: ``dipclock.hallmessage.shown``); the frame is then
    redrawn no later than the moment it goes."""
    if frame.screen.look == "problem":
        return frame
    up = hallmessage.shown(message, now)
    left = hallmessage.seconds_left(up, now)
    valid = frame.valid_for if left is None else max(0.001, min(frame.valid_for, left))
    text = up.text if up is not None else ""
    if text == frame.screen.message and valid == frame.valid_for:
        return frame
    return replace(frame, screen=replace(frame.screen, message=text), valid_for=valid)


def build(
    profile: EventProfile,
    schedule: Schedule,
    now: datetime,
    presses: Sequence[Pressed] = (),
    out: Collection[str] = (),
    table: int | None = None,
    warning_seconds: float = core.WARNING_SECONDS,
    hub_lost: bool = False,
    banner_seconds: float = BANNER_SECONDS,
    alerts: tuple[str, ...] = (),
    players: Mapping[str, str] | None = None,
) -> Frame:
    """The screen of ``table`` at ``now`` (hub local time): ``dipclock.screen.build``;
    ``players`` (letter -> name) are the table's seated players, named when late. Every
    word is in the event's language (``dipclock.i18n.words_of``)."""
    words = words_of(profile)
    s = core.build(profile, schedule, now, presses, out, table, warning_seconds, banner_seconds,
                   players=players, words=words)
    shown = Screen(s.look, s.title, s.table_name, s.phase, s.deadline, s.label, s.big,
                   s.notes, s.banner, s.chips, hub_lost, tuple(alerts),
                   board_call=s.board_call, words=words)
    return Frame(shown, s.valid_for, s.view)
