"""Kiosks are switched on before the TD has set up the round: they wait, then follow it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from dipclock.sync import to_moment
from tests.integration.conftest import set_up_round, start_kiosk, wait_for
from tests.server.live import LiveHub


def test_a_kiosk_started_before_the_round_waits_then_shows_it(tmp_path: Path) -> None:
    hub = LiveHub(tmp_path / "hub")
    kiosk = None
    try:
        hub.start()
        td = hub.td()
        kiosk = start_kiosk(hub, 2, tmp_path, td)  # over plain HTTP: pairs all the same
        screen = wait_for("the kiosk paired and connected, no round yet", lambda: (
            s := kiosk.screen()) and not s["hub_lost"] and s["big"] == "--:--" and s)
        assert screen["stage"] == "connecting" and screen["big"] == "--:--"
        assert screen["label"] == "Waiting for the TD to set up the round"
        now = to_moment(hub.get("/api/time").json()["t1"])
        set_up_round(td, (now - timedelta(minutes=1)).replace(microsecond=0))
        screen = wait_for("the round reached the kiosk", lambda: (
            s := kiosk.screen()) and s["stage"] == "negotiating" and s)
        assert screen["phase_code"] == "S1901" and not screen["hub_lost"]
        assert "bad snapshot" not in kiosk.log()
    finally:
        if kiosk is not None:
            kiosk.kill()
        hub.stop()
        hub.kill()
