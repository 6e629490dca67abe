"""The box firmware, compiled for the PC against a simulated Arduino, speaks our protocol.

The sketch runs unchanged (tests/hardware/firmware_sim/ supplies millis(), digitalRead() and
Serial); its output goes through the host's own parse_line, so firmware and host cannot drift.
Skipped where there is no C++ compiler.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from hardware import parse_line
from hardware.serialbox import BoxHold, BoxPress, Garbled, Heartbeat, Hello

HERE = Path(__file__).parent
SKETCH = HERE.parents[1] / "hardware" / "buttonbox" / "buttonbox.ino"
PIN = dict(zip("AEFGIRT", range(2, 9), strict=True))

Run = Callable[[str], list[tuple[int, object]]]


@pytest.fixture(scope="module")
def sim(tmp_path_factory) -> Path:
    """The sketch built into a PC program (see firmware_sim/sim.cpp for its script language)."""
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler to build the firmware simulator")
    exe = tmp_path_factory.mktemp("fw") / "buttonbox_sim"
    subprocess.run(
        [
            cxx,
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            f"-I{HERE / 'firmware_sim'}",
            f'-DBUTTONBOX_INO="{SKETCH}"',
            str(HERE / "firmware_sim" / "sim.cpp"),
            "-o",
            str(exe),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return exe


def simulate(sim: Path, script: str) -> bytes:
    return subprocess.run([str(sim)], input=script.encode(), capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def run(sim: Path) -> Run:
    """Script in, [(millis when sent, parsed message)] out; every line must parse."""

    def run_script(script: str) -> list[tuple[int, object]]:
        out = simulate(sim, script)
        lines = []
        for raw in out.splitlines(keepends=True):
            if raw.startswith(b"#"):
                continue
            stamp, line = raw.split(b"\t", 1)
            assert line.endswith(b"\n")  # every write is one whole, terminated line
            message = parse_line(line)
            assert not isinstance(message, Garbled), line
            lines.append((int(stamp), message))
        return lines

    return run_script


def events_only(lines: list[tuple[int, object]]) -> list[tuple[int, object]]:
    return [(t, m) for t, m in lines if not isinstance(m, Hello | Heartbeat)]


def test_boot_says_hello_at_115200(sim: Path, run: Run) -> None:
    assert run("boot\nrun 10\n") == [(5, Hello(1))]
    assert b"#baud 115200\n" in simulate(sim, "boot\n")


def test_press_reports_ms_so_the_host_recovers_the_down_time(run: Run) -> None:
    lines = events_only(run("boot\nrun 100\npin 2 0\nrun 250\npin 2 1\nrun 100\n"))
    [(sent, message)] = lines
    assert isinstance(message, BoxPress) and message.power == "A"
    down = 105  # boot takes 5 ms, then 100 ms of loop
    assert sent - message.ms == down


def test_each_pin_is_its_power(run: Run) -> None:
    script = "boot\n" + "".join(
        f"pin {pin} 0\nrun 100\npin {pin} 1\nrun 100\n" for pin in PIN.values()
    )
    assert [m.power for _, m in events_only(run(script))] == list(PIN)


def test_bouncing_contacts_give_one_press(run: Run) -> None:
    chatter = "".join(f"pin 4 {i % 2}\nrun 2\n" for i in range(8))  # 0,1,0,1... 2 ms apart
    script = f"boot\nrun 50\n{chatter}pin 4 0\nrun 300\n{chatter}pin 4 1\nrun 100\n"
    lines = events_only(run(script))
    assert [type(m) for _, m in lines] == [BoxPress]
    sent, message = lines[0]
    settled = 5 + 50 + 16  # boot, idle, chatter
    assert message.power == "F" and sent - message.ms == settled


def test_spike_shorter_than_debounce_is_ignored(run: Run) -> None:
    assert events_only(run("boot\nrun 50\npin 5 0\nrun 5\npin 5 1\nrun 100\n")) == []


def test_hold_is_sent_once_at_three_seconds_and_release_sends_nothing(run: Run) -> None:
    lines = events_only(run("boot\nrun 95\npin 6 0\nrun 5000\npin 6 1\nrun 200\n"))
    assert lines == [(100 + 3000, BoxHold("I"))]


def test_button_down_at_boot_sends_nothing_until_pushed_again(run: Run) -> None:
    lines = events_only(
        run("pin 8 0\nboot\nrun 4000\npin 8 1\nrun 100\npin 8 0\nrun 100\npin 8 1\nrun 100\n")
    )
    assert [m for _, m in lines] == [BoxPress("T", 120)]


def test_heartbeat_every_second(run: Run) -> None:
    beats = [t for t, m in run("boot\nrun 3500\n") if isinstance(m, Heartbeat)]
    assert beats == [1005, 2005, 3005]
