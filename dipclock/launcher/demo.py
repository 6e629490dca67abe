"""``dipclock demo``: a hub and a kiosk window together, a round already under way.

What ``make demo`` runs. The hub gets a fresh data folder and a one-off TD password; the
round starts so that Spring 1901's deadline is 90 seconds away, so within two minutes a
newcomer sees the warning colour, the deadline and the late counters. Everything goes
through the same commands and routes a TD uses (`dipclock hub`, the dashboard's API,
`dipclock kiosk --hub`), so the demo is also a smoke test of the whole chain.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import httpx

from dipclock.eventfiles import load_event
from dipclock.schedule import Schedule
from dipclock.sync import to_local
from dipclock.timeline import timetable

LEAD = timedelta(seconds=90)


def _wait_for(url: str, proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("dipclock demo: the hub stopped; see the lines above")
        try:
            if httpx.get(url + "/api/time", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"dipclock demo: the hub did not answer at {url} within {seconds:g} s")


def _has_display() -> bool:
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="dipclock demo", description=__doc__.splitlines()[0])
    p.add_argument("--event", default="wdc2006", help="built-in id or .toml (default wdc2006)")
    p.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to reach it from a phone")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--headless", action="store_true", help="no kiosk window")
    p.add_argument("--run-for", type=float, help="stop after this many seconds")
    args = p.parse_args(argv)
    # `kill` or systemd's stop ends the demo as Ctrl-C does: its children stop with it
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    profile = load_event(args.event)
    data = Path(tempfile.mkdtemp(prefix="dipclock-demo-"))
    password = "demo-" + secrets.token_hex(4)
    env = os.environ | {"DIPCLOCK_TD_PASSWORD": password, "PYTHONUNBUFFERED": "1"}
    py = [sys.executable, "-m", "dipclock"]
    hub = subprocess.Popen(
        # a demo starts at once on any laptop's clock and announces nothing on the network
        [*py, "hub", "--data", str(data / "hub"), "--host", args.host, "--port", str(args.port),
         "--wait-for-sync", "0", "--no-mdns"],
        env=env,
    )
    children = [hub]
    try:
        local = f"http://127.0.0.1:{args.port}"
        _wait_for(local, hub)
        td = httpx.Client(base_url=local, timeout=10)
        login = td.post("/api/login", json={"password": password})
        login.raise_for_status()
        td.headers["X-CSRF-Token"] = login.json()["csrf"]
        now = to_local(httpx.get(local + "/api/time").json()["t1"]).replace(microsecond=0)
        first = timetable(profile, Schedule(start=now, last_year=1901)).phases[0]
        start = now - (first.deadline - now) + LEAD
        event = {"builtin": profile.id} if args.event == profile.id else {
            "toml": Path(args.event).read_text(encoding="utf-8"), "filename": args.event}
        for method, path, body in (
            ("PUT", "/api/td/event", event),
            ("PUT", "/api/td/round", {"number": 1, "start": start.isoformat()}),
            ("PUT", "/api/td/tables", {"count": args.tables}),
        ):
            td.request(method, path, json=body).raise_for_status()
        key = td.get("/api/td/state").json()["kiosk_key"]

        headless = args.headless or not _has_display()
        kiosk_cmd = [*py, "kiosk", "--hub", local, "--table", "1", f"--key={key}",
                     "--outbox", str(data / "kiosk-1.sqlite")]
        kiosk_cmd += ["--headless"] if headless else ["--size", "1280x720", "--no-fullscreen"]
        children.append(subprocess.Popen(kiosk_cmd, env=env))

        print()
        print("dipclock demo: a wdc2006 round is under way; Spring 1901's deadline is 90 s away.")
        print(f"  TD dashboard:  {local}/dashboard   (sign in with password {password})")
        print(f"  Hall clock:    {local}/hall")
        if headless:
            print("  Kiosk:         running headless (no display here): watch the hall clock")
        else:
            print("  Kiosk window:  table 1; keys A E F G I R T are the powers' buttons,")
            print("                 hold one for 3 s to take that power out of the game")
        print(f"  Demo data:     {data} (removed when the demo stops)")
        print("  Stop with Ctrl-C.", flush=True)
        ends = time.monotonic() + args.run_for if args.run_for else None
        while ends is None or time.monotonic() < ends:
            if any(c.poll() is not None for c in children):
                print("dipclock demo: a part stopped; ending the demo", file=sys.stderr)
                return 1
            time.sleep(0.5)
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        for c in reversed(children):
            if c.poll() is None:
                c.send_signal(signal.SIGTERM)
        for c in children:
            try:
                c.wait(timeout=10)
            except subprocess.TimeoutExpired:
                c.kill()
                c.wait()
        shutil.rmtree(data, ignore_errors=True)  # a demo leaves nothing behind
