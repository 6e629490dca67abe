"""A table's sheet link (its QR code's key) closes for good once a later round has started,
on a real hub (uvicorn in this process, its clock the test's, its store on disk): undoing
that later round, moving its start on, or setting up the next one in advance does not
open it again, nor does a restart; the TD still corrects the sheet (issue 33)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import httpx

from dipclock.sync import to_seconds
from tests.doubles import FakeClock
from tests.server.live import ThreadHub

DAY = datetime(2024, 5, 4)
BOARD = {"centres": {"A": 10, "E": 8, "F": 6, "G": 4, "I": 3, "R": 2, "T": 1}, "year": 1909}
OVER = {"detail": "round 2 is over: this link no longer changes its sheet; ask the TD"}


def at(clock: FakeClock, hhmm: str) -> None:
    clock.t = to_seconds(datetime.fromisoformat(f"{DAY:%Y-%m-%d}T{hhmm}"))


def set_round(td: httpx.Client, number: int, hhmm: str) -> None:
    td.put("/api/td/round", json={"number": number, "start": f"{DAY:%Y-%m-%d}T{hhmm}"}
           ).raise_for_status()


def sheet_put(client: httpx.Client, table: int, headers: dict[str, str],
              year: int = 1909) -> httpx.Response:
    """Round 2's sheet of ``table`` sent as its page sends it: against the version shown."""
    seen = client.get(f"/api/sheets/2/{table}", headers=headers)
    seen.raise_for_status()
    return client.put(f"/api/sheets/2/{table}", json=BOARD | {"year": year},
                      headers=headers | {"If-Match": f'"{seen.json()["version"]}"'})


def test_round_2_links_stay_closed_after_round_3_is_undone_moved_or_followed(
        tmp_path: Path) -> None:
    clock = FakeClock(to_seconds(DAY.replace(hour=8)))
    data = tmp_path / "hub"
    with ThreadHub(data, synced=lambda: True, clock=clock) as hub:
        td = hub.td()
        td.put("/api/td/event", json={"builtin": "wdc2006"}).raise_for_status()
        set_round(td, 1, "09:00")
        td.put("/api/td/tables", json={"count": 2}).raise_for_status()
        at(clock, "12:00")
        set_round(td, 2, "12:00")
        clock_2 = hub.auth(td, 2)
        link = httpx.get(f"{hub.url}/api/tables/2/snapshot", headers=clock_2).json()["sheet"]
        assert link.startswith("/sheet/2/2#")
        key = {"X-Sheet-Key": link.partition("#")[2]}
        phone = httpx.Client(base_url=hub.url, timeout=60)
        at(clock, "14:30")  # round 2 over; its players enter the sheet from the QR code
        assert sheet_put(phone, 2, key).status_code == 200

        set_round(td, 3, "15:00")  # set up in advance: round 2's link still works
        assert sheet_put(phone, 2, key, 1908).status_code == 200
        at(clock, "15:01")  # round 3 under way: round 2's link is closed
        r = sheet_put(phone, 2, key, 1907)
        assert (r.status_code, r.json()) == (403, OVER)

        # the TD undoes round 3's setup (nothing played in it yet): round 2 is the tables'
        # round again, and its link stays closed
        td.post("/api/td/round/undo").raise_for_status()
        assert td.get("/api/td/state").json()["round"]["number"] == 2
        r = sheet_put(phone, 2, key, 1907)
        assert (r.status_code, r.json()) == (403, OVER)
        assert sheet_put(td, 2, {}, 1906).status_code == 200  # the TD still can

        # round 3 set up again for later, then moved on before it starts, then round 4
        # set up in advance while round 3 plays: round 2's link never opens
        set_round(td, 3, "16:00")
        assert sheet_put(phone, 2, key, 1905).status_code == 403
        at(clock, "16:05")
        set_round(td, 4, "19:00")
        assert sheet_put(phone, 2, key, 1905).status_code == 403
        phone.close()
        td.close()

    clock.t += 60  # a restart on the same store: the fact is kept there
    with ThreadHub(data, synced=lambda: True, clock=clock) as hub:
        td = hub.td()
        for undone in (4, 3):  # round 4's setup and round 3's taken back: no round after
            r = td.post("/api/td/round/undo")  # round 2 is set up, and none has started
            assert (r.status_code, r.json()["round"]) == (200, undone), r.text
        assert td.get("/api/td/state").json()["round"]["number"] == 2
        phone = httpx.Client(base_url=hub.url, timeout=60)
        r = sheet_put(phone, 2, key, 1905)
        assert (r.status_code, r.json()) == (403, OVER)
        view = td.get("/api/sheets/2/2").json()
        assert view["sheet"]["year"] == 1906  # the TD's correction stands
        phone.close()
        td.close()
