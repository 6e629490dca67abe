"""The hall's own addresses (``server.regulars``): who counts as one, for how long, and that
a restarted hub knows its clocks' addresses before their first request."""

from __future__ import annotations

import secrets
from contextlib import closing

import httpx

from server.pairing import token_hash
from server.regulars import Regulars
from tests.server.live import ThreadHub


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_an_address_is_a_regular_from_its_signed_request_until_it_has_been_quiet_too_long():
    ticks = Ticks()
    regulars = Regulars(keep=60.0, clock=ticks)
    assert not regulars.knows("10.0.0.7")
    regulars.saw("10.0.0.7")
    ticks.t += 60.0
    assert regulars.knows("10.0.0.7")
    regulars.saw("10.0.0.7")  # heard again: its time starts again
    ticks.t += 59.0
    assert regulars.knows("10.0.0.7")
    ticks.t += 2.0
    assert not regulars.knows("10.0.0.7")
    assert not regulars.knows("10.0.0.8")


def test_past_the_most_the_address_heard_from_longest_ago_is_forgotten():
    ticks = Ticks()
    regulars = Regulars(most=3, clock=ticks)
    for n in range(1, 4):
        regulars.saw(f"10.0.0.{n}")
        ticks.t += 1
    regulars.saw("10.0.0.1")  # heard again: now the newest
    regulars.saw("10.0.0.4")
    assert [regulars.knows(f"10.0.0.{n}") for n in range(1, 5)] == [True, False, True, True]


def test_a_request_without_an_address_makes_no_regular():
    regulars = Regulars()
    regulars.saw(None)
    regulars.saw("")
    assert not regulars.knows("")


def regulars_of(h: ThreadHub) -> Regulars:
    found = h.server.config.app.state.regulars
    assert isinstance(found, Regulars)
    return found


def test_the_td_and_a_table_s_clock_become_regulars_and_a_restarted_hub_knows_its_clocks(
        tmp_path):
    data = tmp_path / "hub"
    with ThreadHub(data) as h:
        regulars = regulars_of(h)
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.9")) as phone:
            assert phone.get(h.url + "/api/time").status_code == 200
        assert not regulars.knows("127.0.0.9")  # a stranger: nothing signed
        with closing(h.td("127.0.0.6")) as td:  # the TD's phone
            assert td.put("/api/td/tables", json={"count": 2}).status_code == 200
            assert regulars.knows("127.0.0.6")
            token = secrets.token_urlsafe(32)
            with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.8"),
                              timeout=60) as asking:  # the clock, showing its code
                code = asking.post(h.url + "/api/pair", json={
                    "kiosk": "pi-8", "token_hash": token_hash(token), "table": 2}).json()["code"]
            assert not regulars.knows("127.0.0.8")
            assert td.post("/api/td/clocks", json={"code": code, "table": 2}).status_code == 200
        assert regulars.knows("127.0.0.8")  # approved: the hall's from now on
        transport = httpx.HTTPTransport(local_address="127.0.0.7")
        with httpx.Client(base_url=h.url, transport=transport, timeout=60) as clock:
            assert clock.get("/api/tables/2/snapshot",
                             headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert regulars.knows("127.0.0.7")  # the clock, from where it is now
    with ThreadHub(data) as h:  # a restart: nothing heard yet
        regulars = regulars_of(h)
        assert regulars.knows("127.0.0.8")  # where the clock was paired from
        assert not regulars.knows("127.0.0.6")  # the TD's phone: not since the restart
        assert not regulars.knows("127.0.0.7")
        assert not regulars.knows("127.0.0.9")
