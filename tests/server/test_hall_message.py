"""The TD's hall message on the hub: set, replaced, cleared, run out by the hub's clock,
refused with one line, kept across a restart, and carried to every table and the hall page.

The hub's clock is the test's (``FakeClock``): it jumps to the instant that matters."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from dipclock.sync import to_moment, to_seconds
from tests.waits import received

PATH = "/api/td/message"
LUNCH = "Lunch in the bar until 14:00"


def venue_clock(hub, moment: datetime) -> str:
    """A UTC moment on the venue's clock, as the dashboard says it (naive local ISO)."""
    tz = ZoneInfo(hub.client.get("/api/td/state").json()["timezone"])
    return moment.replace(tzinfo=ZoneInfo("UTC")).astimezone(tz).replace(tzinfo=None).isoformat()


def hall_message(hub):
    return hub.client.get("/api/hall").json()["message"]


def test_the_td_sets_a_message_every_page_shows_it_and_the_log_keeps_it(hub, td):
    now = hub.clock.moment()
    seq = hub.client.get("/api/hall").json()["seq"]
    r = hub.client.put(PATH, json={"text": f"  {LUNCH} ", "minutes": 30}, headers=td)
    assert r.status_code == 200, r.text
    until = now + timedelta(minutes=30)
    shown = {"text": LUNCH, "since": venue_clock(hub, now), "until": venue_clock(hub, until),
             "ends": to_seconds(until)}
    assert r.json() == {"message": shown, "seq": seq + 1}
    assert hall_message(hub) == shown
    state = hub.client.get("/api/td/state").json()
    assert state["message"] == shown
    line = state["audit"][0]
    assert line["action"] == "message"
    # 09:20, a whole minute: the log says the venue's clock as the screens do
    assert line["summary"] == f'hall message "{LUNCH}" until {shown["until"][11:16]}'


def test_a_new_message_replaces_the_one_shown_and_clear_takes_it_down(hub, td):
    hub.client.put(PATH, json={"text": "Round 2 board call on the projector"}, headers=td)
    r = hub.client.put(PATH, json={"text": LUNCH}, headers=td)
    assert r.status_code == 200 and r.json()["message"]["until"] is None
    assert hall_message(hub)["text"] == LUNCH
    state = hub.client.get("/api/td/state").json()
    assert state["audit"][0]["summary"] == (
        f'hall message "{LUNCH}" until cleared '
        '(replaces "Round 2 board call on the projector")')

    r = hub.client.delete(PATH, headers=td)
    assert r.status_code == 200 and r.json()["message"] is None
    assert hall_message(hub) is None
    state = hub.client.get("/api/td/state").json()
    assert state["message"] is None
    assert state["audit"][0]["summary"] == f'hall message cleared: "{LUNCH}"'
    r = hub.client.delete(PATH, headers=td)
    assert (r.status_code, r.json()) == (409, {"detail": "no hall message is shown"})


def test_a_message_runs_out_by_the_hubs_clock_at_its_instant(hub, td):
    start = hub.clock.moment()
    hub.client.put(PATH, json={"text": LUNCH, "minutes": 1}, headers=td)
    until = start + timedelta(minutes=1)
    hub.at(until - timedelta(milliseconds=1))
    assert hall_message(hub)["text"] == LUNCH
    snap = hub.client.get("/api/tables/1/snapshot", headers=hub.kiosk_headers(1)).json()
    assert snap["message"]["until"] == until.isoformat()
    hub.at(until)
    assert hall_message(hub) is None
    assert hub.client.get("/api/td/state").json()["message"] is None
    snap = hub.client.get("/api/tables/1/snapshot", headers=hub.kiosk_headers(1)).json()
    assert snap["message"] is None
    assert hub.client.delete(PATH, headers=td).status_code == 409  # nothing shown to clear


def test_the_longest_message_lasts_720_minutes(hub, td):
    start = hub.clock.moment()
    r = hub.client.put(PATH, json={"text": "x" * 120, "minutes": 720}, headers=td)
    assert r.status_code == 200, r.text
    hub.at(start + timedelta(hours=12) - timedelta(seconds=1))
    assert hall_message(hub)["text"] == "x" * 120
    hub.at(start + timedelta(hours=12))
    assert hall_message(hub) is None


BAD = [
    ({"text": ""}, "text: a hall message needs some text (1 to 120 characters)"),
    ({"text": "   "}, "text: a hall message needs some text (1 to 120 characters)"),
    ({"text": "x" * 121}, "text: a hall message is at most 120 characters; this one has 121"),
    ({"text": "Lunch\nin the bar"}, "text: a hall message is one line: no line breaks"),
    ({"text": "Lunch\tbar"}, "text: a hall message cannot show U+0009 (a control character)"),
    ({"text": LUNCH, "minutes": 0}, "minutes: a hall message lasts 1 to 720 minutes (12 h), not 0"),
    ({"text": LUNCH, "minutes": 721},
     "minutes: a hall message lasts 1 to 720 minutes (12 h), not 721"),
    ({"text": LUNCH, "minutes": -3}, "minutes: a hall message lasts 1 to 720 minutes"),
    ({"text": 5}, "text: Input should be a valid string"),
    ({"text": None}, "text: Input should be a valid string"),
    ({"text": ["Lunch"]}, "text: Input should be a valid string"),
    ({"text": LUNCH, "minutes": "10"}, "minutes: Input should be a valid integer"),
    ({"text": LUNCH, "minutes": 1.5}, "minutes: Input should be a valid integer"),
    ({"text": LUNCH, "minutes": True}, "minutes: Input should be a valid integer"),
    ({"text": LUNCH, "minutes": 10 ** 30}, "minutes: "),
    ({"minutes": 10}, "text: required"),
    ({"text": LUNCH, "colour": "red"}, "colour: unknown field"),
    ([LUNCH], "body: expected a JSON object"),
    ("Lunch", "body: expected a JSON object"),
]


@pytest.mark.parametrize(("body", "detail"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_a_bad_message_is_a_422_with_one_line_and_nothing_is_shown(hub, td, body, detail):
    r = hub.client.put(PATH, json=body, headers=td)
    assert r.status_code == 422, r.text
    said = r.json()["detail"]
    assert said.startswith(detail) and "\n" not in said, said
    assert hall_message(hub) is None


@pytest.mark.parametrize("content", [b"{not json", b"", b"null"])
def test_a_broken_body_is_a_422_too(hub, td, content):
    r = hub.client.put(PATH, content=content,
                       headers=td | {"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"].startswith("body: "), r.text
    assert hall_message(hub) is None


def test_only_the_td_sets_or_clears_a_message(hub, td):
    hub.client.put(PATH, json={"text": LUNCH}, headers=td)
    clock = hub.kiosk_headers(2)
    hub.client.cookies.clear()  # signed out
    for method, body in (("PUT", {"text": "Free beer"}), ("DELETE", None)):
        r = hub.client.request(method, PATH, json=body)
        assert r.status_code == 401, r.text
        r = hub.client.request(method, PATH, json=body, headers=clock)  # a table's clock
        assert r.status_code == 403 and "clock's token" in r.json()["detail"]
    hub.sign_in()  # a session, but no CSRF header (a page on another site)
    r = hub.client.put(PATH, json={"text": "Free beer"})
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
    assert hub.client.delete(PATH).status_code == 403
    assert hall_message(hub)["text"] == LUNCH


def test_a_change_from_a_stale_screen_is_refused(hub, td):
    base = {"X-Dipclock-Base": str(hub.client.get("/api/td/state").json()["base"])}
    assert hub.client.put(PATH, json={"text": LUNCH}, headers=td | base).status_code == 200
    r = hub.client.delete(PATH, headers=td | base)  # another phone, drawn before it
    assert r.status_code == 409 and "this changed meanwhile" in r.json()["detail"]
    assert LUNCH in r.json()["detail"]
    assert hall_message(hub)["text"] == LUNCH


def test_the_message_and_its_clearing_survive_a_restart(hub, td):
    start = hub.clock.moment()
    hub.client.put(PATH, json={"text": LUNCH, "minutes": 90}, headers=td)
    hub.restart()
    assert hall_message(hub)["text"] == LUNCH
    assert hall_message(hub)["ends"] == to_seconds(start + timedelta(minutes=90))
    td = hub.sign_in()
    assert hub.client.delete(PATH, headers=td).status_code == 200
    hub.restart()
    assert hall_message(hub) is None


def test_a_message_needs_no_round(hub):
    csrf = hub.sign_in()  # nothing set up yet: the message is for the hall all the same
    r = hub.client.put(PATH, json={"text": "Welcome! Round 1 at 10:00"}, headers=csrf)
    assert r.status_code == 200, r.text
    hall = hub.client.get("/api/hall").json()
    assert hall["clock"] is None and hall["message"]["text"] == "Welcome! Round 1 at 10:00"


def test_every_tables_kiosk_gets_the_message_pushed_and_its_clearing(hub, td):
    with hub.client.websocket_connect("/api/tables/2/ws", headers=hub.kiosk_headers(2)) as two, \
            hub.client.websocket_connect("/api/tables/3/ws", headers=hub.kiosk_headers(3)) as three:
        first = received(two, "table 2's first snapshot")
        assert first["message"] is None
        assert received(three, "table 3's first snapshot")["message"] is None
        hub.client.put(PATH, json={"text": LUNCH, "minutes": 30}, headers=td)
        for ws, n in ((two, 2), (three, 3)):
            pushed = received(ws, f"table {n}'s snapshot with the message")
            assert pushed["seq"] > first["seq"]
            assert pushed["message"]["text"] == LUNCH
            until = datetime.fromisoformat(pushed["message"]["until"])
            assert until == to_moment(hub.clock.now()) + timedelta(minutes=30)
        hub.client.delete(PATH, headers=td)
        for ws, n in ((two, 2), (three, 3)):
            assert received(ws, f"table {n}'s snapshot without it")["message"] is None
