"""`make demo`: a hub and a kiosk, a round set up through the TD's API, then a clean stop."""

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_demo_starts_a_round_under_way_and_stops_cleanly():
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "dipclock", "demo", "--headless", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    lines: list[str] = []
    try:
        ends = time.monotonic() + 60
        while time.monotonic() < ends:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "Stop with Ctrl-C" in line:
                break
        text = "".join(lines)
        assert f"TD dashboard:  http://127.0.0.1:{port}/dashboard" in text, text
        password = text.split("sign in with password ")[1].split(")")[0]
        hall = httpx.get(f"http://127.0.0.1:{port}/api/hall", timeout=5).json()["view"]
        assert hall["stage"] == "negotiating" and hall["phase"] == "S1901"
        assert 30 < hall["remaining"] <= 90
        login = httpx.post(f"http://127.0.0.1:{port}/api/login", json={"password": password})
        assert login.status_code == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/time", timeout=1)
            raise AssertionError("the hub is still running after the demo stopped")
        except httpx.TransportError:
            pass
    finally:
        if proc.poll() is None:
            proc.kill()


def test_demo_stopped_with_sigterm_leaves_no_hub_behind():
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "dipclock", "demo", "--headless", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        ends = time.monotonic() + 60
        while time.monotonic() < ends and "Stop with Ctrl-C" not in proc.stdout.readline():
            pass
        assert httpx.get(f"http://127.0.0.1:{port}/api/time", timeout=5).status_code == 200
        proc.terminate()
        assert proc.wait(timeout=20) == 0
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/time", timeout=1)
            raise AssertionError("the demo's hub outlived it")
        except httpx.TransportError:
            pass
    finally:
        if proc.poll() is None:
            proc.kill()
