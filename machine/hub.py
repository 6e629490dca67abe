"""The hub as this kiosk will meet it: does it answer, does it take our key, do clocks agree?

The same requests the kiosk makes (``GET /api/time``, ``GET /api/tables/{n}/snapshot`` with
the key), so a wrong address, a mistyped key or a table missing from the round shows here
with its fix instead of as a table stuck on "connecting".
"""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx

from dipclock.sync import sample
from machine.check import Check, fail, ok, warn

OFFSET_WARN = 1.0  # seconds


def wall_seconds() -> float:
    """This machine's wall clock in the hub's unit: POSIX seconds (``dipclock.sync``)."""
    return time.time()


def check_hub(client: httpx.Client, table: int | None, key: str | None,
              wall: Callable[[], float] = wall_seconds, found_by: str = "") -> list[Check]:
    """``client`` has the hub's address as its base URL (``found_by`` says how we got it).
    Stops at the first failure: a hub that does not answer has no key or clock to check."""
    url = str(client.base_url).rstrip("/")
    t0 = wall()
    try:
        r = client.get("/api/time")
        t3 = wall()
    except httpx.HTTPError as exc:
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
                     "check the hub address: http://ADDRESS:8000, the port `dipclock hub` "
                     "printed")]
    found = [ok("hub", f"{url} answers{found_by}")]
    found.append(_key(client, url, table, key))
    found.append(_offset(sample(t0, t1, t2, t3).offset, t3 - t0))
    return found


def _key(client: httpx.Client, url: str, table: int | None, key: str | None) -> Check:
    name = "hub key"
    where = "in dipclock.txt on the card's boot partition (key = ...)"
    if table is None:
        return fail(name, "no table number, so the hub cannot be asked",
                    "set table = N in dipclock.txt on the boot partition, or name the "
                    "Pi table-N")
    if not key:
        return fail(name, "no kiosk key given",
                    f"copy the kiosk key from the dashboard {where}")
    try:
        r = client.get(f"/api/tables/{table}/snapshot",
                       headers={"Authorization": f"Bearer {key}"})
    except httpx.HTTPError as exc:
        return fail(name, f"asking {url} for table {table} failed: {exc or type(exc).__name__}",
                    "check the network and run the doctor again")
    if r.status_code in (401, 403):
        return fail(name, "the hub refuses this kiosk key",
                    f"copy the kiosk key from the dashboard {where}")
    if r.status_code in (404, 422):
        return fail(name, f"table {table} is not in the hub's round",
                    "check the table number, or the number of tables on the dashboard")
    if r.status_code != 200:
        return fail(name, f"the hub answers table {table} with HTTP {r.status_code}",
                    "look at the hub's log: journalctl -u dipclock-hub")
    try:
        event = r.json().get("event")
    except (ValueError, AttributeError):
        event = None
    round_said = "round set up" if event else "no round set up yet"
    return ok(name, f"key accepted for table {table} ({round_said})")


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
