"""`make demo`: a hub and a kiosk, a round set up through the TD's API, then a clean stop."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def demo():
    """A headless demo on a free port, read up to its 'Stop with Ctrl-C' line."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "dipclock", "demo", "--headless", "--port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,  # its own process group: the hub and kiosk it starts included
    )
    lines: list[str] = []
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        line = proc.stdout.readline()
        lines.append(line)
        if not line or "Stop with Ctrl-C" in line:
            break
    try:
        yield proc, f"http://127.0.0.1:{port}", "".join(lines)
    finally:
        # whatever the test did, nothing of the demo outlives it: not its hub, not its kiosk
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def hub_is_gone(url: str) -> bool:
    try:
        httpx.get(url + "/api/time", timeout=1)
    except httpx.TransportError:
        return True
    return False


def test_demo_starts_a_round_under_way_and_stops_cleanly(demo):
    proc, url, text = demo
    assert f"TD dashboard:  {url}/dashboard" in text, text
    password = text.split("sign in with password ")[1].split(")")[0]
    hall = httpx.get(url + "/api/hall", timeout=5).json()["view"]
    assert hall["stage"] == "negotiating" and hall["phase"] == "S1901"
    assert 30 < hall["remaining"] <= 90
    assert httpx.post(url + "/api/login", json={"password": password}).status_code == 200
    data = Path(text.split("Demo data:")[1].split()[0])
    assert (data / "hub").is_dir()
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=20) == 0
    assert hub_is_gone(url)
    assert not data.exists()


def test_demo_stopped_with_sigterm_leaves_no_hub_behind(demo):
    proc, url, text = demo
    assert httpx.get(url + "/api/time", timeout=5).status_code == 200, text
    proc.terminate()
    assert proc.wait(timeout=20) == 0
    assert hub_is_gone(url)
