"""The hall of Pis with real kiosks: each one's status report reaches the TD's grid, and a
second kiosk set up as table 2 is flagged on the grid and on both table-2 screens."""

from __future__ import annotations

from pathlib import Path

from dipclock import __version__
from tests.integration.conftest import TABLES, Hall, approve, start_kiosk, wait_for


def tiles(hall: Hall) -> dict[int, dict]:
    return {t["table"]: t for t in hall.td().get("/api/td/state").json()["tables"]}


def test_every_kiosk_describes_itself_on_the_grid(hall: Hall):
    def described() -> dict[int, dict] | None:
        found = tiles(hall)
        return found if all(found[n]["kiosk"] for n in TABLES) else None

    grid = wait_for("every kiosk's block on the grid", described, timeout=60)
    for n in TABLES:
        k = grid[n]["kiosk"]
        assert (k["version"], k["address"], k["box"]) == (__version__, "127.0.0.1", "connected")
        assert "serial" in k["buttons"] and k["clock"] in ("hub", "system", "unverified")
        assert grid[n]["claims"] == []
    assert len({grid[n]["kiosk"]["id"] for n in TABLES}) == len(TABLES)


def test_a_second_kiosk_on_table_2_is_flagged_on_the_grid_and_both_screens(
    hall: Hall, tmp_path: Path
):
    extra = start_kiosk(hall.hub, 2, tmp_path)
    try:
        extra.open_box()
        approve(hall.td(), 2)  # a spare clock the TD pairs for table 2 too
        claims = wait_for("two kiosks claim table 2",
                          lambda: len(c := hall.snapshot(2)["claims"]) == 2 and c, timeout=60)
        assert {c["address"] for c in claims} == {"127.0.0.1"}
        assert tiles(hall)[2]["claims"] == claims and tiles(hall)[1]["claims"] == []
        alert = "Another kiosk (127.0.0.1) also says it is table 2"
        for kiosk in (hall.kiosks[2], extra):
            wait_for(f"the kiosk on table 2 ({kiosk.status.name}) shows the claim",
                     lambda k=kiosk: alert in ((k.screen() or {}).get("alerts") or ()),
                     timeout=60)
        assert alert not in (hall.kiosks[1].screen() or {}).get("alerts", ())
    finally:
        extra.kill()
