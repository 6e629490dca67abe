"""One clock cannot fill the hub, and odd input is a clear refusal, never a 500: a real
uvicorn in this process, its paired clocks on their own addresses."""

from __future__ import annotations

import json
from datetime import datetime

import httpx
import pytest

from dipclock.powers import POWERS
from server import presslimit
from tests.server.live import ThreadHub
from tests.server.test_live import set_up

T0 = datetime(2024, 5, 4, 9, 30)


def send(hub: ThreadHub, table: int, key: dict[str, str], batch: list[dict[str, str]]
         ) -> httpx.Response:
    """A table's clock posting a batch of presses."""
    return httpx.post(f"{hub.url}/api/tables/{table}/presses", json={"presses": batch},
                      headers=key, timeout=30)


def presses(prefix: str, count: int, powers: str = "AEFGIRT") -> list[dict[str, str]]:
    """``count`` presses a second apart, of ``powers`` in turn."""
    return [{"id": f"{prefix}{k}", "power": powers[k % len(powers)], "kind": "press",
             "at": f"2024-05-04T09:{31 + k // 60:02d}:{k % 60:02d}"} for k in range(count)]


def test_a_power_holds_at_most_its_share_of_presses_and_the_others_go_on(
        tmp_path, monkeypatch):
    monkeypatch.setattr(presslimit, "POWER_ROUND_MOST", 20)  # 400 in the hall
    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, T0, tables=2)
        one, two = hub.auth(td, 1), hub.auth(td, 2)
        r = send(hub, 1, one, presses("a", 30, "A"))
        assert r.status_code == 200, r.text
        reply = r.json()
        assert reply["stored"] == 20 and reply["duplicates"] == 0
        assert [x["id"] for x in reply["rejected"]] == [f"a{k}" for k in range(20, 30)]
        assert reply["rejected"][0]["reason"] == (
            "Austria has sent 20 presses in round 1 already, the most one power may: the hub "
            "takes no more of them (a button stuck or chattering?)")
        again = send(hub, 1, one, presses("a", 2, "A")).json()
        assert again == {"stored": 0, "duplicates": 2, "merged": 0, "rejected": []}  # known
        england = send(hub, 1, one, presses("e", 5, "E")).json()  # the same table
        assert england["stored"] == 5 and england["rejected"] == []
        other = send(hub, 2, two, presses("b", 5)).json()
        assert other["stored"] == 5 and other["rejected"] == []
        grid = {t["table"]: t for t in td.get("/api/td/state").json()["tables"]}
        assert grid[1]["press_note"].startswith(
            "Austria: 20 presses this round, the most one power may send: its new presses "
            "are refused. A button stuck or chattering? Check it. · 10 presses from this "
            "clock refused; the last at ")
        assert grid[2]["press_note"] is None
        td.close()


def test_the_bound_is_far_above_a_long_games_presses():
    """One power, 60 timed phases, a press and a second one each, a hold in ten: the bound
    is three times that, so no real button meets it; the table's is seven of those."""
    assert presslimit.POWER_ROUND_MOST >= 3 * 60 * 2.1 - 1
    assert presslimit.TABLE_ROUND_MOST == 7 * presslimit.POWER_ROUND_MOST


def test_a_press_id_that_cannot_be_written_back_is_refused_without_it(tmp_path):
    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, T0, tables=1)
        body = json.dumps({"presses": [{"id": "\ud800", "power": "A", "kind": "press",
                                        "at": "2024-05-04T09:31:00"}]})  # ASCII: \\ud800
        r = httpx.post(hub.url + "/api/tables/1/presses", content=body.encode(),
                       headers=hub.auth(td, 1) | {"Content-Type": "application/json"},
                       timeout=30)
        assert r.status_code == 200, r.text
        assert r.json()["rejected"][0]["id"] is None
        td.close()


@pytest.mark.parametrize("route", ["seating", "teams"])
def test_a_csv_field_past_the_csv_modules_limit_is_a_422_naming_its_line(tmp_path, route):
    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, T0, tables=1)
        text = ("round,table,power,player\n1,1,A," if route == "seating" else
                "team,player\nRed,") + "x" * 140_000 + "\n"
        r = td.put(f"/api/td/{route}", json={"csv": text})
        assert r.status_code == 422, r.text
        assert r.json()["detail"] == (f"{route} line 2: not a CSV line (field larger than "
                                      "field limit (131072))")
        td.close()


def test_a_repeat_among_twenty_thousand_seating_lines_is_named(tmp_path):
    """(Found in one pass: the time it takes is ``make bench``'s, not a test's.)"""
    from server.actions import seat
    from server.refusal import Refused
    from server.schemas import SeatingIn

    lines = [f"{r},{t},{p},P{r}-{t}-{p}" for r in range(1, 30) for t in range(1, 100)
             for p in "AEFGIRT"][:20_000]
    body = SeatingIn(csv="\n".join([*lines, lines[-1]]))
    with pytest.raises(Refused) as refused:
        seat(body)
    r, t, p = lines[-1].split(",")[:3]
    assert refused.value.message == f"seating: round {r} table {t} {POWERS[p]} is given twice"


def test_one_tables_press_ids_do_not_make_another_tables_presses_duplicates(tmp_path):
    """Ids are each clock's own: table 2's clock sending table 1's ids (seen on the wire, or
    guessed) first must not make table 1's real presses look sent already."""
    with ThreadHub(tmp_path / "hub") as hub:
        td = hub.td()
        set_up(td, T0, tables=2)
        one, two = hub.auth(td, 1), hub.auth(td, 2)
        first = send(hub, 2, two, presses("a", 3)).json()
        real = send(hub, 1, one, presses("a", 3)).json()
        assert first["stored"] == real["stored"] == 3 and real["duplicates"] == 0
        td.close()
