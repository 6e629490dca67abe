"""A table's clock revoked by the TD: the real kiosk process stops at once, shows a new
code and why, and is back on its round once the TD pairs it again."""

from __future__ import annotations

from pathlib import Path

from tests.integration.conftest import approve, running_hall, wait_for


def test_a_revoked_kiosk_shows_a_new_code_and_comes_back_when_paired_again(
        tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=(1,)) as hall:
        kiosk = hall.kiosks[1]
        td = hall.td()
        [clock] = [c for c in td.get("/api/td/clocks").json()["paired"]
                   if c["address"] and c["table"] == 1]
        td.delete(f"/api/td/clocks/{clock['id']}").raise_for_status()
        asking = wait_for("the kiosk shows a new code", lambda: (
            s := kiosk.screen()) and s["label"].startswith("Pair this clock") and s,
            timeout=60)
        assert ("The hub no longer takes this clock (the TD revoked it): pair it again"
                in asking["notes"])
        assert asking["heading"] == "Table 1?"
        [code] = approve(td, 1)
        assert code == asking["big"]  # the code the TD types is the one on the screen
        back = wait_for("the kiosk shows its round again", lambda: (
            s := kiosk.screen()) and s["stage"] == "negotiating" and not s["hub_lost"] and s,
            timeout=60)
        assert back["heading"].endswith("Table 1")
        assert "pairing again" in kiosk.log()
