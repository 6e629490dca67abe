"""Start-up failures on the table's screen, with the fix; the kiosk stays up and starts over
when a settings file changes; no display at all: one line on stderr and status 78."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.display import Display
from kiosk.startup import EX_CONFIG, Clock, Watch, hold
from kiosk.state import problem

ROOT = Path(__file__).resolve().parents[2]


def screen_after(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str,
                 boot: str | None = None, toml: str | None = None) -> tuple[int, dict, str]:
    """Run the kiosk headless for no time at all; its exit status, screen and stderr."""
    boot_file, config, status = (tmp_path / "dipclock.txt", tmp_path / "kiosk.toml",
                                 tmp_path / "screen.json")
    if boot is not None:
        boot_file.write_text(boot)
    config.write_text(toml or "")
    rc = main(["--headless", "--run-for", "0", "--boot-file", str(boot_file),
               "--config", str(config), "--outbox", str(tmp_path / "outbox.sqlite"),
               "--status-file", str(status), *argv])
    return rc, json.loads(status.read_text()), capsys.readouterr().err


PROBLEMS = [
    # (boot file, kiosk.toml, options, what it says, the fix says)
    ("", "warning_minutes = 'soon'\n", [], "kiosk.toml: warning_minutes:",
     "kiosk.toml (sudo nano"),
    ("", "[buttons.gpio]\nA = 'GPIO99'\n", ["--pin-factory", "mock"], "buttons.gpio:",
     "BCM pin numbers"),
    ("", "[buttons]\npin_factory = 'lgpio'\n", [],
     "buttons.pin_factory: pin factory 'lgpio' cannot load its library",
     "sudo apt install python3-lgpio"),
    ("", "[buttons]\npin_factory = 'lgpoi'\n", [], "buttons.pin_factory: Input should be",
     "kiosk.toml"),
    ("", "", ["--serial", "bogus://box"], "buttons.serial 'bogus://box':",
     "ls /dev/serial/by-id"),
    ("", "event = 'wdc2019'\n", [], "no round to show: --start: wdc2019 runs on a central",
     "set event and start in kiosk.toml"),
]


@pytest.mark.parametrize(("boot", "toml", "options", "what", "fix"), PROBLEMS,
                         ids=[p[3][:30] for p in PROBLEMS])
def test_every_start_up_problem_is_on_the_screen_with_its_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], boot: str, toml: str,
    options: list[str], what: str, fix: str,
) -> None:
    if "lgpio" in what and importlib.util.find_spec("lgpio") is not None:
        pytest.skip("lgpio is installed here: the factory loads")
    round_ = [] if "no round" in what else ["--event", "wdc2019", "--start", "10:00"]
    rc, screen, err = screen_after(tmp_path, capsys, *round_, *options, boot=boot, toml=toml)
    assert rc == 2
    assert screen["look"] == "problem"
    assert screen["label"] == "This clock cannot start: please call the TD"
    said, to_fix = screen["notes"]
    assert what in said, said
    assert to_fix.startswith("Fix: ") and fix in to_fix, to_fix
    assert err.count("\n") == 1 and what in err and "Traceback" not in err


def test_the_outbox_on_a_path_it_cannot_write_is_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    rc, screen, _ = screen_after(tmp_path, capsys, "--event", "wdc2019", "--start", "10:00",
                                 "--outbox", str(blocked / "outbox.sqlite"))
    assert rc == 2 and screen["look"] == "problem"
    assert f"cannot keep the presses in {blocked / 'outbox.sqlite'}" in screen["notes"][0]
    assert "writable" in screen["notes"][1]


def test_a_good_start_is_the_clock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, screen, err = screen_after(tmp_path, capsys, "--event", "wdc2019",
                                   "--start", "2019-09-06T10:00", "--run-for", "0.3",
                                   boot="table = 4\n")
    assert rc == 0 and screen["look"] != "problem" and "Table 4" in screen["heading"]


def test_a_card_that_names_no_hub_and_no_event_looks_for_the_hub(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class NotReadYet:  # this machine's network is not the card's: none read yet
        def start(self) -> NotReadYet:
            return self

        def state(self) -> None:
            return None

        def close(self) -> None:
            pass

    monkeypatch.setattr("kiosk.startup.NetworkWatch", NotReadYet)
    # the hall's shared key of old is no error: it is ignored, and the log says so
    rc, screen, err = screen_after(tmp_path, capsys, boot="table = 5\nkey = K\n")
    assert rc == 0
    assert (screen["heading"], screen["label"]) == ("Table 5", "Looking for the hub on the network")
    assert screen["notes"] == ["Start the hub card on this same network: it is found by itself. "
                               "Last resort: hub = https://ADDRESS:8000 in dipclock.txt"]
    assert "key = ... is no longer used" in caplog.text


REFUSED = ("dipclock.txt line 2 not used: unknown key 'tabel', did you mean table?",
           "Fix: correct line 2 of dipclock.txt on a laptop (the DIPCLOCK drive)")


def test_a_wrong_line_of_dipclock_txt_is_on_the_screen_beside_a_working_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """One typo in dipclock.txt: the clock starts with the good lines (table 4) and the
    frame drawn (SDL's dummy driver, 800x480) names the refused line and the fix."""
    import pygame

    import kiosk.draw
    from kiosk.state import Screen

    frames: list[tuple[pygame.Rect, list[kiosk.draw.Drawn]]] = []
    real = kiosk.draw.render

    def render(surface: pygame.Surface, screen: Screen, painter: kiosk.draw.Painter
               ) -> list[kiosk.draw.Drawn]:
        frames.append((surface.get_rect(), real(surface, screen, painter)))
        return frames[-1][1]

    monkeypatch.setattr(kiosk.draw, "render", render)
    rc, screen, err = screen_after(tmp_path, capsys, "--event", "wdc2019",
                                   "--start", "2019-09-06T10:00", "--run-for", "0.3",
                                   boot="table = 4\ntabel = 5\n")
    assert rc == 0 and screen["look"] != "problem" and "Table 4" in screen["heading"]
    assert screen["alerts"][-2:] == list(REFUSED)
    area, drawn = frames[-1]
    assert area.size == (800, 480)
    assert [d.text for d in drawn if d.role == "alert"][-2:] == list(REFUSED)  # whole words
    assert any(d.role == "big" for d in drawn)  # the clock, not a problem screen
    assert all(area.contains(d.rect) for d in drawn)
    assert REFUSED[0] in caplog.text  # and in the journal


def test_looking_for_the_hub_shows_the_refused_line_and_imagers_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card's setup found Imager's settings (it left the note in /run/dipclock-card):
    the table's screen says they are not used and where they belong."""
    from machine import identity

    notes = tmp_path / "run-dipclock-card"
    notes.mkdir()
    (notes / "imager").write_text("".join(f"{line}\n" for line in identity.IMAGER_NOTES))
    (notes / "refused").write_text("left by the card's setup: the kiosk reads the file\n")
    monkeypatch.setattr(identity, "CARD_NOTES", notes)
    rc, screen, _ = screen_after(tmp_path, capsys, boot="table = 5\ntabel = 5\n")
    assert rc == 0 and screen["label"] == "Looking for the hub on the network"
    assert screen["alerts"] == [*REFUSED, *identity.IMAGER_NOTES]


def test_the_advice_for_dipclock_txt_works_on_a_read_only_card() -> None:
    from kiosk.startup import problem_for
    from machine.identity import IdentityError

    found = problem_for(IdentityError("/boot/firmware/dipclock.txt line 2: unknown key"), None)
    assert "sudo nano" not in found.fix  # the card's root is read-only
    assert found.fix.startswith("take the card out, open its DIPCLOCK drive on a laptop")


# --- watching the files, holding the screen ------------------------------------------------

def test_watch_sees_a_file_edited_created_or_removed(tmp_path: Path) -> None:
    there, missing = tmp_path / "kiosk.toml", tmp_path / "dipclock.txt"
    there.write_text("table = 3\n")
    watch = Watch([there, missing])
    assert not watch.changed()
    there.write_text("table = 4\n")
    assert watch.changed()
    watch = Watch([there, missing])
    missing.write_text("table = 5\n")
    assert watch.changed()
    watch = Watch([there, missing])
    there.unlink()
    assert watch.changed()


@pytest.fixture
def display() -> Iterator[Display]:
    d = Display(headless=True)
    d.use((800, 480), False)
    yield d  # the session's pygame stays up: conftest quits it at the end


class Steps:
    """A clock that moves only when the loop waits; runs ``at[n]`` on the n-th wait."""

    def __init__(self, at: dict[int, object]) -> None:
        self.t, self.waits, self.at = 100.0, 0, at

    def mono(self) -> float:
        return self.t

    def wait(self, seconds: float) -> None:
        self.waits += 1
        self.t += seconds
        action = self.at.get(self.waits)
        if callable(action):
            action()


def test_a_problem_stays_up_until_a_settings_file_changes(tmp_path: Path,
                                                          display: Display) -> None:
    boot = tmp_path / "dipclock.txt"
    boot.write_text("tabel = 3\n")
    steps = Steps({40: lambda: boot.write_text("table = 3\n")})
    shown: list[str] = []
    outcome = hold(display, lambda: problem("what", "fix"), Watch([boot]),
                   Clock(steps.mono, steps.wait), recheck=2.0,
                   on_screen=lambda f, m: shown.append(f.screen.look))
    assert outcome == "changed"
    assert shown == ["problem"]  # drawn once, not once per wait
    assert steps.t - 100.0 >= 40 * 0.25  # it waited for the edit, however long it took


def test_run_for_ends_a_problem_screen(tmp_path: Path, display: Display) -> None:
    steps = Steps({})
    clock = Clock(steps.mono, steps.wait, end=130.0)
    outcome = hold(display, lambda: problem("what", "fix"), Watch([tmp_path / "x"]), clock)
    assert outcome == "time up" and steps.t >= 130.0


# --- a real kiosk process ---------------------------------------------------------------

def kiosk_process(tmp_path: Path, *argv: str, env: dict[str, str] | None = None
                  ) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "dipclock", "kiosk", "--outbox", str(tmp_path / "o.sqlite"),
         "--config", str(tmp_path / "kiosk.toml"), *argv],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **(env or {})})


def test_the_kiosk_starts_over_by_itself_when_a_settings_file_is_corrected(
        tmp_path: Path) -> None:
    boot, toml = tmp_path / "dipclock.txt", tmp_path / "kiosk.toml"
    boot.write_text("table = 3\ntabel = 3\n")  # a typo here costs its line only
    toml.write_text('event = "wdc2019"\nstart = "2019-09-06T10:00"\nwarning_minutes = "x"\n')
    proc = kiosk_process(tmp_path, "--headless", "--run-for", "120", "--boot-file", str(boot))
    try:
        first = proc.stderr.readline()  # type: ignore[union-attr]
        assert "kiosk.toml: warning_minutes" in first and "Fix: " in first
        assert proc.poll() is None  # it stays up on the problem: no restart loop
        toml.write_text('event = "wdc2019"\nstart = "2019-09-06T10:00"\n')
        ready = proc.stdout.readline()  # type: ignore[union-attr]
        # READY first (scripts wait for it), then which table, which round, and the reading
        assert ready.startswith("READY table 3, no hub (wdc2019, round from 2019-09-06 10:00), "
                                "monotonic "), ready
    finally:
        proc.kill()
        proc.wait()


def test_no_display_at_all_is_one_line_on_the_console_and_status_78(tmp_path: Path) -> None:
    # this machine has no DRM device, as a Pi whose screen is not connected or whose
    # user may not open /dev/dri
    (tmp_path / "kiosk.toml").write_text("")
    proc = kiosk_process(tmp_path, "--event", "wdc2019", "--start", "10:00", "--run-for", "5",
                         env={"SDL_VIDEODRIVER": "kmsdrm"})
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == EX_CONFIG == 78
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("dipclock kiosk: cannot open the display with kmsdrm: ")
    assert "Fix: " in err
    # this SDL has the driver (pygame-ce): the fix is the device, not the library
    assert "dtoverlay=vc4-kms-v3d" in err and "pygame-ce" not in err
    assert "READY" not in out



def test_a_failure_nobody_foresaw_is_on_the_screen_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kiosk.options import build_parser
    from kiosk.startup import UNEXPECTED_FIX, run

    def broken(args: object) -> object:
        raise RuntimeError("the card is on fire")

    status = tmp_path / "screen.json"
    args = build_parser().parse_args(["--headless", "--run-for", "0", "--status-file",
                                      str(status), "--boot-file", str(tmp_path / "none")])
    assert run(args, broken) == 2  # type: ignore[arg-type]
    screen = json.loads(status.read_text())
    assert screen["notes"] == ["unexpected RuntimeError: the card is on fire",
                               f"Fix: {UNEXPECTED_FIX}"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
