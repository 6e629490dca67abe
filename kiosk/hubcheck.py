"""The hub as this kiosk will meet it: does it answer, is this clock paired, do clocks agree?

The same requests the kiosk makes (``GET /api/time``, ``GET /api/tables/{n}/snapshot`` with
the clock's token, over HTTPS pinned to the certificate it was paired with), so a wrong
address, a revoked clock, another hub's certificate or a table missing from the round shows
here with its fix instead of as a table stuck on "connecting".
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from dipclock.sync import sample
from kiosk.pairing import CREDENTIAL, Credential, certificate_refused
from machine.check import Check, fail, ok, warn

OFFSET_WARN = 1.0  # seconds


def stored_credential(outbox: Path, wished: int | None) -> Credential | None:
    """The pairing the kiosk keeps in its outbox, read without changing the file (the
    doctor may run beside the kiosk, or as another user); None if there is none, or if it
    is for another table than the card now says (the kiosk will pair again)."""
    if not outbox.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{outbox}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM settings WHERE key = ?",
                             (CREDENTIAL,)).fetchone()
        finally:
            db.close()
        found = Credential.from_json(json.loads(row[0])) if row else None
    except (sqlite3.Error, ValueError):
        return None
    return found if found is not None and found.wished == wished else None


def wall_seconds() -> float:
    """This machine's wall clock in the hub's unit: POSIX seconds (``dipclock.sync``)."""
    return time.time()


def check_hub(client: httpx.Client, paired: Credential | None,
              wall: Callable[[], float] = wall_seconds, found_by: str = "") -> list[Check]:
    """``client`` has the hub's address as its base URL (``found_by`` says how we got it)
    and verifies it as the clock does (``kiosk.pairing.pinned``). Stops at the first
    failure: a hub that does not answer has no pairing or clock to check."""
    url = str(client.base_url).rstrip("/")
    t0 = wall()
    try:
        r = client.get("/api/time")
        t3 = wall()
    except httpx.HTTPError as exc:
        if certificate_refused(exc):
            return [fail("hub", f"{url} holds another certificate than the one this clock "
                                "was paired with",
                         "if the TD set the hub up afresh, restart the kiosk (sudo systemctl "
                         "restart dipclock-kiosk): it pairs again with a new code")]
        return [fail("hub", f"{url} does not answer: {exc or type(exc).__name__}",
                     "check the network cable or Wi-Fi, and that the hub runs "
                     "(journalctl -u dipclock-hub on the hub)")]
    try:
        if r.status_code != 200:
            raise ValueError(f"HTTP {r.status_code}")
        body = r.json()
        t1, t2 = float(body["t1"]), float(body["t2"])
    except (ValueError, TypeError, KeyError):
        return [fail("hub", f"{url} answers (HTTP {r.status_code}) but is not a dipclock hub",
                     "check the hub address: https://ADDRESS:8000, the port `dipclock hub` "
                     "printed")]
    found = [ok("hub", f"{url} answers{found_by}")]
    found.append(_pairing(client, url, paired))
    found.append(_offset(sample(t0, t1, t2, t3).offset, t3 - t0))
    return found


def _pairing(client: httpx.Client, url: str, paired: Credential | None) -> Check:
    name = "pairing"
    if paired is None:
        return warn(name, "this clock is not paired with the hub yet",
                    "start the kiosk: it shows a code, and the TD approves it on the "
                    "dashboard, under Clocks")
    table = paired.table
    try:
        r = client.get(f"/api/tables/{table}/snapshot",
                       headers={"Authorization": f"Bearer {paired.token}"})
    except httpx.HTTPError as exc:
        return fail(name, f"asking {url} for table {table} failed: {exc or type(exc).__name__}",
                    "check the network and run the doctor again")
    if r.status_code in (401, 403):
        return fail(name, f"the hub no longer takes this clock for table {table} (revoked, "
                          "or another hub)",
                    "restart the kiosk (sudo systemctl restart dipclock-kiosk): it shows a "
                    "new code for the TD to approve")
    if r.status_code != 200:
        return fail(name, f"the hub answers table {table} with HTTP {r.status_code}",
                    "look at the hub's log: journalctl -u dipclock-hub")
    try:
        event = r.json().get("event")
    except (ValueError, AttributeError):
        event = None
    round_said = "round set up" if event else "no round set up yet"
    return ok(name, f"paired for table {table} ({round_said})")


def _offset(offset: float, rtt: float) -> Check:
    name = "hub clock"
    said = f"{abs(offset):.2f} s {'behind' if offset > 0 else 'ahead of'} the hub" \
           f" (round trip {rtt * 1000:.0f} ms)"
    if abs(offset) <= OFFSET_WARN:
        return ok(name, f"this machine's clock is {said}")
    hours = abs(offset) / 3600
    if hours >= 0.5 and abs(hours - round(hours)) < 0.02:
        return warn(name, f"this machine's clock is {said}: another time zone?",
                    "give it the hub's time zone: sudo raspi-config, Localisation Options, "
                    "Timezone")
    return warn(name, f"this machine's clock is {said}; the kiosk shows the hub's time",
                "let both machines reach a time server (NTP), or set the hub's time from "
                "the dashboard")
