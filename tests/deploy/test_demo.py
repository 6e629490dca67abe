"""`make demo`: a hub and a kiosk, a round set up through the TD's API, then a clean stop."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from dipclock.launcher.demo import STOP_SECONDS
from kiosk.pairing import pinned
from machine.fingerprint import of_pem

ROOT = Path(__file__).resolve().parents[2]
#: The demo stops its two parts one after the other, each given STOP_SECONDS before it is
#: killed; then Python's own exit, which a loaded machine can make slow.
STOPS_WITHIN = 2 * STOP_SECONDS + 30


@pytest.fixture
def demo():
    """A headless demo on a free port (``--port 0``: the demo takes one and says which),
    read up to its 'Stop with Ctrl-C' line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "dipclock", "demo", "--headless", "--port", "0"],
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
    text = "".join(lines)
    said = re.search(r"TD dashboard: +(https://127\.0\.0\.1:\d+)/dashboard", text)
    try:
        assert said is not None, text
        yield proc, said[1], text
    finally:
        # whatever the test did, nothing of the demo outlives it: not its hub, not its kiosk
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def stopped(proc: subprocess.Popen[str]) -> int:
    """The demo's exit status, once it has stopped its parts."""
    try:
        code = proc.wait(timeout=STOPS_WITHIN)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the demo did not stop within {STOPS_WITHIN} s") from None
    said = proc.stdout.read() if proc.stdout is not None else ""
    assert "did not stop" not in said, said  # each part stopped by itself, none was killed
    return code


def hub_is_gone(url: str) -> bool:
    try:
        httpx.get(url + "/api/time", timeout=1, verify=False)  # is anything there at all?
    except httpx.TransportError:
        return True
    return False


def test_demo_starts_a_round_under_way_and_stops_cleanly(demo):
    proc, url, text = demo
    assert f"TD dashboard:  {url}/dashboard" in text, text
    password = text.split("sign in with password ")[1].split(")")[0]
    data = Path(text.split("Demo data:")[1].split()[0])
    pem = (data / "hub" / "hub-cert.pem").read_text()
    assert f"Certificate:   SHA-256 {of_pem(pem)}" in text  # the one the hub serves
    https = {"verify": pinned(pem), "timeout": 5}
    hall = httpx.get(url + "/api/hall", **https).json()["view"]
    assert hall["stage"] == "negotiating" and hall["phase"] == "S1901"
    assert 30 < hall["remaining"] <= 90
    td = httpx.Client(base_url=url, **https)
    assert td.post("/api/login", json={"password": password}).status_code == 200
    # the kiosk showed a code and the demo approved it, as the TD does: paired for table 1
    assert re.search(r"Kiosk: +paired for table 1 \(its code [A-Z0-9]{3}-[A-Z0-9]{3},", text)
    assert [c["table"] for c in td.get("/api/td/clocks").json()["paired"]] == [1]
    td.close()
    proc.send_signal(signal.SIGINT)
    assert stopped(proc) == 0
    assert hub_is_gone(url)
    assert not data.exists()


def test_demo_stopped_with_sigterm_leaves_no_hub_behind(demo):
    proc, url, text = demo
    assert httpx.get(url + "/api/time", timeout=5, verify=False).status_code == 200, text
    proc.terminate()
    assert stopped(proc) == 0
    assert hub_is_gone(url)


@pytest.fixture
def taken_port():
    """A port another program listens on, for as long as the test runs."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def test_a_taken_port_asked_for_is_one_line_naming_it_and_the_option(taken_port, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "dipclock", "demo", "--headless", "--port", str(taken_port)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env=os.environ | {"TMPDIR": str(tmp_path)},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        f"dipclock demo: error: port {taken_port} on 127.0.0.1 is taken (another program, "
        "perhaps another demo or hub, listens there): choose a free one with --port N "
        "(make demo PORT=N)\n")
    assert proc.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no demo data folder left behind


def test_with_no_port_asked_for_a_taken_default_gives_a_free_port_said_aloud(taken_port):
    from dipclock.launcher.demo import take_port

    said: list[str] = []
    with take_port("127.0.0.1", None, default=taken_port, say=said.append) as sock:
        port = sock.getsockname()[1]
        assert port != taken_port
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # listening already: the port is the hub's from this moment
    assert said == [f"dipclock demo: port {taken_port} is taken, so the hub uses port {port} "
                    "(choose one with --port N, or make demo PORT=N)"]
    with socket.socket() as held:  # a free port no other process takes while the test runs:
        # bound, not listening, as the demo binds (SO_REUSEADDR), so the demo may take it
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        held.bind(("127.0.0.1", 0))
        free = held.getsockname()[1]
        with take_port("127.0.0.1", None, default=free, say=said.append) as sock:
            assert sock.getsockname()[1] == free
    assert len(said) == 1  # a free default is used as it is, silently


def test_port_0_asked_for_is_a_free_one_said_nowhere_but_in_the_urls():
    from dipclock.launcher.demo import take_port

    said: list[str] = []
    with take_port("127.0.0.1", 0, say=said.append) as sock:
        assert sock.getsockname()[1] != 0
    assert said == []


def test_make_demo_passes_port_through():
    def demo_line(*make_args: str) -> str:
        out = subprocess.run(["make", "-n", "demo", *make_args], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout  # -n: prints, runs nothing
        return next(ln for ln in out.splitlines() if "-m dipclock demo" in ln).strip()

    assert demo_line("PORT=8123").endswith("-m dipclock demo --port 8123")
    assert demo_line().endswith("-m dipclock demo")
