"""A line of the result sheet confirmed with a button survives a killed kiosk: real
``dipclock hub`` and ``dipclock kiosk`` processes, the button pressed on the kiosk's box."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from dipclock.sync import to_moment
from tests.integration.conftest import KioskProc, start_kiosk, wait_for
from tests.server.live import LiveHub

DRAW = {"centres": {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5}, "year": 1901}


def confirmations(outbox: Path) -> list[tuple[str, str, int]]:
    db = sqlite3.connect(outbox, timeout=5)
    try:
        return db.execute("SELECT id, power, sent FROM confirmations ORDER BY seq").fetchall()
    finally:
        db.close()


def lines(screen: dict[str, Any] | None) -> dict[str, str]:
    """Each power's line as the kiosk's screen shows it (``--status-file``)."""
    sheet = (screen or {}).get("sheet") or {"lines": []}
    return {ln["letter"]: ln["state"] for ln in sheet["lines"]}


def boxed(kiosk: KioskProc) -> KioskProc:
    """The kiosk's button box, connected and said hello."""
    return kiosk.open_box()


def test_a_confirmation_pressed_while_the_hub_was_down_survives_a_killed_kiosk(
        tmp_path: Path) -> None:
    """The game ended long ago (the round began two hours back, last year 1901); a phone
    enters the sheet from the QR code on the kiosk. The hub goes down; Italy's player
    presses: the kiosk commits the confirmation and shows it sent, not acknowledged. The
    kiosk is killed (SIGKILL) before any upload could reach a hub. Hub and kiosk start
    again: the confirmation goes up, once, and the line is Italy's on the TD's card."""
    hub = LiveHub(tmp_path / "hub", https=True)
    kiosk: KioskProc | None = None
    try:
        hub.start()
        td = hub.td()
        now = to_moment(hub.get("/api/time").json()["t1"])
        start = (now - timedelta(hours=2)).replace(microsecond=0)
        for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                           ("/api/td/round", {"number": 1, "start": start.isoformat(),
                                              "last_year": 1901}),
                           ("/api/td/tables", {"tables": [1]})):
            td.put(path, json=body).raise_for_status()
        kiosk = boxed(start_kiosk(hub, 1, tmp_path, td))
        screen = wait_for("the kiosk shows the game over and the sheet's QR code", lambda: (
            s := kiosk.screen()) and s["stage"] == "game_over" and s["qr"] and s)
        # a player's phone scans the code: the hub's address, the path, the key after '#'
        address, _, key = screen["qr"].partition("#")
        assert address == f"{hub.url}/sheet/1/1"
        r = httpx.put(f"{hub.url}/api/sheets/1/1", json=DRAW, verify=hub.verify,
                      headers={"X-Sheet-Key": key, "If-Match": '"0"'})
        assert r.status_code == 200, r.text
        wait_for("the sheet on the kiosk, every line to confirm", lambda: lines(
            kiosk.screen()) == dict.fromkeys("AEFGIRT", "open"))

        hub.kill()
        wait_for("the kiosk lost the hub", lambda: (s := kiosk.screen()) and s["hub_lost"])
        kiosk.press("I")
        said = wait_for("the kiosk acknowledged the confirmation", lambda: next(
            (ln for ln in kiosk.printed().splitlines() if ln.startswith("CONFIRM ")), None))
        line_id, power = said.split()[1:3]
        assert power == "I"
        assert confirmations(kiosk.outbox) == [(line_id, "I", 0)]  # committed, unsent
        wait_for("Italy's line shown sent, not yet acknowledged",
                 lambda: lines(kiosk.screen()).get("I") == "pending")
        kiosk.kill()  # SIGKILL: nothing more is written
        assert not any(ln.startswith("PRESS ") for ln in kiosk.printed().splitlines())
        db = sqlite3.connect(kiosk.outbox)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        db.close()
        assert confirmations(kiosk.outbox) == [(line_id, "I", 0)]

        hub.start()  # same data, same port
        kiosk = boxed(start_kiosk(hub, 1, tmp_path))  # its token is in its outbox
        td = hub.td()

        def confirmed_on_the_hub() -> dict[str, str] | None:
            view = td.get("/api/sheets/1/1").json()
            return view["confirmations"] if view["confirmations"] else None

        assert wait_for("Italy's line confirmed on the hub", confirmed_on_the_hub) == {
            "Italy": "button"}
        wait_for("the outbox marked it taken",
                 lambda: confirmations(kiosk.outbox) == [(line_id, "I", 1)])
        wait_for("the kiosk shows Italy's line confirmed",
                 lambda: lines(kiosk.screen()).get("I") == "confirmed")
        audit = [a["summary"] for a in td.get("/api/td/state").json()["audit"]]
        assert sum("Italy's line confirmed with its button" in a for a in audit) == 1
    finally:
        if kiosk is not None:
            kiosk.kill()
        hub.stop()
        hub.kill()
