"""A table's problems before the hub has said the event speak the card's language (issue 38):
the pairing screen's (a hub that does not answer, or refuses), a bad kiosk.toml value
(pydantic's own English said in ours), a GPIO pin given twice, a display mode the screen
refuses. The English line stays as it was (the console's, the journal's, the tests')."""

from __future__ import annotations

from pathlib import Path

import httpx
import pygame
import pytest

from dipclock.i18n import ENGLISH, Words
from kiosk import state
from kiosk.config import ConfigError, load_file
from kiosk.display import _size_fix
from kiosk.draw import Painter, render
from kiosk.outbox import Outbox
from kiosk.pairing import Pairing
from kiosk.problems import Problem
from tests.kiosk.test_startup import screen_after

FR, DE = Words("fr"), Words("de")
URL = "http://10.0.0.9:8000"


def drawn_text(frame: state.Frame, size: tuple[int, int] = (1280, 720)) -> str:
    """Every text the frame draws, on SDL's dummy driver, one after the other."""
    pygame.font.init()
    return " ".join(d.text for d in render(pygame.Surface(size), frame.screen, Painter()))


def pairing_screen(pairing: Pairing, words: Words) -> state.Frame:
    """The pairing screen as the kiosk draws it (``kiosk.startup.Table._pair``)."""
    shown = pairing.shown()
    problem = shown.problem.in_(words) if shown.problem else None
    return state.pairing(3, shown.code, state.hub_line(URL, words=words), shown.fingerprint,
                         problem, words)


def test_a_hub_that_does_not_answer_is_said_in_french_on_the_pairing_screen(
        tmp_path: Path) -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    pairing = Pairing(URL, "card-3", 3, Outbox(tmp_path / "o.sqlite"),
                      transport=httpx.MockTransport(refused), words=FR)
    pairing.step()
    problem = pairing.shown().problem
    assert problem is not None
    english = "the hub at http://10.0.0.9:8000 does not answer: Connection refused"
    assert str(problem) == english  # the journal's line, as it was
    french = FR("the hub at {url} does not answer: {error}", url=URL,
                error="Connection refused")
    assert problem.in_(FR) == french != english  # passes after merge
    shown = " ".join(drawn_text(pairing_screen(pairing, FR)).split())
    assert " ".join(french.split()[:3]) in shown and "does not answer" not in shown
    pairing.close()


def test_the_hub_s_refusal_to_pair_is_asked_and_said_in_the_card_s_language(
        tmp_path: Path) -> None:
    asked: list[str | None] = []

    def refusing(request: httpx.Request) -> httpx.Response:
        asked.append(request.headers.get("accept-language"))
        return httpx.Response(403, json={"detail": "pairing is closed"})

    pairing = Pairing(URL, "card-3", 3, Outbox(tmp_path / "o.sqlite"),
                      transport=httpx.MockTransport(refusing), words=DE)
    pairing.step()
    assert asked == ["de"]  # the hub says its refusal in German (server.app's Refused)
    problem = pairing.shown().problem
    assert problem is not None
    assert str(problem) == "the hub refuses to pair this clock: pairing is closed"
    assert problem.in_(DE) == DE("the hub refuses to pair this clock: {detail}",
                                 detail="pairing is closed") != str(problem)  # after merge
    pairing.close()


def test_why_a_clock_pairs_again_is_said_in_the_screen_s_language(tmp_path: Path) -> None:
    from kiosk.startup import UNPAIRED_REVOKED

    pairing = Pairing(URL, "card-3", 3, Outbox(tmp_path / "o.sqlite"),
                      transport=httpx.MockTransport(lambda r: httpx.Response(500)),
                      note=UNPAIRED_REVOKED)
    assert pairing.shown().problem is not None
    assert pairing.shown().problem.in_(FR) == FR(UNPAIRED_REVOKED)
    pairing.close()


def test_a_bad_kiosk_toml_value_reads_in_german(tmp_path: Path) -> None:
    """pydantic's "Input should be a valid number" is said in our words: German here."""
    f = tmp_path / "kiosk.toml"
    f.write_text("warning_minutes = 'soon'\n")
    with pytest.raises(ConfigError) as caught:
        load_file(f)
    english = (f"{f}: warning_minutes: Input should be a valid number, unable to parse "
               "string as a number")
    assert str(caught.value) == caught.value.in_(ENGLISH) == english
    german = caught.value.in_(DE)
    assert german.startswith(f"{f}: warning_minutes: ")  # the file and the key as written
    assert german != english and "Input should" not in german  # passes after merge


def test_a_bad_kiosk_toml_value_is_drawn_in_the_card_s_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, screen, err = screen_after(tmp_path, capsys, "--event", "wdc2019", "--start", "10:00",
                                   "--lang", "de", toml="rotate = 45\n")
    assert rc == 2 and screen["look"] == "problem"
    said, to_fix = screen["notes"]
    assert "kiosk.toml: rotate: " in said
    assert DE("Input should be {expected}", expected=DE("{choices} or {last}",
                                                        choices="0, 90, 180", last="270")
              ) in said
    assert "Input should be" not in said  # passes after merge
    assert "rotate: Input should be 0, 90, 180 or 270" in err  # the console's: English


def test_a_gpio_pin_given_twice_is_said_in_french(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, screen, err = screen_after(tmp_path, capsys, "--event", "wdc2019", "--start", "10:00",
                                   "--lang", "fr", "--pin-factory", "mock",
                                   toml="[buttons.gpio]\nA = 5\nE = 5\n")
    assert rc == 2 and screen["look"] == "problem"
    assert "buttons.gpio: pin GPIO5 is already in use" in err
    said, _ = screen["notes"]
    assert FR("buttons.gpio: pin {pin} is already in use", pin="GPIO5") in said
    assert "already in use" not in said  # passes after merge


def test_a_display_mode_the_screen_refuses_and_its_fix_are_said_in_french() -> None:
    problem = Problem("the display cannot show {width}x{height}: {error}", "{fix}",
                      {"width": 1000, "height": 1000, "error": "no such mode",
                       "fix": _size_fix((1000, 1000), [])})
    assert problem.fix == ("remove size from kiosk.toml, or set one the screen has: the "
                           "display's own size")
    what, fix = problem.shown(FR)
    assert what == FR("the display cannot show {width}x{height}: {error}", width=1000,
                      height=1000, error="no such mode")
    assert fix == FR("remove size from kiosk.toml, or set one the screen has: {sizes}",
                     sizes=FR("the display's own size"))
    assert fix != problem.fix  # passes after merge


class _Box:
    connected = False


class _Hub:
    def trusted(self) -> bool:
        return True

    def others(self) -> tuple[str, ...]:
        return ("10.0.0.31",)


def test_the_table_s_alerts_are_said_in_the_event_s_language(tmp_path: Path) -> None:
    """The shell's alerts (a box unplugged, another kiosk on this table) and the clock's own
    come in the event's language, during a round; a line said already is left as it is."""
    from datetime import datetime

    from dipclock.events import BUILTIN
    from dipclock.schedule import Schedule
    from dipclock.sync import to_seconds
    from kiosk.about import BOX_UNPLUGGED, About
    from kiosk.app import CLOCK_ALERT, FixedRound, Kiosk
    from kiosk.round import Round, round_key
    from tests.doubles import FixedTime

    profile = BUILTIN["wdc2019"].model_copy(update={"language": "de"})
    sched = Schedule(start=datetime(2019, 9, 6, 10, 0))
    rnd = Round(profile, sched, 7, round_key(profile, sched, 7))
    about = About("me", 7, ["serial"], box=_Box(), hub=_Hub())
    note = "dipclock.txt Zeile 2 nicht verwendet"  # a card's note, said already
    kiosk = Kiosk(FixedRound(rnd), Outbox(tmp_path / "o.sqlite"),
                  FixedTime(0.0, verified=False), log=lambda _: None,
                  alerts=lambda: (*about.alerts(), note), boot="b")
    alerts = kiosk.frame(to_seconds(datetime(2019, 9, 6, 10, 5))).screen.alerts
    another = DE("Another kiosk ({address}) also says it is table {table}",
                 address="10.0.0.31", table=7)
    assert alerts == (DE(CLOCK_ALERT), DE(BOX_UNPLUGGED), another, note)
    assert "Button box unplugged" not in alerts  # passes after merge
    kiosk.outbox.close()


def test_a_pin_factory_that_is_none_is_said_in_french() -> None:
    from hardware.gpio import PinFactoryError, load_pin_factory

    with pytest.raises(PinFactoryError) as caught:
        load_pin_factory("lgpoi")
    assert str(caught.value).startswith("no GPIO pin factory 'lgpoi'; choose one of ")
    french = caught.value.in_(FR)
    assert "'lgpoi'" in french and french != str(caught.value)  # passes after merge


def test_a_dipclock_txt_hub_address_refused_is_said_in_italian() -> None:
    """hub_url's own sentence, in the card's note and in the strict reading's error."""
    from machine.identity import IdentityError, parse_boot_file, parse_boot_lines, refusal_notes

    f = Path("/boot/firmware/dipclock.txt")
    it = Words("it")
    note = refusal_notes(parse_boot_lines("hub = ::bad::\n", f).refused, it)[0]
    assert it("{address} is not a hub address like https://10.0.0.1:8000 (or auto)",
              address="'::bad::'").split(" (")[0] in note
    assert "is not a hub address" not in note  # passes after merge
    with pytest.raises(IdentityError) as caught:
        parse_boot_file("hub = ::bad::\n", f)
    assert str(caught.value) == ("/boot/firmware/dipclock.txt line 1: '::bad::' is not a hub "
                                 "address like https://10.0.0.1:8000 (or auto)")
    assert caught.value.in_(it).startswith(it("{path} line {line}: {why}", path=str(f),
                                              line=1, why=""))
    assert "is not a hub address" not in caught.value.in_(it)  # passes after merge


def test_no_display_is_said_on_the_console_in_the_card_s_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The one problem that cannot go on the screen: one line on the console, in the card's
    language (``--lang`` here: the settings are not read yet); ``str()`` stays English."""
    from dipclock.i18n import Said, said
    from kiosk.display import _DISPLAY_FIX
    from kiosk.options import build_parser
    from kiosk.problems import DisplayUnavailable
    from kiosk.startup import _unavailable

    what = said("cannot open the display with {driver}: {error}", driver="kmsdrm",
                error="no screen")
    exc = DisplayUnavailable(what, Said(_DISPLAY_FIX))
    assert str(exc) == f"cannot open the display with kmsdrm: no screen. Fix: {_DISPLAY_FIX}"
    _unavailable(build_parser().parse_args(
        ["--lang", "fr", "--boot-file", str(tmp_path / "none.txt")]), exc)
    err = capsys.readouterr().err
    assert err == FR("dipclock kiosk: {message}", message=FR(
        "{what}. Fix: {fix}", what=what.in_(FR), fix=FR(_DISPLAY_FIX))) + "\n"
    assert "cannot open the display" not in err  # passes after merge
