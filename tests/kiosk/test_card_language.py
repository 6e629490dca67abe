"""A table's screens before its hub has said the event (connecting, looking for the hub,
pairing, a problem at start-up) speak the venue's language (issue 38): the card's
``language`` setting (dipclock.txt, kiosk.toml, ``--lang``), else the last event's language
the hub said (kept in the outbox), else English; once a round's snapshot says the event's
language, that wins (``kiosk.config.spoken``, ``Kiosk.frame``)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from dipclock.events import BUILTIN
from dipclock.i18n import ENGLISH, PSEUDO, Words
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from kiosk import state
from kiosk.app import FixedRound, Kiosk
from kiosk.cli import main
from kiosk.config import HEARD, ConfigError, heard, load_file, spoken
from kiosk.options import build_parser, read_settings, settings_from
from kiosk.outbox import Outbox
from kiosk.round import Round
from machine.identity import IMAGER_NOTES, notes_in, parse_boot_lines, refusal_notes
from tests.doubles import FixedTime

F = Path("/boot/firmware/dipclock.txt")
START = datetime(2019, 9, 6, 10)


# --- the setting --------------------------------------------------------------------------

def test_dipclock_txt_takes_a_language_line() -> None:
    assert parse_boot_lines("language = fr\n", F).settings() == {"language": "fr"}
    assert parse_boot_lines("Language: \"DE\"\n", F).language == "de"  # as a laptop types it
    assert parse_boot_lines("language = nl_BE\n", F).language == "nl"


def test_a_wrong_language_costs_its_line_only_and_names_those_there_are() -> None:
    boot = parse_boot_lines("table = 3\nlanguage = es\n", F)
    assert (boot.table, boot.language) == (3, None)  # the card uses the other lines
    assert refusal_notes(boot.refused) == (
        "dipclock.txt line 2 not used: language is one of en, fr, de, it, nl, not 'es'",
        "Fix: correct line 2 of dipclock.txt on a laptop (the DIPCLOCK drive)")
    assert parse_boot_lines("language = xx\n", F).refused  # the layout tests' own, no venue's


def test_kiosk_toml_and_the_command_line_take_a_language(tmp_path: Path) -> None:
    f = tmp_path / "kiosk.toml"
    f.write_text('language = "it"\n')
    none = tmp_path / "none"
    assert settings_from(build_parser().parse_args(
        ["--config", str(f), "--boot-file", str(none)])).language == "it"
    assert settings_from(build_parser().parse_args(
        ["--config", str(f), "--boot-file", str(none), "--lang", "nl"])).language == "nl"
    boot = tmp_path / "dipclock.txt"
    boot.write_text("language = fr\n")  # the card's own file wins over the hall's kiosk.toml
    assert settings_from(build_parser().parse_args(
        ["--config", str(f), "--boot-file", str(boot)])).language == "fr"
    f.write_text('language = "es"\n')
    with pytest.raises(ConfigError, match="language: .*one of en, fr, de, it, nl"):
        load_file(f)


# --- whose language, when -------------------------------------------------------------------

def test_the_setting_wins_over_the_remembered_language_and_english_is_the_last() -> None:
    remembered = heard(Words("de", {"England": "Großbritannien"}))
    assert spoken("fr", remembered) == Words("fr")
    assert spoken(None, remembered) == Words("de", {"England": "Großbritannien"})
    assert spoken(None, None) == ENGLISH
    assert spoken(None, {"language": "klingon"}) == ENGLISH  # a later version's: English


class NoRound:
    """A hub that has said no round yet (``kiosk.app.Source``)."""

    def current(self) -> None:
        return None

    def hub_lost(self) -> bool:
        return True

    def sent(self) -> None:
        pass


def test_a_table_remembers_the_event_s_language_for_its_next_start(tmp_path: Path) -> None:
    profile = BUILTIN["wdc2019"].model_copy(update={
        "language": "fr", "terms": (("England", "Grande-Bretagne"),)})
    told = Words("fr", {"England": "Grande-Bretagne"})
    schedule = Schedule(start=START, title="Round 2")
    outbox = Outbox(tmp_path / "outbox.sqlite")
    try:
        waiting = Kiosk(NoRound(), outbox, FixedTime(to_seconds(START)), log=lambda _: None,
                        words=Words("de"))
        screen = waiting.frame(0.0).screen  # before any round: the card's language
        assert screen.words == Words("de") and screen.chips[0].name == Words("de").power("A")
        assert screen.label == Words("de")(state.WAITING_FOR_HUB)
        assert outbox.get(HEARD) is None
        source = FixedRound(Round(profile, schedule, 3, "k"))
        before = FixedTime(to_seconds(START) - 600)  # ten minutes to the start: named
        kiosk = Kiosk(source, outbox, before, log=lambda _: None,
                      words=Words("de"), hub_url="https://10.0.0.1:8000", hub_found=True)
        assert kiosk.frame(0.0).screen.words == told  # the event's language wins
        assert kiosk.told == told and outbox.get(HEARD) == heard(told)
        assert kiosk.frame(0.0).screen.notes[-1] == state.hub_line(
            "https://10.0.0.1:8000", True, told)
        source.round = None  # type: ignore[assignment]  # the round is over: no round now
        assert kiosk.frame(1.0).screen.words == told  # ... and it goes on speaking it
    finally:
        outbox.close()
    again = Outbox(tmp_path / "outbox.sqlite")  # the next boot, before the hub answers
    try:
        assert spoken(None, again.get(HEARD)) == told
    finally:
        again.close()


# --- on the screen ------------------------------------------------------------------------

def screen_after(tmp_path: Path, capsys: pytest.CaptureFixture[str], boot: str, toml: str,
                 *argv: str) -> dict:
    boot_file, config, status = (tmp_path / "dipclock.txt", tmp_path / "kiosk.toml",
                                 tmp_path / "screen.json")
    boot_file.write_text(boot)
    config.write_text(toml)
    main(["--headless", "--run-for", "0", "--boot-file", str(boot_file), "--config",
          str(config), "--outbox", str(tmp_path / "outbox.sqlite"), "--status-file",
          str(status), *argv])
    capsys.readouterr()
    return json.loads(status.read_text())


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_a_start_up_problem_is_said_in_the_card_s_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """kiosk.toml broken: the card's dipclock.txt still says its language."""
    words = Words(lang)
    shown = screen_after(tmp_path, capsys, f"language = {lang}\n",
                         "warning_minutes = 'soon'\n", "--event", "wdc2019", "--start", "10:00")
    assert shown["look"] == "problem"
    assert shown["label"] == words("This clock cannot start: please call the TD")
    what, fix = shown["notes"]
    assert "warning_minutes" in what  # the file's own words, as the TD finds them there
    where = str(tmp_path / "kiosk.toml")
    assert fix == words(state.FIX, fix=words(
        "correct {where} (sudo nano {where}); the clock starts over by itself when it is "
        "saved", where=where))


def test_a_table_looking_for_its_hub_speaks_the_card_s_language() -> None:
    words = Words("it")
    frame = state.looking_for_hub(3, words=words)
    assert frame.screen.label == words(state.LOOKING)
    assert frame.screen.table_name == words("Table {number}", number=3)
    assert [c.name for c in frame.screen.chips] == [words.power(c.letter)
                                                    for c in frame.screen.chips]
    paired = state.pairing(None, "K7P-2QX", state.hub_line("https://h:8000", words=words),
                           "3F:9A", words=words)
    assert paired.screen.title == words("New clock") and paired.screen.words == words


BAD_LINES = ("tabel = 3\nrole = 42\nwifi_password = short\nlanguage = 99\nrotate = 45\n"
             "timezone = 12/34\nsize = 12\ntable = 7\ntable = 8\nhub =\n")


@pytest.mark.parametrize("lang", ["fr", "de", "it", "nl", PSEUDO])
def test_the_card_s_notes_on_its_file_are_said_in_the_card_s_language(lang: str) -> None:
    """dipclock.txt's lines not used, the fix and Imager's notes, beside a working clock:
    each through the catalogue (the pseudo-language brackets every one of them)."""
    words = Words(lang)
    refused = parse_boot_lines(BAD_LINES, F).refused
    english = (*refusal_notes(refused), *IMAGER_NOTES[:2])
    said = (*refusal_notes(refused, words), *notes_in(IMAGER_NOTES, words)[:2])
    assert len(said) == len(english) == len(refused) + 3
    if lang == PSEUDO:
        assert all(line.startswith("[") for line in said), said
    else:
        assert all(a != b for a, b in zip(said, english, strict=True)), said
    assert str(refused[0]).endswith("unknown key 'tabel' (the keys are table, hub, rotate, "
                                    "language, role, wifi_name, wifi_password, wifi_country, "
                                    "timezone, size, ssh_key and td_password)")  # the console's


def test_loaded_settings_say_their_notes_in_a_language(tmp_path: Path) -> None:
    boot = tmp_path / "dipclock.txt"
    boot.write_text("tabel = 3\n")
    loaded = read_settings(build_parser().parse_args(
        ["--config", str(config(tmp_path)), "--boot-file", str(boot)]),
        imager=lambda: IMAGER_NOTES)
    assert loaded.notes_in(ENGLISH) == loaded.notes
    assert loaded.notes_in(Words(PSEUDO))[0].startswith("[")


def config(tmp_path: Path) -> Path:
    f = tmp_path / "kiosk.toml"
    f.write_text("")
    return f
