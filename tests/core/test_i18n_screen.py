"""The table's screen in the event's language (issue 38): with ``language = "fr"`` (and
"de", "it", "nl") in the event's file, every stage of the table's screen, its vote panel and
its result sheet show no English word a player reads, and the powers and seasons are the
language's; the pseudo-language ``xx`` (every string accented, bracketed, 40 % longer)
leaves no English word at all, so a word that skips the catalogue is seen at once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from dipclock import sheetlines, votescreen
from dipclock.events import BUILTIN, EventError, EventProfile, parse_event_toml
from dipclock.i18n import ENGLISH, LANGUAGES, PSEUDO, SEASONS, TERMS, Words, words_of
from dipclock.late import Press, Pressed, powers_out
from dipclock.penalties import penalty
from dipclock.powers import LETTERS
from dipclock.schedule import Pause, PhaseRef, Schedule, VotedEnd
from dipclock.screen import build
from dipclock.snapshot import TableResult, TableVote
from machine.network import NetworkState

DAY = "2019-09-06"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def t(hms: str) -> datetime:
    return datetime.fromisoformat(f"{DAY}T{hms}")


@dataclass(frozen=True)
class Stage:
    """A table at one moment: a built-in event's round, its presses and holds."""

    name: str
    event: str
    at: str
    presses: tuple[tuple[str, str], ...] = ()
    holds: tuple[tuple[str, str], ...] = ()
    pauses: tuple[Pause, ...] = ()
    last_year: int | None = None
    board: bool = False
    call: str | None = None
    ends: tuple[VotedEnd, ...] = ()

    def texts(self, words: Words) -> list[str]:
        """Every text the table's screen shows, in ``words``' language."""
        profile, schedule, presses, out = self.round(words)
        s = build(profile, schedule, t(self.at), presses, out, table=3,
                  players=SEATED, words=words)
        texts = [s.title, s.table_name, s.phase, s.deadline, s.label, s.big, *s.notes,
                 s.banner, *(p for p, _ in s.board_call)]
        for c in s.chips:
            texts += [c.name, c.note, c.detail]
        return [_without_players(x) for x in texts]

    def round(self, words: Words) -> tuple[EventProfile, Schedule, list[Pressed], set[str]]:
        profile = BUILTIN[self.event].model_copy(update={"language": words.lang})
        if self.board:
            profile = profile.model_copy(update={"central_clock": False})
        schedule = Schedule(start=t("10:00:00"), last_year=self.last_year, pauses=self.pauses,
                            title="Round 2", call=t(self.call) if self.call else None,
                            ends=self.ends)
        presses: list[Pressed] = [Press(p, t(w)) for p, w in self.presses]
        presses += [Press(p, t(w), "hold") for p, w in self.holds]
        presses.sort(key=lambda p: p.at)
        return profile, schedule, presses, set(powers_out(profile, presses, schedule.start,
                                                          now=t(self.at)))


#: The table's players: their names are theirs in every language, so left out of the check
SEATED = {"A": "Ann Smith", "E": "Bob Jones", "F": "Claire Dubois", "G": "Dieter Weiss",
          "I": "Elena Rossi", "R": "Fyodor Petrov", "T": "Gul Yilmaz"}


def _without_players(text: str) -> str:
    for name in SEATED.values():
        text = text.replace(name, "")
    return text


EVERYONE = "AEFGIRT"
PASSED = "Draw agreed, Spring 1906: the 1905 centre chart counts"

STAGES = (
    Stage("before-start", "wdc2006", "09:52:10"),
    Stage("negotiating", "wdc2003", "11:40:00",
          presses=tuple((p, f"11:33:{10 + 5 * i}") for i, p in enumerate(EVERYONE))
          + (("A", "11:38:00"), ("F", "11:38:20"), ("R", "11:39:00"))),
    Stage("last-minutes", "wdc2006", "14:31:36", presses=(("E", "14:30:00"),)),
    Stage("writing", "wdc2019", "10:17:30", presses=(("A", "10:17:05"), ("G", "10:17:12"))),
    # late, each penalty model: one power just in late (its banner), the rest still late
    *(Stage(f"late-{event}", event, "10:20:40", presses=(("A", "10:19:10"),
                                                          ("F", "10:20:38")),
            holds=(("T", "10:05:00"),))
      for event in BUILTIN),
    # a second late submission: the red card, the repeat's words
    Stage("late-again", "wdc2019", "10:36:45",
          presses=(("A", "10:18:20"), *((p, "10:17:00") for p in "EFGIRT"),
                   ("A", "10:36:40"))),
    Stage("late-graduated", "graduated20", "10:21:50", presses=(("A", "10:21:40"),)),
    Stage("a-second-press", "wdc2019", "10:18:02", presses=(("A", "10:17:58"),
                                                           ("A", "10:18:01"))),
    Stage("not-started", "wdc2019", "09:58:00", presses=(("A", "09:57:58"),)),
    Stage("back-in", "wdc2019", "10:06:00", holds=(("T", "10:02:00"), ("T", "10:05:57"))),
    Stage("goes-out", "wdc2019", "10:06:00", holds=(("T", "10:05:57"),)),
    Stage("meal-break", "wdc2003", "11:05:30",
          presses=tuple((p, f"10:19:{10 + 5 * i}") for i, p in enumerate(EVERYONE))
          + tuple((p, f"10:36:{10 + 5 * i}") for i, p in enumerate(EVERYONE)),
          pauses=(Pause(at_deadline=PhaseRef.parse("F1901"), minutes=60),)),
    Stage("paused-while-late", "graduated20", "10:45:00",
          presses=(("A", "10:19:10"), ("E", "10:19:30")),
          pauses=(Pause(at=t("10:20:40"), minutes=60),)),
    Stage("stopped", "wdc2019", "10:09:00", pauses=(Pause(at=t("10:06:40")),)),
    Stage("held", "wdc2019", "10:09:00", pauses=(Pause(at=t("10:06:40"), minutes=5, table=3),)),
    Stage("held-open-ended", "wdc2019", "10:09:00", pauses=(Pause(at=t("10:06:40"), table=3),)),
    Stage("adjudicating", "wdc2006", "10:22:40", board=True,
          presses=tuple((p, f"10:16:{10 + 5 * i}") for i, p in enumerate(EVERYONE))),
    Stage("board-ready", "wdc2006", "10:22:42", board=True,
          presses=tuple((p, f"10:16:{10 + 5 * i}") for i, p in enumerate(EVERYONE)),
          holds=(("A", "10:22:40"), ("E", "10:22:41"))),
    Stage("repeat-before-start", "wdc2019", "10:00:06", presses=(("A", "09:59:50"),
                                                                 ("A", "10:00:05"))),
    Stage("final-year", "wdc2006", "14:40:00", last_year=1909),
    Stage("called", "wdc2019", "10:30:00", call="10:50:00"),
    Stage("called-over", "wdc2019", "10:55:00", call="10:50:00"),
    Stage("called-at-once", "wdc2018", "10:40:00", call="10:50:00"),
    Stage("called-last-fall", "wdc2003", "12:30:00", call="12:00:00"),
    Stage("game-over", "wdc2006", "15:20:00", last_year=1909),
    Stage("game-over-late", "wdc2006", "15:13:30", last_year=1909),
    Stage("voted-end", "wdc2006", "12:53:30",
          ends=(VotedEnd(at=t("12:52:00"), table=3, headline=PASSED),)),
)


def vote(state: str, form: str, words: str, period: str = "Fall 1905", **fields: Any
         ) -> TableVote:
    return TableVote.model_validate({
        "id": 4, "state": state, "form": form, "words": words, "period": period,
        "at": t("12:45:00"), **fields})


@dataclass(frozen=True)
class Sent:
    """A press this clock made: a vote's (``vote``) or a line's confirmation."""

    power: str
    state: sheetlines.SentState
    at: datetime
    vote: int = 4
    reason: str = ""
    round: int = 5
    version: int = 2


VOTES = (
    (vote("open", "concede:F", "a concession to France", proposer="E", voters=tuple("AEFIRT"),
          voted=tuple("AER"), absent=("T",), queued=1), ()),
    (vote("open", "dias", "a draw of all survivors", proposer="A", voters=tuple("AEFIRT"),
          voted=tuple("AER"), waiting_button=tuple("FI")), (Sent("I", "pending", t("12:47:07")),)),
    (vote("open", "draw:A,E", "a draw of Austria and England", proposer="A",
          voters=tuple("AEFIRT"), voted=tuple("AEFIRT")), (Sent("E", "taken", t("12:47:08")),)),
    (vote("open", "dias", "a draw of all survivors", proposer="A", waiting_button=("A",)), ()),
    (vote("open", "dias", "a draw of all survivors", proposer="A", voters=tuple("EFIRT")), ()),
    (vote("open", "dias", "a draw of all survivors", proposer="A", waiting_button=("A",)),
     (Sent("A", "pending", t("12:47:08")),)),
    (vote("open", "dias", "a draw of all survivors", waiting_button=("F",),
          voters=tuple("AEFIRT")), (Sent("A", "refused", t("12:47:08")),)),
    (vote("vetoed", "dias", "a draw of all survivors", proposer="A",
          headline="Draw vetoed by France: the game goes on", closed_at=t("12:46:00")), ()),
    (vote("failed", "concede:F", "a concession to France",
          headline="Concession to France not agreed: the game goes on",
          closed_at=t("12:46:00")), ()),
    (vote("cancelled", "draw:A,E", "a draw of Austria and England",
          closed_at=t("12:46:00")), ()),
    (vote("vetoed", "dias", "a draw of all survivors", closed_at=t("12:46:00")), ()),
    (vote("failed", "dias", "a draw of all survivors", closed_at=t("12:46:00"), period=""),
     ()),
)


def vote_texts(words: Words) -> Iterator[str]:
    for table_vote, sent in VOTES:
        shown = votescreen.view(table_vote, t("12:47:10"), sent, SEATED, words=words)
        assert shown is not None
        yield from (shown.headline, shown.status, _without_players(shown.banner),
                    *(m.said(words) for m in shown.marks))


#: A problem with the sheet, in the hub's words (the hub's own language is not the table's)
PROBLEM = "Centres add up to 33, not 34"


def sheet(ending: str, **fields: Any) -> TableResult:
    return TableResult.model_validate({
        "round": 5, "version": 2, "year": 1909, "ending": ending,
        "centres": {"A": 5, "E": 4, "F": 6, "G": 0, "I": 7, "R": 6, "T": 6},
        "scores": {p: 10.0 for p in LETTERS}, **fields})


SHEETS = (
    (sheet("A draw of all survivors", confirmed=("A",)), (Sent("E", "pending", t("15:31:00")),)),
    (sheet("Solo: France"), (Sent("E", "refused", t("15:31:00"), version=1),)),
    (sheet("Conceded to Italy", confirmed=tuple(LETTERS)), (Sent("E", "taken", t("15:31:00")),)),
    (sheet("Draw: Austria, England, France", final=True), ()),
    (sheet("Draw: Austria, England", problem=PROBLEM), ()),
)


def sheet_texts(words: Words) -> Iterator[str]:
    stage = next(s for s in STAGES if s.name == "game-over-late")
    profile, schedule, presses, out = stage.round(words)
    at = sheetlines.TableNow(profile, schedule, t("15:31:04"), presses, out, 3)
    for result, mine in SHEETS:
        shown = sheetlines.sheet_view(at, result, mine, SEATED, words=words)
        assert shown is not None
        yield from (shown.ending, shown.instruction.replace(PROBLEM, ""),
                    _without_players(shown.banner))
        for line in shown.lines:
            yield from (line.power, line.late)


def penalty_texts(words: Words) -> Iterator[str]:
    """Every penalty's label as the screen shows it, and for a power that never pressed."""
    for profile in BUILTIN.values():
        for seconds in (0, 5, 20, 45, 70, 400):
            for offence in (1, 2):
                cost = penalty(profile.penalty, seconds, offence)
                yield from (cost.said(words), cost.no_orders().said(words))


#: The network as a table may find it before its hub answers (``machine.network``)
NETWORKS = (
    NetworkState("connected", ("10.0.0.23",), "dipclock-table-3", "Hall B", "wlan0"),
    NetworkState("connected", (), "", None, "end0"),
    NetworkState("no_device"), NetworkState("no_wifi_settings"),
    NetworkState("wifi_not_found", wifi_name="Hall B", device="wlan0"),
    NetworkState("wifi_wrong_password", device="wlan0"),
    NetworkState("no_address", device="end0"), NetworkState("no_address", device="wlan0"),
    NetworkState("connecting", device="end0"), NetworkState("connecting", device="wlan0"),
)


def before_event_texts(words: Words) -> Iterator[str]:
    """Every text of the table's screens before its hub has said the event (``kiosk.state``:
    connecting, looking for the hub, pairing, a problem at start-up), in the card's language
    (``kiosk.config.spoken``). A problem's own data (a file's path, a library's error) and
    the hub's address are left out: they are the same in every language."""
    from kiosk import state
    from kiosk.config import ConfigError
    from kiosk.problems import Problem
    from kiosk.startup import (
        CARD_FULL,
        CARD_FULL_FIX,
        UNEXPECTED,
        UNEXPECTED_FIX,
        UNPAIRED_CERTIFICATE,
        UNPAIRED_REVOKED,
        _factory_fix,
        _gpio_fix,
        problem_for,
    )

    hub = "https://10.0.0.1:8000"
    frames = [state.connecting("", lost, words=words) for lost in (False, True)]
    frames += [state.with_network(state.connecting("", True, words=words), n)
               for n in NETWORKS]
    frames += [state.looking_for_hub(table, network=n, words=words)
               for table in (3, None) for n in (None, *NETWORKS)]
    for found in (False, True):
        line = state.hub_line(hub, found, words)
        frames += [state.pairing(table, code, line, "3F:9A", note, words)
                   for table in (3, None) for code in ("K7P-2QX", None)
                   for note in (None, words(UNPAIRED_REVOKED), words(UNPAIRED_CERTIFICATE))]
        frames.append(state.introduce(state.connecting("", False, words=words), 3, line))
        frames.append(state.with_network(
            state.pairing(3, None, line, None, None, words), NETWORKS[3]))
    problems = [Problem(CARD_FULL, CARD_FULL_FIX),
                Problem("", UNEXPECTED_FIX),  # a problem with no words of its own
                Problem(UNEXPECTED, UNEXPECTED_FIX, {"kind": "", "error": ""}),
                problem_for(ConfigError("/etc/dipclock/kiosk.toml: rotate"),
                            Path("/etc/dipclock/kiosk.toml")),
                *(Problem("", fix) for fix in (_factory_fix("lgpio"), _factory_fix(None),
                                               _gpio_fix(OSError("busy")),
                                               _gpio_fix(ValueError("Factory")),
                                               _gpio_fix(ValueError("pin")))),
                problem_for(ConfigError("options: rotate"), None)]
    frames += [state.problem(*p.shown(words), table, words) for p in problems
               for table in (3, None)]
    for fr in frames:
        s = fr.screen
        yield from (s.title, s.table_name, s.label, *s.notes, *(c.name for c in s.chips))


def _without_data(text: str) -> str:
    """A screen's text without what is data in every language: the hub's address, the
    kiosk's settings file, the network's names and addresses."""
    for data in ("10.0.0.1:8000", "/etc/dipclock/kiosk.toml", "dipclock-table-3",
                 "10.0.0.23", "Hall B", "kiosk.toml", "dipclock.txt", "DIPCLOCK",
                 "wifi_name", "wifi_password", "wifi_country", "buttons.pin_factory",
                 "buttons.gpio", "buttons.serial", "python3-lgpio", "lgpio", "dipclock-kiosk",
                 "systemd/install.sh", "--system-site-packages", "GPIO5", "sudo", "nano",
                 "systemctl restart", "systemctl edit", "apt install", "kiosk", "DHCP",
                 "hub = https://ADDRESS:8000", "A = 5", "3F:9A"):
        text = re.sub(rf"(?<![\w-]){re.escape(data)}(?![\w-])", "", text)
    return text


def everything(words: Words) -> list[str]:
    texts = [x for s in STAGES for x in s.texts(words)]
    return texts + [*vote_texts(words), *sheet_texts(words), *penalty_texts(words),
                    *(_without_data(x) for x in before_event_texts(words))]


WORD = re.compile(r"[^\W\d_]+")
#: Kept as they are in every language: Diplomacy's own term, units; before the event, the
#: commands and settings' names a TD types as they are (``journalctl --vacuum-size``,
#: ``dipclock doctor``) and the hardware's names (Wi-Fi, Pi, BCM)
NEUTRAL = {"NMR", "s", "min", "journalctl", "vacuum", "size", "M", "u", "dipclock", "doctor",
           "venv", "sh", "Wi", "Fi", "Pi", "BCM", "options", "rotate", "ls", "dev",
           "serial", "by", "id", "auto",
           "hub", "Hub"}  # the hall's hub: one word in every language, as on the pages
#: Words a language shares with English, its own as much as English's
SHARED: dict[str, set[str]] = {
    "fr": {"code", "minute",  # before the event: the network's words and fixes
           "Table", "France", "Centres", "Score", "Absent", "Solo", "Phase", "Pause",
           "Russie", "Italie", "Turquie", "Allemagne", "Angleterre", "Automne", "Printemps",
           "Nulle", "proposition", "confirmer", "votre", "en", "Ronde", "vote", "unité",
           "unités", "ordres", "arbitre", "minutes", "table", "ligne", "sur", "de",
           "plus", "a", "pour", "serveur", "veto", "second", "Proposition", "Concession",
           "concession", "centres", "silence", "A"},
    "de": {"an", "was",
           "England", "Solo", "Pause", "Server", "in", "Veto", "Remis", "Runde", "Tisch",
           "Phase", "Minuten", "Min", "Druck"},
    "it": {"router", "pin", "chip", "driver", "file", "password", "output",
           "all",  # all'hub: the article before a vowel
           "Solo", "Russia", "Italia", "Francia", "server", "veto", "in", "Inghilterra",
           "Patta", "Turno", "Austria", "a"},
    "nl": {"code", "dashboard", "laptop", "pin", "router", "start", "Start", "stop", "of",
           "Solo", "Engeland", "deadline", "Deadline", "orders", "server", "veto", "in",
           "Rode", "Remise", "Ronde", "Tafel", "is", "op", "het", "en", "de", "van",
           "voor", "over", "tot", "binnen", "te", "stand", "land", "landen", "om", "was"},
}


def tokens(texts: list[str]) -> set[str]:
    return {w for text in texts for w in WORD.findall(text)}


@pytest.fixture(scope="module")
def english() -> set[str]:
    return tokens(everything(ENGLISH)) - NEUTRAL


#: What a player reads of the stages in English: the check below is only as good as this,
#: so it must all be there
ENGLISH_WORDS = {
    "Negotiating", "Last", "minutes", "WRITING", "silence", "deadline", "passed", "orders",
    "late", "IN", "OUT", "Yellow", "Red", "card", "units", "hold", "Warning", "Leniency",
    "Referee", "decides", "unit", "repeat", "Break", "clock", "stopped", "restarts",
    "Table", "held", "TD", "Adjudicating", "starts", "board", "ready", "Ready", "buttons",
    "together", "Game", "over", "was", "the", "last", "Round", "called", "ended", "after",
    "centres", "count", "Deadline", "First", "Final", "year", "Called", "for", "ends",
    "Then", "to", "Spring", "Fall", "Austria", "England", "Germany", "Italy", "Russia",
    "Turkey", "proposed", "Draw", "survivors", "Concession", "vetoed", "agreed", "goes",
    "on", "VOTED", "PRESS", "SENT", "To", "vote", "Absent", "Proposed", "phone", "still",
    "button", "Waiting", "proposal", "waits", "sent", "counted", "taken", "Solo",
    "Conceded", "Confirmed", "Correct", "sheet", "confirm", "line", "confirmed", "Every",
    "changed", "check", "press", "again", "already", "not", "started", "second", "within",
    "back", "out", "of", "game", "No", "On", "time", "Board", "cancelled", "powers",
    # before the event: connecting, looking for the hub, pairing, a problem at start-up
    "Looking", "network", "Pair", "code", "cannot", "Fix", "Asking", "pairing", "certificate",
    "cable", "router", "password", "New", "call", "refused", "address",
}


def test_the_list_of_english_words_is_what_the_stages_say(english: set[str]) -> None:
    assert ENGLISH_WORDS <= english, sorted(ENGLISH_WORDS - english)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_word_a_player_reads_in_the_event_s_language(lang: str,
                                                                  english: set[str]) -> None:
    words = Words(lang)
    said = tokens(everything(words))
    left = sorted(said & english - SHARED[lang] - NEUTRAL)
    assert not left, f"{lang}: English on the table's screen: {left}"


def test_the_pseudo_language_leaves_no_english_word(english: set[str]) -> None:
    """Every word through the catalogue: ``xx`` changes each, so one left is one that
    skipped it."""
    changes = set("aeiouAEIOUcnsyCNSY")  # a word with none of these (TD) stays as it is
    left = sorted(w for w in tokens(everything(Words(PSEUDO))) & english if set(w) & changes)
    assert not left, f"words that skip the catalogue: {left}"


@pytest.mark.parametrize("lang", [*TRANSLATED, PSEUDO])
def test_the_powers_and_seasons_are_the_language_s(lang: str) -> None:
    words = Words(lang)
    stage = next(s for s in STAGES if s.name == "negotiating")
    profile, schedule, presses, out = stage.round(words)
    s = build(profile, schedule, t(stage.at), presses, out, table=3, words=words)
    assert [c.name for c in s.chips] == [words.power(p) for p in LETTERS]
    assert s.view.phase is not None and s.view.phase.season == "fall"
    assert s.phase == words.phase(s.view.phase.year, "fall")
    assert words.season("fall") in s.phase and words.season("fall") != "Fall"
    # most names differ from English's ("England" is German too, "Russia" Italian)
    assert sum(c.name != ENGLISH.power(c.letter) for c in s.chips) >= 5


# --- the event's file ------------------------------------------------------------------

MINIMAL = """
name = "My Open"
[[phase_lengths]]
from_year = 1901
spring = 15
fall = 12
[penalty]
model = "yellow_red"
"""


def test_an_event_file_sets_the_language_and_renames_terms() -> None:
    profile = parse_event_toml('language = "de"\n' + MINIMAL + '[terms]\nEngland = '
                               '"Großbritannien"\nSpring = "Frühling"\n', "my-open.toml")
    words = words_of(profile)
    assert (profile.language, words.power("E"), words.power("F")) == (
        "de", "Großbritannien", "Frankreich")
    assert words.phase(1903, "spring") == "Frühling 1903"
    stored = EventProfile.model_validate_json(profile.model_dump_json())
    assert stored == profile and hash(stored) == hash(profile)  # the hub keeps it so
    s = build(profile, Schedule(start=t("10:00:00")), t("10:05:00"), table=3,
              words=words_of(profile))
    assert s.chips[1].name == "Großbritannien" and s.phase == "Frühling 1901"


def test_the_built_in_events_and_a_file_without_language_speak_english() -> None:
    assert {p.language for p in BUILTIN.values()} == {"en"}
    assert all(p.terms == () for p in BUILTIN.values())
    assert words_of(parse_event_toml(MINIMAL, "my-open.toml")) == ENGLISH


@pytest.mark.parametrize(("text", "said"), [
    ('language = "es"\n' + MINIMAL,
     "my-open.toml: language: 'es' is not a language dipclock speaks: one of "
     "en, fr, de, it, nl"),
    (MINIMAL + '[terms]\nEngand = "Angleterre"\n',
     "my-open.toml: terms: 'Engand' is not a term an event can rename: one of "
     + ", ".join(TERMS)),
    (MINIMAL + "[terms]\nEngland = 3\n",
     "my-open.toml: terms: 'England': the event's word for it, in quotes"),
])
def test_a_wrong_language_or_term_is_one_line(text: str, said: str) -> None:
    with pytest.raises(EventError) as caught:
        parse_event_toml(text, "my-open.toml")
    assert str(caught.value) == said and "\n" not in said


def test_terms_cover_the_powers_and_seasons() -> None:
    assert set(TERMS) == {ENGLISH.power(p) for p in LETTERS} | set(SEASONS.values())


def test_every_plural_has_every_form() -> None:
    """A plural with a form left empty would show English (the catalogues' own test looks
    at the singular strings)."""
    from scripts.catalogues import LANGUAGES as CATALOGUES
    from scripts.catalogues import read

    for lang in CATALOGUES:
        for m in read(lang):
            if isinstance(m.id, tuple):
                assert isinstance(m.string, tuple) and all(m.string), (lang, m.id)
