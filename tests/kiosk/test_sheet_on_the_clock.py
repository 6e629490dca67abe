"""Players confirm their own lines of the result sheet with their powers' buttons, on a real
hub (uvicorn in this process, its clock set by the test) and a kiosk whose button box is
pyserial's ``loop://``: the press, the outbox, the upload, the hub's sheet, the screen."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import httpx

from dipclock.scoring import GameResult, score_game
from dipclock.sheetlines import ALL_CONFIRMED, ASK
from dipclock.sync import to_seconds
from hardware.serialbox import SerialButtonBox
from kiosk.app import Kiosk
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox, StoredConfirmation, StoredPress
from kiosk.state import Screen
from tests.doubles import FakeClock
from tests.integration.conftest import wait_for
from tests.kiosk.boxpress import press
from tests.server.live import ThreadHub

DAY = "2024-05-04"  # wdc2006 from 09:00, last year 1901: Fall 1901's deadline 09:32 ends it
TABLE = 2
DRAW = {"centres": {"A": 5, "E": 5, "F": 5, "G": 4, "I": 5, "R": 5, "T": 5}, "year": 1901}


def moment(hms: str) -> float:
    return to_seconds(datetime.fromisoformat(f"{DAY}T{hms}"))


@dataclass
class Table:
    """The hub, the TD, a phone at table 2, and table 2's clock with its button box."""

    hub: ThreadHub
    clock: FakeClock
    td: httpx.Client
    phone: httpx.Client
    client: HubClient
    kiosk: Kiosk
    outbox: Outbox
    box: SerialButtonBox
    inputs: queue.Queue[object]
    said: list[str]

    def at(self, hms: str) -> None:
        self.clock.t = moment(hms)

    def press(self, powers: str) -> list[StoredPress | StoredConfirmation]:
        """Press each power's button once on the box; what the kiosk made of each."""
        return press(self.box, self.inputs, self.kiosk, powers)  # type: ignore[return-value]

    def screen(self) -> Screen:
        return self.kiosk.frame(self.clock.t).screen

    def enter(self, board: dict[str, object], version: int) -> httpx.Response:
        """The sheet entered, or corrected, on a player's phone from the QR code's link."""
        link = self.client.http.get(f"/api/tables/{TABLE}/snapshot").json()["sheet"]
        path, _, key = link.partition("#")
        r = self.phone.put(f"/api/sheets/{path.rsplit('/', 2)[1]}/{TABLE}", json=board,
                           headers={"X-Sheet-Key": key, "If-Match": f'"{version}"'})
        r.raise_for_status()
        return r

    def sheet(self) -> dict[str, object]:
        """The sheet as the TD's Results card reads it."""
        r = self.td.get(f"/api/sheets/1/{TABLE}")
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]


@contextmanager
def table(tmp_path: Path) -> Iterator[Table]:
    clock = FakeClock(moment("08:00:00"))
    with ThreadHub(tmp_path / "hub", synced=lambda: True, clock=clock) as live:
        td = live.td()
        for path, body in (("/api/td/event", {"builtin": "wdc2006"}),
                           ("/api/td/round", {"number": 1, "start": f"{DAY}T09:00:00",
                                              "last_year": 1901}),
                           ("/api/td/tables", {"count": 3})):
            td.put(path, json=body).raise_for_status()
        outbox = Outbox(tmp_path / "o.sqlite")
        client = HubClient(live.url, TABLE, live.token(td, TABLE), outbox, mono=clock.mono)
        said: list[str] = []
        kiosk = Kiosk(client, outbox, client, log=said.append, hub_url=live.url)
        inputs: queue.Queue[object] = queue.Queue()
        box = SerialButtonBox("loop://", inputs, clock=clock.mono)  # type: ignore[arg-type]
        phone = httpx.Client(base_url=live.url, timeout=60)
        try:
            assert box.port is not None
            box.port.write(b"HELLO dipclock-box 1\n")
            assert client.sync_once() and client.fetch_snapshot()
            yield Table(live, clock, td, phone, client, kiosk, outbox, box, inputs, said)
        finally:
            box.close()
            client.close()
            outbox.close()
            phone.close()
            td.close()


def test_seven_presses_confirm_seven_lines(tmp_path: Path) -> None:
    """The hub pushes the sheet the phone entered; each player presses their power's button
    once; the upload thread sends the seven, the hub records each as that power's button
    and pushes the sheet back, every line confirmed on the screen."""
    with table(tmp_path) as t:
        t.at("09:31:00")
        orders = t.press("AEFGIRT")  # Fall 1901's orders, before its deadline
        assert all(isinstance(p, StoredPress) for p in orders)
        t.client.start()  # the push channel and the upload thread, as on a Pi
        wait_for("the orders uploaded", lambda: t.outbox.unsent() == [])
        t.at("09:40:00")  # the game ended at 09:32; nobody is late
        assert t.screen().sheet is None and t.screen().qr  # nothing entered yet: the code
        t.enter(DRAW, version=0)
        wait_for("the sheet pushed to the clock", lambda: t.screen().sheet is not None)
        shown = t.screen().sheet
        assert shown is not None and shown.instruction == ASK
        scores = score_game("manorcon", GameResult(DRAW["centres"], 1901), 18)  # type: ignore[arg-type]
        assert [(ln.centres, ln.score, ln.state) for ln in shown.lines] == [
            (str(DRAW["centres"][p]), f"{round(scores[p], 2):.2f}", "open")  # type: ignore[index]
            for p in "AEFGIRT"]

        made = t.press("AEFGIRT")
        assert all(isinstance(c, StoredConfirmation) for c in made)
        assert [line for line in t.said if line.startswith("CONFIRM ")] == [
            f"CONFIRM {c.id} {c.power} round 1 version 1" for c in made]
        assert len(t.outbox.presses()) == 7  # no press stored for them: confirmations

        def all_confirmed() -> bool:
            sheet = t.screen().sheet
            return sheet is not None and all(ln.state == "confirmed" for ln in sheet.lines)

        wait_for("the hub's sheet pushed back, every line confirmed", all_confirmed)
        assert t.screen().sheet.instruction == ALL_CONFIRMED  # type: ignore[union-attr]
        # the pushed sheet may come before the upload's reply: the outbox follows it
        wait_for("the seven marked taken", lambda: [
            c.state for c in t.outbox.confirmations()] == ["taken"] * 7)
        view = t.sheet()
        # each line confirmed raised the sheet's version; the clock's stays the one of
        # what its players confirm, so a press on its way as another's push came is taken
        assert view["status"] == "confirmed" and view["version"] == 8
        shown_now = t.client.http.get(f"/api/tables/{TABLE}/snapshot").json()["result"]
        assert shown_now["version"] == 1
        assert set(view["confirmations"].values()) == {"button"}  # type: ignore[union-attr]
        assert len(view["confirmations"]) == 7  # type: ignore[arg-type]


def test_a_press_while_a_power_counts_late_is_its_late_orders_not_a_confirmation(
        tmp_path: Path) -> None:
    """The players were quick: the sheet is on the clock a minute after the last deadline,
    while Italy, who has not pressed for Fall 1901, counts late. Italy's press is its late
    orders (the TD's review lists it); Austria's, pressed with it, confirms Austria's line.
    Italy's next press, its count stopped, confirms Italy's."""
    with table(tmp_path) as t:
        t.at("09:31:00")
        t.press("AEFGRT")
        t.at("09:32:40")
        t.enter(DRAW, version=0)
        assert t.client.fetch_snapshot()
        shown = t.screen().sheet
        assert shown is not None
        assert [ln.late for ln in shown.lines] == ["", "", "", "", "late +40 s", "", ""]
        t.at("09:33:00")
        late, line = t.press("IA")
        assert isinstance(late, StoredPress) and (late.power, late.kind) == ("I", "press")
        assert isinstance(line, StoredConfirmation) and line.power == "A"
        shown = t.screen().sheet
        assert shown is not None
        assert [(ln.state, ln.late) for ln in shown.lines][::4] == [("pending", ""),
                                                                   ("open", "")]
        assert t.client.upload_once()
        [penalty] = [p for p in t.td.get("/api/td/penalties").json() if p["power"] == "I"]
        assert (penalty["kind"], penalty["phase"], penalty["started_second"]) == (
            "late", "F1901", 60)
        assert list(t.sheet()["confirmations"]) == ["Austria"]  # type: ignore[arg-type]
        t.at("09:33:45")
        [again] = t.press("I")
        assert isinstance(again, StoredConfirmation) and again.power == "I"
        assert t.client.upload_once()
        assert list(t.sheet()["confirmations"]) == ["Austria", "Italy"]  # type: ignore[arg-type]


def test_a_correction_between_the_screen_and_the_press_refuses_the_confirmation(
        tmp_path: Path) -> None:
    """The clock shows version 1; a phone corrects Austria's centres before the push
    arrives; Austria's player presses on the old sheet. The hub refuses it; the clock keeps
    it refused (never sent again), shows the line unconfirmed, then the new sheet, on which
    the same button confirms."""
    with table(tmp_path) as t:
        t.at("09:40:00")
        t.enter(DRAW, version=0)
        assert t.client.fetch_snapshot()
        assert t.screen().sheet.lines[0].centres == "5"  # type: ignore[union-attr]
        corrected = {**DRAW, "centres": {**DRAW["centres"], "A": 6, "G": 3}}  # type: ignore[dict-item]
        assert t.enter(corrected, version=1).json()["version"] == 2
        [stale] = t.press("A")
        assert isinstance(stale, StoredConfirmation) and stale.version == 1
        assert t.screen().sheet.lines[0].state == "pending"  # type: ignore[union-attr]
        assert t.client.upload_once()  # answered: refused
        [kept] = t.outbox.confirmations()
        assert kept.state == "refused" and kept.reason.startswith(
            "a player's phone corrected this sheet at 09:40 since you loaded it")
        screen = t.screen()
        assert screen.sheet is not None and screen.sheet.lines[0].state == "open"
        assert screen.banner == ("Austria: not confirmed, the sheet changed: check it and "
                                 "press again")
        assert t.client.fetch_snapshot()  # the new sheet, unconfirmed
        shown = t.screen().sheet
        assert shown is not None and shown.lines[0].centres == "6"
        assert all(ln.state == "open" for ln in shown.lines)
        t.at("09:40:30")
        [fresh] = t.press("A")
        assert isinstance(fresh, StoredConfirmation) and fresh.version == 2
        assert t.client.upload_once()
        assert t.outbox.unsent_confirmations(t.client.session.hub_id) == []
        assert [c.state for c in t.outbox.confirmations()] == ["refused", "taken"]
        view = t.sheet()
        assert view["version"] == 3 and list(view["confirmations"]) == ["Austria"]  # type: ignore[arg-type]
        audit = [a["summary"] for a in t.td.get("/api/td/state").json()["audit"]]
        assert sum("Austria's line confirmed with its button" in a for a in audit) == 1
