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

from dipclock.i18n import said
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
    """``client`` has the hub's address as its base URL (``found_by``: found on the network)
    and verifies it as the clock does (``kiosk.pairing.pinned``). Stops at the first
    failure: a hub that does not answer has no pairing or clock to check."""
    url = str(client.base_url).rstrip("/")
    t0 = wall()
    try:
        r = client.get("/api/time")
        t3 = wall()
    except httpx.HTTPError as exc:
        if certificate_refused(exc):
            return [fail("hub", said("{url} holds another certificate than the one this "
                                     "clock was paired with", url=url),
                         said("if the TD set the hub up afresh, restart the kiosk (sudo "
                              "systemctl restart dipclock-kiosk): it pairs again with a new "
                              "code"))]
        return [fail("hub", said("{url} does not answer: {error}", url=url,
                                 error=str(exc) or type(exc).__name__),
                     said("check the network cable or Wi-Fi, and that the hub runs "
                          "(journalctl -u dipclock-hub on the hub)"))]
    try:
        if r.status_code != 200:
            raise ValueError(f"HTTP {r.status_code}")
        body = r.json()
        t1, t2 = float(body["t1"]), float(body["t2"])
    except (ValueError, TypeError, KeyError):
        return [fail("hub", said("{url} answers (HTTP {status}) but is not a dipclock hub",
                                 url=url, status=r.status_code),
                     said("check the hub address: https://ADDRESS:8000, the port `dipclock "
                          "hub` printed"))]
    found = [ok("hub", said("{url} answers (found on the network)", url=url) if found_by
                else said("{url} answers", url=url))]
    found.append(_pairing(client, url, paired))
    found.append(_offset(sample(t0, t1, t2, t3).offset, t3 - t0))
    return found


def _pairing(client: httpx.Client, url: str, paired: Credential | None) -> Check:
    name = "pairing"
    if paired is None:
        return warn(name, said("this clock is not paired with the hub yet"),
                    said("start the kiosk: it shows a code, and the TD approves it on the "
                         "dashboard, under Clocks"))
    table = paired.table
    try:
        r = client.get(f"/api/tables/{table}/snapshot",
                       headers={"Authorization": f"Bearer {paired.token}"})
    except httpx.HTTPError as exc:
        return fail(name, said("asking {url} for table {table} failed: {error}", url=url,
                               table=table, error=str(exc) or type(exc).__name__),
                    said("check the network and run the doctor again"))
    if r.status_code in (401, 403):
        return fail(name, said("the hub no longer takes this clock for table {table} "
                               "(revoked, or another hub)", table=table),
                    said("restart the kiosk (sudo systemctl restart dipclock-kiosk): it "
                         "shows a new code for the TD to approve"))
    if r.status_code != 200:
        return fail(name, said("the hub answers table {table} with HTTP {status}",
                               table=table, status=r.status_code),
                    said("look at the hub's log: journalctl -u dipclock-hub"))
    try:
        event = r.json().get("event")
    except (ValueError, AttributeError):
        event = None
    return ok(name, said("paired for table {table} (round set up)", table=table) if event
              else said("paired for table {table} (no round set up yet)", table=table))


def _offset(offset: float, rtt: float) -> Check:
    name = "hub clock"
    seconds, trip = f"{abs(offset):.2f}", f"{rtt * 1000:.0f}"
    off = (said("{seconds} s behind the hub (round trip {trip} ms)", seconds=seconds,
                trip=trip) if offset > 0 else
           said("{seconds} s ahead of the hub (round trip {trip} ms)", seconds=seconds,
                trip=trip))
    if abs(offset) <= OFFSET_WARN:
        return ok(name, said("this machine's clock is {offset}", offset=off))
    hours = abs(offset) / 3600
    if hours >= 0.5 and abs(hours - round(hours)) < 0.02:
        return warn(name, said("this machine's clock is {offset}: another time zone?",
                               offset=off),
                    said("give it the hub's time zone: sudo raspi-config, Localisation "
                         "Options, Timezone"))
    return warn(name, said("this machine's clock is {offset}; the kiosk shows the hub's time",
                           offset=off),
                said("let both machines reach a time server (NTP), or set the hub's time "
                     "from the dashboard"))
