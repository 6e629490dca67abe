"""SIGKILL mid-burst, or between a re-stamp and its upload: every acknowledged press survives."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from dipclock.events import BUILTIN
from dipclock.schedule import Schedule
from dipclock.sync import to_seconds
from hardware.events import ButtonEvent
from kiosk.app import FixedRound, Kiosk
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from kiosk.round import Round, round_key
from machine.passwords import hash_password
from tests.doubles import FakeClock, FixedTime
from tests.server.conftest import PASSWORD, START, Hub

ROOT = Path(__file__).resolve().parents[2]


def kiosk(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.Popen(
        [sys.executable, "-m", "dipclock", "kiosk", "--headless", "--no-keyboard", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )


def test_sigkill_mid_burst_loses_and_doubles_nothing(tmp_path: Path) -> None:
    outbox = tmp_path / "outbox.sqlite"
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    start = (datetime.now() - timedelta(minutes=5)).replace(microsecond=0)
    proc = kiosk("--event", "wdc2006", "--start", start.isoformat(), "--table", "3",
                 "--outbox", str(outbox), "--serial", f"socket://127.0.0.1:{port}",
                 "--run-for", "60")
    server.settimeout(20)
    try:
        conn, _ = server.accept()
    except TimeoutError:
        raise AssertionError("the kiosk did not open its button box within 20 s") from None
    stop = threading.Event()

    def burst() -> None:
        i = 0
        while not stop.is_set():
            try:
                conn.sendall(f"P {'AEFGIRT'[i % 7]} 0\n".encode())
            except OSError:
                return
            i += 1
            time.sleep(0.002)

    sender = threading.Thread(target=burst, daemon=True)
    sender.start()
    acked = []
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            if line.startswith("PRESS "):
                acked.append(line.split()[1])
                if len(acked) == 40:
                    proc.send_signal(signal.SIGKILL)  # mid-burst: presses still arriving
                    break
    finally:
        proc.wait(timeout=10)
        stop.set()
        conn.close()
        server.close()
    assert proc.returncode == -signal.SIGKILL

    db = sqlite3.connect(outbox)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    rows = [r[0] for r in db.execute("SELECT id FROM presses")]
    db.close()
    assert len(rows) == len(set(rows)), "a press was stored twice"
    assert set(acked) <= set(rows), "an acknowledged press was lost"
    assert len(rows) >= 40

    # Restart with no round given: it resumes the stored round and keeps every press.
    again = kiosk("--outbox", str(outbox), "--run-for", "0.5")
    out, err = again.communicate(timeout=30)
    assert again.returncode == 0, err
    assert out.startswith("READY")
    db = sqlite3.connect(outbox)
    after = [r[0] for r in db.execute("SELECT id FROM presses")]
    assert sorted(after) == sorted(rows)
    stored = db.execute("SELECT value FROM settings WHERE key = 'standalone'").fetchone()[0]
    assert start.isoformat() in stored


SETTLE_THEN_HANG = """
import sys
from datetime import datetime
from dipclock.events import BUILTIN
from dipclock.timeline import Schedule
from kiosk.app import FixedRound, Kiosk
from tests.doubles import FixedTime
from kiosk.outbox import Outbox
from kiosk.round import Round, round_key

path, boot, offset, mono = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
profile, schedule = BUILTIN["wdc2006"], Schedule(start=datetime(2024, 5, 4, 9, 0))
rnd = Round(profile, schedule, 1, round_key(profile, schedule, 1))
kiosk = Kiosk(FixedRound(rnd), Outbox(path), FixedTime(offset), log=print, boot=boot)
kiosk.frame(mono)  # the time base is trusted: the guesses are re-stamped here
print("SETTLED", flush=True)
sys.stdin.read()  # the upload would come next; the power goes first
"""


def test_power_lost_between_restamp_and_upload_loses_nothing(tmp_path: Path) -> None:
    """A kiosk process re-stamps its offline press, then dies (SIGKILL) before uploading."""
    pressed = START + timedelta(minutes=16, seconds=50)
    offset = to_seconds(START) - 1000.0  # hub time = mono + offset in this boot
    mono = to_seconds(pressed) - offset
    path = tmp_path / "outbox.sqlite"
    outbox = Outbox(path)  # the press, made while the clock was an hour back and unverified
    profile, schedule = BUILTIN["wdc2006"], Schedule(start=START)
    rnd = Round(profile, schedule, 1, round_key(profile, schedule, 1))
    offline = Kiosk(FixedRound(rnd), outbox, FixedTime(offset - 3600, verified=False),
                    log=lambda line: None, boot="b1")
    guess = offline.handle(ButtonEvent("I", "press", mono, "gpio"))
    outbox.close()

    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.Popen([sys.executable, "-c", SETTLE_THEN_HANG, str(path), "b1",
                             repr(offset), repr(mono + 20)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
                            cwd=ROOT)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]
        assert lines[0].startswith(f"RESTAMP {guess.id} ") and lines[1] == "SETTLED\n"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    hub = Hub(tmp_path / "hub", hash_password(PASSWORD), FakeClock(to_seconds(pressed) + 20))
    outbox = Outbox(path)  # the kiosk starts again, the hub in reach
    client = HubClient("http://testserver", 1, hub.token(1), outbox,
                       transport=hub.client._transport)
    try:
        hub.set_up(hub.sign_in())
        [row] = outbox.presses()
        assert (row.id, row.at, row.trusted, row.sent) == (guess.id, pressed, True, False)
        assert client.upload_once()
        snap = client.http.get("/api/tables/1/snapshot").json()
        assert [(p["id"], p["at"]) for p in snap["presses"]] == [(guess.id, pressed.isoformat())]
    finally:
        client.close()
        outbox.close()
        hub.close()


def counted(tmp_path: Path, rnd: Round, at: datetime
            ) -> tuple[Kiosk, Outbox, list[str], list[None]]:
    """A kiosk playing ``rnd``, at ``at`` at its monotonic 1000 s: its outbox, the lines it
    says (PRESS, CONFIRM) and each time it wakes the upload."""
    woken: list[None] = []

    class Source(FixedRound):
        def sent(self) -> None:
            woken.append(None)

    outbox = Outbox(tmp_path / "outbox.sqlite")
    said: list[str] = []
    table = Kiosk(Source(rnd), outbox, FixedTime(to_seconds(at) - 1000.0), log=said.append)
    return table, outbox, said, woken


def test_a_press_the_card_could_not_store_is_never_acknowledged(tmp_path: Path) -> None:
    """The order the SIGKILL test can only catch by luck, made certain: write, then say so.

    The outbox refuses the write (a card that went read-only, as a failing SD card does);
    a kiosk that acknowledged first would have printed the press and woken the upload.
    """
    profile, schedule = BUILTIN["wdc2006"], Schedule(start=START)
    rnd = Round(profile, schedule, 1, round_key(profile, schedule, 1))
    table, outbox, said, woken = counted(tmp_path, rnd, START)
    table.handle(ButtonEvent("A", "press", 1000.0 + 60, "gpio"))
    assert len(said) == 1 and len(woken) == 1
    outbox._db.execute("PRAGMA query_only = ON")  # every write now fails, as on a dead card
    with pytest.raises(sqlite3.Error):
        table.handle(ButtonEvent("E", "press", 1000.0 + 61, "gpio"))
    assert len(said) == 1 and len(woken) == 1  # no PRESS line, no upload for it
    assert [p.power for p in outbox.presses()] == ["A"]
    assert [p.power for p in table.presses(rnd.key)] == ["A"]  # nor shown on the screen
    outbox.close()


def test_a_confirmation_the_card_could_not_store_is_never_shown_or_sent(tmp_path: Path) -> None:
    """As for a press: the line is written, then said, shown and sent; a card that refuses
    the write leaves the line open, with no CONFIRM line and no upload woken."""
    from dipclock.late import LATE_WINDOW
    from dipclock.snapshot import TableResult
    from dipclock.timeline import timetable

    profile, schedule = BUILTIN["wdc2006"], Schedule(start=START, last_year=1901)
    # the last deadline's late window closed: nobody counts late
    over = timetable(profile, schedule, 1).phases[-1].deadline + LATE_WINDOW + timedelta(seconds=1)
    result = TableResult(round=1, version=1, year=1901, ending="A draw of all survivors",
                         centres={"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5})
    rnd = Round(profile, schedule, 1, round_key(profile, schedule, 1), result=result, hub="h")
    table, outbox, said, woken = counted(tmp_path, rnd, over)
    table.handle(ButtonEvent("A", "press", 1000.0, "gpio"))
    assert [line.split()[0] for line in said] == ["CONFIRM"] and len(woken) == 1
    outbox._db.execute("PRAGMA query_only = ON")  # every write now fails, as on a dead card
    with pytest.raises(sqlite3.Error):
        table.handle(ButtonEvent("E", "press", 1001.0, "gpio"))
    assert len(said) == 1 and len(woken) == 1
    assert [c.power for c in outbox.confirmations()] == ["A"]
    sheet = table.frame(1002.0).screen.sheet
    assert sheet is not None
    assert [ln.state for ln in sheet.lines][:2] == ["pending", "open"]
    assert outbox.presses() == []  # neither went in as a press
    outbox.close()
