"""``python -m kiosk.screenshots OUTDIR [--size 1280x720]``: a PNG of each main stage.

The scenes are real rounds of the built-in events at chosen moments, drawn by the live
screen's own code; the tests draw the same scenes at the smallest and largest sizes. Beside
them, ``PORTRAIT``: one scene on a TV mounted on its side (``portrait.png``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from dipclock import sheetlines, votescreen  # noqa: E402
from dipclock.events import BUILTIN  # noqa: E402
from dipclock.hallmessage import HallMessage  # noqa: E402
from dipclock.i18n import ENGLISH, Said, Words, said, words_of  # noqa: E402
from dipclock.late import powers_out  # noqa: E402
from dipclock.schedule import Pause, PhaseRef, Schedule, VotedEnd  # noqa: E402
from dipclock.scoring import GameResult, score_game  # noqa: E402
from dipclock.scoring.result import parse_centres  # noqa: E402
from dipclock.snapshot import TableResult, TableVote  # noqa: E402
from kiosk import state  # noqa: E402
from kiosk.about import BOX_UNPLUGGED  # noqa: E402
from kiosk.app import CLOCK_ALERT  # noqa: E402
from kiosk.config import parse_size  # noqa: E402
from kiosk.draw import Drawn, Painter, render  # noqa: E402
from kiosk.outbox import StoredConfirmation, StoredPress, StoredVotePress  # noqa: E402
from machine.network import NetworkState  # noqa: E402

DAY = "2019-09-06"


def _t(hms: str) -> datetime:
    return datetime.fromisoformat(f"{DAY}T{hms}")


@dataclass(frozen=True)
class Scene:
    name: str
    event: str
    at: datetime
    presses: tuple[tuple[str, str], ...] = ()  # (power, HH:MM:SS)
    holds: tuple[tuple[str, str], ...] = ()
    pauses: tuple[Pause, ...] = ()
    last_year: int | None = None
    title: str = "Round 2"
    hub_lost: bool = False
    #: the shell's alert lines, said in the event's language as the kiosk says them
    alerts: tuple[Said | str, ...] = ()
    #: a screen with no round yet, in the card's language (``kiosk.config.spoken``): the
    #: scene's ``language`` stands for it
    before_round: Callable[[Words], state.Frame] | None = None
    extra: dict[str, object] = field(default_factory=dict)
    board: bool = False  # the event on board clocks (a club night), not a central clock
    sheet: str = ""  # the result sheet's address, as the hub gives it (game over: a QR code)
    #: the last round's sheet's address: a round set up in advance shows its code until it
    #: starts
    sheet_before: str = ""
    result: TableResult | None = None  # the sheet as entered, in the hub's snapshot
    players: tuple[tuple[str, str], ...] = ()  # (power, player) as the TD seated the table
    #: lines confirmed on this clock: (power, "pending" | "taken" | "refused", HH:MM:SS)
    confirmed_here: tuple[tuple[str, sheetlines.SentState, str], ...] = ()
    message: str = ""  # the TD's hall message, set a minute before ``at``, until cleared
    vote: TableVote | None = None  # the table's game-end vote, in the hub's snapshot
    #: vote presses made on this clock: (power, "pending" | "taken" | "refused", HH:MM:SS)
    vote_sent: tuple[tuple[str, sheetlines.SentState, str], ...] = ()
    ends: tuple[VotedEnd, ...] = ()  # games a passed vote ended (``Schedule.ends``)
    #: the event's language (``language = "fr"`` in its file): every word the table shows
    language: str = "en"
    #: the players' vote page's address (``state.vote_link``): its QR code beside the vote's
    #: panel while the vote is open, or until ``vote_code_until`` to propose
    vote_code: str = ""
    vote_code_until: datetime | None = None

    def frame(self) -> state.Frame:
        if not self.message:
            return self._frame()
        told = HallMessage(text=self.message, since=_t("09:00:00"))
        return state.with_message(self._frame(), told, self.at)

    def _frame(self) -> state.Frame:
        if self.before_round is not None:
            return self.before_round(Words(self.language))
        profile = BUILTIN[self.event].model_copy(update={"language": self.language})
        if self.board:
            profile = profile.model_copy(update={"central_clock": False})
        schedule = Schedule(start=_t("10:00:00"), last_year=self.last_year,
                            pauses=self.pauses, title=self.title, ends=self.ends)
        presses = [StoredPress(f"p{i}", "", p, "press", _t(w))
                   for i, (p, w) in enumerate(self.presses)]
        presses += [StoredPress(f"h{i}", "", p, "hold", _t(w))
                    for i, (p, w) in enumerate(self.holds)]
        presses.sort(key=lambda p: p.at)
        out = powers_out(profile, presses, schedule.start, now=self.at)
        players = dict(self.players)
        alerts = tuple(a.in_(words_of(profile)) if isinstance(a, Said) else a
                       for a in self.alerts)
        frame = state.build(profile, schedule, self.at, presses, out, table=3,
                            hub_lost=self.hub_lost, alerts=alerts, players=players)
        frame = state.with_sheet(frame, self.sheet)
        frame = state.with_sheet_before(frame, self.sheet_before)
        round_no = self.result.round if self.result else 1
        version = self.result.version if self.result else 1
        mine = [StoredConfirmation(f"c{i}", "hub", round_no, p, version, _t(w), state=s)
                for i, (p, s, w) in enumerate(self.confirmed_here)]
        table = sheetlines.TableNow(profile, schedule, self.at, presses, out, 3)
        words = frame.screen.words  # the event's language (``dipclock.i18n.words_of``)
        frame = state.with_result(frame, sheetlines.sheet_view(table, self.result, mine,
                                                               players, words=words))
        sent = [StoredVotePress(f"v{i}", "hub", self.vote.id, p, _t(w), state=s)
                for i, (p, s, w) in enumerate(self.vote_sent)] if self.vote else []
        frame = state.with_vote(frame, votescreen.view(self.vote, self.at, sent, players,
                                                       [p.at for p in presses], words=words))
        frame = state.with_vote_code(frame, self.vote_code, self.at, self.vote_code_until)
        return state.introduce(frame, 3, state.hub_line("10.0.0.1:8000", discovered=True))


def sheet(centres: str, ending: str = "", solo: str | None = None,
          draw: tuple[str, ...] = (), eliminated: dict[str, int] | None = None,
          confirmed: str = "", **fields: object) -> TableResult:
    """A wdc2006 sheet of Fall 1909, scored by the core as the hub scores it."""
    result = GameResult(parse_centres(centres), 1909, solo=solo, draw=frozenset(draw) or None,
                        eliminated=eliminated or {})
    scores = {p: round(v, 2) for p, v in score_game("manorcon", result, 18).items()}
    args: dict[str, object] = {
        "round": 5, "version": 2, "year": 1909, "centres": dict(result.centres),
        "ending": ending or "A draw of all survivors", "scores": scores,
        "confirmed": tuple(confirmed)} | fields
    return TableResult.model_validate(args)


SEATED = (("A", "Ann Smith"), ("E", "Bob Jones"), ("F", "Claire Dubois"),
          ("G", "Dieter Weiss"), ("I", "Elena Rossi"), ("R", "Fyodor Petrov"),
          ("T", "Gül Yilmaz"))
#: Players whose names are in other scripts (``docs/languages.md``): Greek, Chinese, Thai,
#: Cyrillic and Arabic, drawn with the Noto fonts where pygame's own has no letter
SCRIPTS = (("A", "Ann Smith"), ("E", "Γιώργος Παππάς"), ("F", "王伟"),
           ("G", "Dieter Weiss"), ("I", "สมชาย ใจดี"), ("R", "Елена Смирнова"),
           ("T", "محمد علي"))


def vote(state: str, form: str, words: str, period: str, proposer: str | None = None,
         voters: str = "", voted: str = "", absent: str = "", waiting_button: str = "",
         headline: str = "", at: str = "12:45:00", closed_at: str | None = None,
         queued: int = 0) -> TableVote:
    """A table's vote as the hub's snapshot carries it (powers as letters: "AEF")."""
    return TableVote.model_validate({
        "id": 4, "state": state, "form": form, "words": words, "period": period,
        "proposer": proposer, "voters": tuple(voters), "voted": tuple(voted),
        "absent": tuple(absent), "waiting_button": tuple(waiting_button),
        "headline": headline, "at": _t(at), "queued": queued,
        "closed_at": _t(closed_at) if closed_at else None})


def dias(state: str = "open", **fields: Any) -> TableVote:
    """A draw of all survivors proposed in Spring 1906 at wdc2006 (the negotiation after
    the Fall 1905 adjudication), Germany out of the game."""
    return vote(state, "dias", "a draw of all survivors", "Spring 1906", **fields)


PASSED = "Draw agreed, Spring 1906: the 1905 centre chart counts"


def _boot_file_notes() -> tuple[str, ...]:
    """A card's dipclock.txt with a typo on line 2, as its table's screen says it."""
    from machine.identity import parse_boot_lines, refusal_notes

    boot = parse_boot_lines("table = 3\ntabel = 3\n", Path("/boot/firmware/dipclock.txt"))
    return refusal_notes(boot.refused)


SCENES: tuple[Scene, ...] = (
    Scene("before-start", "wdc2006", _t("09:52:10"), title="Round 1"),
    # the board call: the table seated, the round not started (dipclock.screen.board_call)
    Scene("board-call", "wdc2019", _t("09:52:10"), title="Round 2", players=SEATED),
    # round 2 set up in advance: round 1's result sheet code stays up until round 2 starts
    Scene("board-call-last-sheet", "wdc2019", _t("09:52:10"), title="Round 2", players=SEATED,
          sheet_before="https://10.0.0.1:8000/sheet/1/3#k3hv7qz2mxw4pa6d"),
    # names in other scripts on the board call (kiosk.fonts: Noto where pygame's font lacks)
    Scene("names-scripts", "wdc2019", _t("09:52:10"), title="Round 2", players=SCRIPTS),
    Scene("negotiating", "wdc2003", _t("11:40:00"),
          presses=tuple((p, f"11:33:{10 + 5 * i}") for i, p in enumerate("AEFGIRT"))
          + (("A", "11:38:00"), ("F", "11:38:20"), ("R", "11:39:00"))),
    Scene("last-minutes", "wdc2006", _t("14:31:36"),
          presses=(("E", "14:30:00"), ("T", "14:31:00"))),
    Scene("writing", "wdc2019", _t("10:17:30"),
          presses=(("A", "10:17:05"), ("G", "10:17:12"), ("I", "10:17:20"))),
    Scene("late-orders", "graduated20", _t("10:20:17"),
          presses=(("A", "10:19:10"), ("E", "10:19:30"), ("F", "10:19:50"), ("G", "10:19:58"),
                   ("I", "10:20:12")),
          holds=(("T", "10:05:00"),)),
    # every power handed in before the break ("after submission and before adjudication")
    Scene("meal-break", "wdc2003", _t("11:05:30"),
          presses=tuple((p, f"10:19:{10 + 5 * i}") for i, p in enumerate("AEFGIRT"))
          + tuple((p, f"10:36:{10 + 5 * i}") for i, p in enumerate("AEFGIRT")),
          pauses=(Pause(at_deadline=PhaseRef.parse("F1901"), minutes=60, reason="Meal break"),)),
    Scene("paused-while-late", "graduated20", _t("10:45:00"),
          presses=(("A", "10:19:10"), ("E", "10:19:30"), ("F", "10:19:50"), ("G", "10:19:58"),
                   ("T", "10:20:12")),
          pauses=(Pause(at=_t("10:20:40"), minutes=60, reason="Lunch"),)),
    Scene("held", "wdc2019", _t("10:09:00"),
          pauses=(Pause(at=_t("10:06:40"), minutes=5, table=3),)),
    Scene("board-adjudicating", "wdc2006", _t("10:22:40"), board=True, title="Club night",
          presses=tuple((p, f"10:16:{10 + 5 * i}") for i, p in enumerate("AEFGIRT"))),
    Scene("game-over", "wdc2006", _t("15:20:00"), last_year=1909, title="Round 5",
          sheet="https://10.0.0.1:8000/sheet/5/3#k7qm2x4pd9ralz3n"),
    Scene("game-over-sheet", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
          sheet="https://10.0.0.1:8000/sheet/5/3#k7qm2x4pd9ralz3n", players=SEATED,
          result=sheet("A=5,E=4,F=6,G=0,I=7,R=6,T=6", eliminated={"G": 1905},
                       confirmed="AFR"),
          confirmed_here=(("E", "pending", "15:31:00"),)),
    # the TD's hall message across the top; the countdown stays the largest thing
    Scene("hall-message", "wdc2003", _t("11:40:00"),
          presses=(("A", "11:38:00"), ("F", "11:38:20"), ("R", "11:39:00")),
          message="Lunch in the bar after this phase; round 3 board call on the projector "
                  "at 14:00"),
    # a game-end vote: the countdown runs on (wdc2018: "The clock DOES NOT STOP"), a panel
    # above the chips says what is proposed and what the table waits for, each voter's chip
    # its part in words; who has voted, never how (dipclock.votescreen)
    Scene("vote-open", "graduated20", _t("13:06:30"), title="Round 2", players=SEATED,
          presses=tuple((p, f"12:59:{10 + 5 * i}") for i, p in enumerate("AEFGIRT"))
          + (("A", "13:02:10"), ("R", "13:04:40")),
          vote=vote("open", "concede:F", "a concession to France", "Fall 1905", "E",
                    voters="AEFIRT", voted="AER", absent="T", at="13:03:00", queued=1)),
    # France's phone chose: the vote waits for France's button; Italy's press just sent
    Scene("vote-waiting-button", "wdc2006", _t("12:47:10"), title="Round 2", players=SEATED,
          vote=dias(proposer="A", voters="AEFIRT", voted="AER",
                    waiting_button="FI"),
          vote_sent=(("I", "pending", "12:47:07"),)),
    # a phone's proposal opens the ballot on its proposer's button
    Scene("vote-proposed", "wdc2019", _t("12:38:00"), title="Round 2",
          presses=tuple((p, f"12:33:{10 + 5 * i}") for i, p in enumerate("AEFGIRT")),
          vote=vote("open", "dias", "a draw of all survivors", "Fall 1905", "A",
                    waiting_button="A", at="12:37:40")),
    # the vote page's QR code beside the panel while the vote is open: each voter scans it
    Scene("vote-code", "wdc2006", _t("12:46:20"), title="Round 2", players=SEATED,
          vote=dias(proposer="A", voters="AEFIRT", voted="AE"),
          vote_code="https://10.0.0.1:8000/vote/2/3#k7qm2x4pdzralz3n"),
    Scene("vote-vetoed", "wdc2006", _t("12:50:00"), title="Round 2", players=SEATED,
          vote=dias("vetoed", proposer="A", voters="AEFIRT", voted="AE",
                    headline="Draw vetoed by France: the game goes on",
                    closed_at="12:49:00")),
    # passed: the game is over on the clock, the result its label, the sheet's code beside
    Scene("vote-passed", "wdc2006", _t("12:53:30"), title="Round 2", players=SEATED,
          sheet="https://10.0.0.1:8000/sheet/2/3#k7qm2x4pdzralz3n",
          vote=dias("passed", proposer="A", voters="AEFIRT", voted="AEFIRT",
                    headline=PASSED, closed_at="12:52:00"),
          ends=(VotedEnd(at=_t("12:52:00"), table=3, headline=PASSED),)),
    Scene("hub-lost", "wdc2018", _t("10:06:12"), hub_lost=True,
          presses=(("I", "10:05:00"),)),
    Scene("alerts", "wdc2019", _t("10:08:40"), hub_lost=True,
          presses=(("A", "10:08:35"),),
          alerts=(Said(CLOCK_ALERT), Said(BOX_UNPLUGGED),
                  said("Another kiosk ({address}) also says it is table {table}",
                       address="192.168.100.123", table=3))),
    Scene("waiting-for-the-round", "wdc2019", _t("09:00:00"),
          before_round=lambda words: state.introduce(
              state.connecting("", False, (words(BOX_UNPLUGGED),), words=words), 3,
              state.hub_line("http://10.0.0.1:8000", discovered=True, words=words))),
    Scene("looking-for-the-hub", "wdc2019", _t("09:00:00"),
          before_round=lambda words: state.looking_for_hub(3, network=NetworkState(
              "connected", ("10.0.0.23",), "dipclock-table-3", "Hall B", "wlan0"),
              words=words)),
    # a wrong Wi-Fi password: said, with its fix, instead of looking for the hub
    Scene("wifi-wrong-password", "wdc2019", _t("09:00:00"),
          before_round=lambda words: state.looking_for_hub(3, network=NetworkState(
              "wifi_wrong_password", (), "dipclock-table-3", "Hall B", "wlan0"),
              words=words)),
    # a new clock shows the code the TD approves it with, and which hub it asked
    Scene("pairing", "wdc2019", _t("09:00:00"),
          before_round=lambda words: state.pairing(
              3, "K7P-2QX", state.hub_line("https://10.0.0.1:8000", discovered=True,
                                           words=words),
              "3F:9A:C2:11:7B:E0:54:D8", words=words)),
    Scene("cannot-start", "wdc2019", _t("09:00:00"), before_round=lambda words: _cannot_start(
        words)),
    # a typo in dipclock.txt costs its line only: the clock runs, and says which and the fix
    Scene("boot-file-line-not-used", "wdc2019", _t("10:08:40"), presses=(("A", "10:08:35"),),
          alerts=_boot_file_notes()),
)


def _cannot_start(words: Words = ENGLISH) -> state.Frame:
    """A kiosk.toml with a mistake, worded as the kiosk words it (the file's name and the
    setting's stay as they are, the TD looks for them in the file; pydantic's problem is
    said in the screen's language)."""
    from kiosk.config import ConfigError, validate
    from kiosk.startup import problem_for

    try:
        validate({"warning_minutes": "soon"}, "/etc/dipclock/kiosk.toml")
    except ConfigError as exc:
        found = problem_for(exc, Path("/etc/dipclock/kiosk.toml"))
        return state.problem(*found.shown(words), words=words)
    raise AssertionError("warning_minutes = 'soon' is a mistake")



#: The portrait screenshot: (file stem, scene, size), a 1080p TV on its side (rotate = 90).
PORTRAIT = ("portrait", "late-orders", (1080, 1920))

#: The table's screen in the event's language (``language`` in its file): a French and a
#: German table negotiating, a power late (``docs/languages.md``)
LANGUAGE_SCENES: tuple[Scene, ...] = tuple(
    Scene(f"table-{lang}", "wdc2019", _t("10:31:00"), language=lang,
          presses=tuple((p, f"10:17:{10 + 5 * i}") for i, p in enumerate("AEFGIR"))
          + (("T", "10:18:20"), ("A", "10:29:00"), ("F", "10:29:40"), ("R", "10:30:10")))
    for lang in ("fr", "de"))


def draw(scene: Scene, size: tuple[int, int], painter: Painter | None = None
         ) -> tuple[pygame.Surface, list[Drawn], state.Screen]:
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size)
    screen = scene.frame().screen
    return surface, render(surface, screen, painter or Painter()), screen


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kiosk.screenshots", description=__doc__)
    p.add_argument("outdir")
    p.add_argument("--size", default="1280x720")
    p.add_argument("--only", nargs="+", metavar="NAME",
                   choices=[s.name for s in (*SCENES, *LANGUAGE_SCENES)],
                   help="draw these scenes alone (without the portrait one)")
    args = p.parse_args(argv)
    out = Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    painter = Painter()
    stem, name, size = PORTRAIT
    shots = [(scene.name, scene, parse_size(args.size)) for scene in (*SCENES,
                                                                      *LANGUAGE_SCENES)
             if not args.only or scene.name in args.only]
    if not args.only:
        shots.append((stem, next(s for s in SCENES if s.name == name), size))
    for stem, scene, size in shots:
        surface, _, _ = draw(scene, size, painter)
        path = out / f"{stem}.png"
        pygame.image.save(surface, str(path))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
