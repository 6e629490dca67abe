"""Presses that are real (issue 33, item 5), on a real uvicorn in this process whose time the
test sets (``FakeClock``): a chattering button is one press a second, one power's bound is
its own, and a stamp no round can hold is refused with its reason and shown to the TD,
while a late press, or one in a break, is kept."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx

from dipclock.sync import to_seconds
from server import presslimit
from server.clock import HubClock
from tests.doubles import FakeClock
from tests.server.live import ThreadHub
from tests.server.test_live import set_up

T0 = datetime(2024, 5, 4, 9, 30)  # round 1 (wdc2006): S1901 due 09:47, F1901 10:02
BATCH = 500  # the most a clock sends at once (``server.schemas.PressBatch``)


def hub_at(data, moment: datetime) -> ThreadHub:
    return ThreadHub(data, synced=lambda: True, clock=FakeClock(to_seconds(moment)))


def press(press_id: str, power: str, at: datetime, kind: str = "press") -> dict[str, str]:
    return {"id": press_id, "power": power, "kind": kind, "at": at.isoformat()}


def send(hub: ThreadHub, table: int, key: dict[str, str], presses: list[dict[str, str]]
         ) -> list[dict]:
    """A clock's outbox sending ``presses`` in batches, in order; the hub's replies."""
    replies = []
    for k in range(0, len(presses), BATCH):
        r = httpx.post(f"{hub.url}/api/tables/{table}/presses",
                       json={"presses": presses[k:k + BATCH]}, headers=key, timeout=60)
        assert r.status_code == 200, r.text  # never an error the clock would send again
        replies.append(r.json())
    return replies


def total(replies: list[dict], key: str) -> int:
    return sum(r[key] for r in replies)


def stored(hub: ThreadHub, key: dict[str, str], table: int = 1) -> list[dict]:
    r = httpx.get(f"{hub.url}/api/tables/{table}/snapshot", headers=key, timeout=60)
    r.raise_for_status()
    return r.json()["presses"]


def grid_note(td: httpx.Client, table: int = 1) -> str | None:
    tables = {t["table"]: t for t in td.get("/api/td/state").json()["tables"]}
    return tables[table]["press_note"]


def test_a_chattering_button_is_one_press_a_second_and_englands_press_is_stored(tmp_path):
    """3,100 presses of Austria's button in 14 s (a contact chattering, or a button held
    down), then England's real press."""
    with hub_at(tmp_path / "hub", T0 + timedelta(minutes=20)) as hub:
        td = hub.td()
        set_up(td, T0, tables=1)
        key = hub.auth(td, 1)
        first = T0 + timedelta(minutes=18)
        chatter = [press(f"a{k}", "A", first + timedelta(microseconds=4516 * k))
                   for k in range(3100)]  # the last at 13.996 s
        replies = send(hub, 1, key, chatter)
        assert total(replies, "stored") == 14  # one a second: the first of each
        assert total(replies, "merged") == 3100 - 14
        assert [r["rejected"] for r in replies] == [[]] * 7  # merged is no refusal
        assert send(hub, 1, key, [press("e1", "E", first + timedelta(seconds=20))]) == [
            {"stored": 1, "duplicates": 0, "merged": 0, "rejected": []}]
        kept = stored(hub, key)
        assert [p["id"] for p in kept if p["power"] == "A"][:3] == ["a0", "a222", "a444"]
        assert "e1" in [p["id"] for p in kept]
        assert grid_note(td) is None  # nothing refused, no power at its bound
        # sent again (a reply lost): known, and still no refusal
        again = send(hub, 1, key, chatter[:BATCH])
        assert again[0]["rejected"] == [] and again[0]["stored"] == 0
        td.close()


def test_one_power_at_its_bound_does_not_silence_the_others(tmp_path):
    """3,100 presses of Austria a second and a half apart (no bounce: a clock gone wrong, or
    someone at the table), then England's: Austria stops at its own bound, England is in."""
    with hub_at(tmp_path / "hub", T0 + timedelta(hours=2)) as hub:
        td = hub.td()
        set_up(td, T0, tables=2)
        key = hub.auth(td, 1)
        first = T0 + timedelta(minutes=1)
        flood = [press(f"a{k}", "A", first + timedelta(seconds=1.5 * k)) for k in range(3100)]
        replies = send(hub, 1, key, flood)
        england = send(hub, 1, key, [press("e1", "E", first + timedelta(seconds=1))])
        assert england == [{"stored": 1, "duplicates": 0, "merged": 0, "rejected": []}]
        most = presslimit.POWER_ROUND_MOST
        assert total(replies, "stored") == most
        refused = [x for r in replies for x in r["rejected"]]
        assert [x["id"] for x in refused] == [f"a{k}" for k in range(most, 3100)]
        assert refused[0]["reason"] == (
            f"Austria has sent {most} presses in round 1 already, the most one power may: "
            "the hub takes no more of them (a button stuck or chattering?)")
        assert grid_note(td) == (
            f"Austria: {most} presses this round, the most one power may send: its new "
            "presses are refused. A button stuck or chattering? Check it. · "
            f"{3100 - most:,} presses from this clock refused; the last at 11:30:00: "
            + refused[-1]["reason"])
        assert grid_note(td, 2) is None  # another table: nothing to say
        td.close()


def test_a_press_before_a_round_set_up_in_advance_is_refused_with_its_reason(tmp_path):
    with hub_at(tmp_path / "hub", T0 - timedelta(minutes=15)) as hub:
        td = hub.td()
        set_up(td, T0, tables=1)  # round 1 at 09:30, set up at 09:15
        key = hub.auth(td, 1)
        [reply] = send(hub, 1, key, [press("early", "F", T0 - timedelta(minutes=25))])
        reason = ("stamped 09:05:00, before round 1 starts at 09:30:00: a button test, or "
                  "this clock's time is wrong; not counted")
        assert reply == {"stored": 0, "duplicates": 0, "merged": 0,
                         "rejected": [{"id": "early", "reason": reason}]}
        assert stored(hub, key) == []  # round 1 holds nothing before it begins
        assert grid_note(td) == f"1 press from this clock refused; the last at 09:15:00: {reason}"
        td.close()


def test_a_press_between_rounds_is_refused_and_a_backlog_still_counts(tmp_path):
    """Round 1 to 1902 (over at 10:39: its last deadline 10:34 and the late window), round 2
    set up in advance for 13:00; at 11:00 a clock uploads what it kept."""
    with hub_at(tmp_path / "hub", T0 + timedelta(minutes=90)) as hub:
        td = hub.td()
        set_up(td, T0, tables=1)
        td.put("/api/td/round", json={"number": 1, "start": T0.isoformat(),
                                      "last_year": 1902}).raise_for_status()
        td.put("/api/td/round", json={"number": 2, "start": "2024-05-04T13:00:00"}
               ).raise_for_status()
        key = hub.auth(td, 1)
        [reply] = send(hub, 1, key, [
            press("in-round", "G", datetime(2024, 5, 4, 10, 10)),  # a backlog: round 1's
            press("late", "I", datetime(2024, 5, 4, 10, 36)),  # F1902's orders, 2 min late
            press("between", "R", datetime(2024, 5, 4, 10, 50)),
        ])
        assert reply["stored"] == 2
        assert reply["rejected"] == [{"id": "between", "reason": (
            "stamped 10:50:00, after round 1 was over at 10:39:00: not counted; round 2 "
            "starts at 13:00:00")}]
        review = td.get("/api/td/penalties", params={"round": 1})
        review.raise_for_status()
        assert [(s["power"], s["phase"]) for s in review.json() if s["kind"] == "late"
                ] == [("I", "F1902")]
        td.close()


def test_a_stamp_ten_years_off_the_hubs_time_is_refused(tmp_path):
    with hub_at(tmp_path / "hub", T0 + timedelta(minutes=20)) as hub:
        td = hub.td()
        set_up(td, T0, tables=1)
        key = hub.auth(td, 1)
        ahead = (T0 + timedelta(minutes=10)).replace(year=2034)
        behind = (T0 + timedelta(minutes=10)).replace(year=2014)
        [reply] = send(hub, 1, key, [press("ahead", "T", ahead), press("behind", "T", behind),
                                     press("soon", "T", T0 + timedelta(minutes=20, seconds=30))])
        assert reply["stored"] == 1  # half a minute ahead: a clock's error, not a wrong time
        assert reply["rejected"] == [
            {"id": "ahead", "reason": "stamped 2034-05-04 09:40:00, ahead of the hub's time "
                                      "(09:50:00): this clock's time is wrong; not counted"},
            {"id": "behind", "reason": "stamped 2014-05-04 09:40:00, before round 1 starts "
                                       "at 09:30:00: a button test, or this clock's time is "
                                       "wrong; not counted"}]
        assert [p["id"] for p in stored(hub, key)] == ["soon"]
        td.close()


def test_a_late_press_and_one_in_a_break_are_kept(tmp_path):
    """Real presses near the round's edges: orders after the last deadline, within the late
    window, and orders handed in during a lunch break that holds that window open."""
    end = T0 + timedelta(minutes=64)  # F1902's deadline: the last of a round to 1902
    with hub_at(tmp_path / "hub", end) as hub:
        td = hub.td()
        set_up(td, T0, tables=1)
        td.put("/api/td/round", json={"number": 1, "start": T0.isoformat(),
                                      "last_year": 1902}).raise_for_status()
        td.post("/api/td/pauses", json={"reason": "Lunch"}).raise_for_status()  # at 10:34
        hub.clock.t = to_seconds(end + timedelta(minutes=40))
        key = hub.auth(td, 1)
        [reply] = send(hub, 1, key, [
            press("late", "A", end + timedelta(seconds=90)),  # in the break, the window open
            press("later", "E", end + timedelta(minutes=30)),
        ])
        assert reply == {"stored": 2, "duplicates": 0, "merged": 0, "rejected": []}
        td.close()


def test_a_press_sent_while_a_restarted_hub_takes_its_tables_time_is_not_judged_by_its_own(
        tmp_path):
    """A hub restarted on a wall clock an hour slow listens for the time its tables kept;
    meanwhile a table's press, stamped on that kept time, is an hour ahead of the hub's
    own, which is about to move: it is not judged against it, so not refused."""
    mono, wall = [500.0], [to_seconds(T0 + timedelta(hours=1))]

    def clock() -> HubClock:
        return HubClock(mono=lambda: mono[0], wall=lambda: wall[0])

    with ThreadHub(tmp_path / "hub", clock=clock(), boot="boot-1") as hub:
        td = hub.td()
        set_up(td, T0, tables=2)
        keys = {n: hub.auth(td, n) for n in (1, 2)}
        td.close()
    mono[0] += 60  # a minute's outage, and a reboot on a wall clock an hour slow
    wall[0] += 60 - 3600
    with ThreadHub(tmp_path / "hub", clock=clock(), boot="boot-2") as hub:
        r = httpx.post(f"{hub.url}/api/tables/1/status", headers=keys[1], timeout=60,
                       json={"offset": -3600.0, "rtt": 0.01, "kept": True})
        assert r.status_code == 204, r.text  # table 1 kept the time: an hour on
        made = T0 + timedelta(hours=1, minutes=1, seconds=5)  # 10:31:05 on the tables' time
        [reply] = send(hub, 1, keys[1], [press("kept", "A", made)])
        assert reply == {"stored": 1, "duplicates": 0, "merged": 0, "rejected": []}
