"""``dipclock demo``: a hub and a kiosk window together, a round already under way.

What ``make demo`` runs. The hub gets a fresh data folder and a one-off TD password; the
round starts so that Spring 1901's deadline is 90 seconds away, so within two minutes a
newcomer sees the warning colour, the deadline and the late counters. Everything goes
through the same commands and routes a TD uses (`dipclock hub` over HTTPS, the dashboard's
API, `dipclock kiosk --hub`, the kiosk's pairing code approved as the TD approves it), so
the demo is also a smoke test of the whole chain.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from dipclock.errors import DipclockError
from dipclock.eventfiles import load_event
from dipclock.i18n import said
from dipclock.launcher.language import words_in
from dipclock.schedule import Schedule
from dipclock.sync import to_moment
from dipclock.timeline import timetable
from dipclock.venuetime import venue_naive, zone

LEAD = timedelta(seconds=90)
DEFAULT_PORT = 8000
#: How long each part (the hub, then the kiosk) is given to stop on SIGTERM before it is
#: killed: a stop never hangs, and a demo stopped on a loaded machine still ends cleanly.
STOP_SECONDS = 10.0


class DemoError(DipclockError):
    """Something the person running the demo fixes: one line on stderr, exit status 2."""


def listening(host: str, port: int) -> socket.socket | None:
    """A socket listening on ``host``:``port`` (0: a free port), bound as the hub binds
    (``server.serve.bind``: a port merely in TIME_WAIT is free, one another program listens
    on is not); None if the port is taken. The demo hands it to its hub (``dipclock hub
    --fd``): a port found free is the hub's from that moment, never free for another demo
    to take before the hub binds it; and a taken one is one clear line rather than the
    hub's error, or worse, another hub answering in its place."""
    from server.serve import bind

    try:
        s = bind(host, port)
    except socket.gaierror:
        raise DemoError(said("--host {host}: not an address of this machine", host=host)) \
            from None
    except OSError:
        return None
    try:
        s.listen()
    except OSError:
        s.close()
        return None
    return s


def take_port(host: str, asked: int | None, default: int = DEFAULT_PORT,
              say: Callable[[str], None] = print) -> socket.socket:
    """The listening socket the demo's hub serves. A port asked for (``--port``, ``make demo
    PORT=``) must be free (0: any free one); with none asked for, the default if free, else
    any free port, said aloud."""
    if asked is not None:
        if not 0 <= asked <= 65535:
            raise DemoError(said("--port {port}: must be 1-65535 (or 0: a free one)",
                                 port=asked))
        sock = listening(host, asked)
        if sock is None:
            raise DemoError(said(
                "port {port} on {host} is taken (another program, perhaps another demo or "
                "hub, listens there): choose a free one with --port N (make demo PORT=N)",
                port=asked, host=host))
        return sock
    sock = listening(host, default) or listening(host, 0)
    if sock is None:
        raise DemoError(said("no free port on {host}", host=host))
    port: int = sock.getsockname()[1]
    if port != default:
        say(f"dipclock demo: port {default} is taken, so the hub uses port {port} "
            "(choose one with --port N, or make demo PORT=N)")
    return sock


class Stop:
    """Ctrl-C or SIGTERM, noted by the signal handler and acted on at the demo's own
    checks (``check``). Raised wherever the signal lands, a KeyboardInterrupt can land in
    ``subprocess``'s ``poll`` between taking its waitpid lock and its ``try``: the lock is
    never given back, and stopping the parts then waits on it for ever (the likeliest cause
    of the hangs a test saw twice on a loaded machine; none since)."""

    def __init__(self) -> None:
        self.asked = False

    def ask(self, signum: int, frame: object) -> None:
        self.asked = True

    def check(self) -> None:
        if self.asked:
            raise KeyboardInterrupt


def _wait_for(url: str, proc: subprocess.Popen[bytes], verify: Any, stop: Stop,
              seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        stop.check()
        if proc.poll() is not None:
            raise SystemExit("dipclock demo: the hub stopped; see the lines above")
        try:
            if httpx.get(url + "/api/time", timeout=1, verify=verify).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"dipclock demo: the hub did not answer at {url} within {seconds:g} s")


def _pair_kiosk(td: httpx.Client, table: int, kiosk: subprocess.Popen[bytes], stop: Stop,
                seconds: float = 60) -> str:
    """Approve the demo kiosk's pairing request, as the TD does on the dashboard (under
    Clocks) with the code the kiosk shows; the code."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        stop.check()
        if kiosk.poll() is not None:
            raise DemoError(said("the kiosk stopped before asking to be paired; see the "
                                 "lines above"))
        waiting = _ask(td, "GET", "/api/td/clocks")["waiting"]
        if waiting:
            code = str(waiting[0]["code"])
            _ask(td, "POST", "/api/td/clocks", {"code": code, "table": table})
            return code
        time.sleep(0.2)
    raise DemoError(said("the kiosk did not ask to be paired within {seconds} s",
                         seconds=format(seconds, "g")))


def _ask(client: httpx.Client, method: str, path: str, body: object = None) -> dict[str, Any]:
    """One call to the demo's own hub; a refusal is one line naming the call, not a
    traceback (the hub may be another version, or not the demo's at all)."""
    reply = client.request(method, path, json=body)
    try:
        answer = reply.json()
    except ValueError:
        answer = None
    if reply.status_code >= 400 or not isinstance(answer, dict):
        detail = answer.get("detail") if isinstance(answer, dict) else reply.text[:200]
        raise DemoError(said("the hub refused {method} {path}: {status} {detail}",
                             method=method, path=path, status=reply.status_code,
                             detail=detail))
    return answer


def _has_display() -> bool:
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="dipclock demo", description=__doc__.splitlines()[0])
    p.add_argument("--event", default="wdc2006", help="built-in id or .toml (default wdc2006)")
    p.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to reach it from a phone")
    p.add_argument("--port", type=int,
                   help=f"the hub's port (default {DEFAULT_PORT}, or a free one if it is taken; "
                        "0: a free one)")
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--headless", action="store_true", help="no kiosk window")
    p.add_argument("--run-for", type=float, help="stop after this many seconds")
    args = p.parse_args(argv)
    # `kill` or systemd's stop ends the demo as Ctrl-C does: its children stop with it
    stop = Stop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop.ask)

    try:
        profile = load_event(args.event)
        sock = take_port(args.host, args.port)
    except DipclockError as exc:  # a taken port, a bad event: one line, no traceback
        words = words_in(list(argv if argv is not None else sys.argv[1:]))
        print(words("dipclock demo: error: {message}", message=exc.in_(words)),
              file=sys.stderr)
        return 2
    args.port = sock.getsockname()[1]
    data = Path(tempfile.mkdtemp(prefix="dipclock-demo-"))
    # the hub's certificate, made as the hub makes it at its first start: the demo's TD
    # client pins it (the kiosk pins it when it pairs, as every table's clock does)
    from kiosk.pairing import pinned
    from machine.fingerprint import of_pem
    from server.certificate import ensure

    password = "demo-" + secrets.token_hex(4)
    env = os.environ | {"DIPCLOCK_TD_PASSWORD": password, "PYTHONUNBUFFERED": "1"}
    py = [sys.executable, "-m", "dipclock"]
    try:
        pem = ensure(data / "hub")[0].read_text()
        verify = pinned(pem)
        hub = subprocess.Popen(
            # a demo starts at once on any laptop's clock and announces nothing on the
            # network; the hub serves the socket taken above (its --host and --port)
            [*py, "hub", "--data", str(data / "hub"), "--fd", str(sock.fileno()),
             "--wait-for-sync", "0", "--no-mdns"],
            env=env, pass_fds=(sock.fileno(),),
        )
    finally:
        sock.close()  # the hub's now: when it stops, nothing listens there
    children = [hub]
    try:
        local = f"https://127.0.0.1:{args.port}"
        _wait_for(local, hub, verify, stop)
        td = httpx.Client(base_url=local, timeout=10, verify=verify)
        td.headers["X-CSRF-Token"] = _ask(td, "POST", "/api/login", {"password": password})["csrf"]
        now = to_moment(_ask(td, "GET", "/api/time")["t1"]).replace(microsecond=0)
        first = timetable(profile, Schedule(start=now, last_year=1901)).phases[0]
        start = now - (first.deadline - now) + LEAD
        event = {"builtin": profile.id} if args.event == profile.id else {
            "toml": Path(args.event).read_text(encoding="utf-8"), "filename": args.event}
        for method, path, body in (
            ("PUT", "/api/td/event", event),
            # the dashboard takes the venue's time: the event's zone, as the hub reads it
            ("PUT", "/api/td/round", {
                "number": 1, "start": venue_naive(start, zone(profile.timezone)).isoformat()}),
            ("PUT", "/api/td/tables", {"count": args.tables}),
        ):
            _ask(td, method, path, body)
        headless = args.headless or not _has_display()
        kiosk_cmd = [*py, "kiosk", "--hub", local, "--table", "1",
                     "--outbox", str(data / "kiosk-1.sqlite")]
        kiosk_cmd += ["--headless"] if headless else ["--size", "1280x720", "--no-fullscreen"]
        kiosk = subprocess.Popen(kiosk_cmd, env=env)
        children.append(kiosk)
        code = _pair_kiosk(td, 1, kiosk, stop)

        print()
        print("dipclock demo: a wdc2006 round is under way; Spring 1901's deadline is 90 s away.")
        print(f"  TD dashboard:  {local}/dashboard   (sign in with password {password})")
        print(f"  Hall clock:    {local}/hall")
        print(f"  Certificate:   SHA-256 {of_pem(pem)}")
        print("                 (the hub's own: your browser warns once; check it, then accept)")
        print(f"  Kiosk:         paired for table 1 (its code {code}, approved as the TD does "
              "under Clocks)")
        if headless:
            print("  Kiosk:         running headless (no display here): watch the hall clock")
        else:
            print("  Kiosk window:  table 1; keys A E F G I R T are the powers' buttons,")
            print("                 hold one for 3 s to take that power out of the game")
        print(f"  Demo data:     {data} (removed when the demo stops)")
        print("  Stop with Ctrl-C.", flush=True)
        ends = time.monotonic() + args.run_for if args.run_for else None
        while not stop.asked and (ends is None or time.monotonic() < ends):
            if any(c.poll() is not None for c in children):
                print("dipclock demo: a part stopped; ending the demo", file=sys.stderr)
                return 1
            time.sleep(0.5)
        return 0
    except KeyboardInterrupt:  # Stop.check: asked to stop while starting
        return 0
    except (DemoError, httpx.TransportError) as exc:  # one line, then clean up
        words = words_in(list(argv if argv is not None else sys.argv[1:]))
        message = exc.in_(words) if isinstance(exc, DemoError) else str(exc)
        print(words("dipclock demo: error: {message}", message=message), file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"dipclock demo: error: the hub's answer has no {exc}: is it another version?",
              file=sys.stderr)
        return 2
    finally:
        for c in reversed(children):
            if c.poll() is None:
                c.send_signal(signal.SIGTERM)
        for name, c in zip(("the hub", "the kiosk"), children, strict=False):
            try:
                c.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                print(f"dipclock demo: {name} did not stop within {STOP_SECONDS:g} s; "
                      "killed", file=sys.stderr)
                c.kill()
                c.wait()
        shutil.rmtree(data, ignore_errors=True)  # a demo leaves nothing behind
