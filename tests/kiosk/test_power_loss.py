"""SIGKILL in the middle of a burst of presses: every acknowledged press survives, once."""

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
    conn, _ = server.accept()
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
