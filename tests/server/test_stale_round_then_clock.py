"""A clock action (add time, pause) made from a screen drawn before another phone set up a
round is refused with what changed: the tables play the new round now, and the TD meant
the one the screen showed (``server.stale.CONFLICTS["clock"]`` holds ``"round"``; without
it nothing caught the mix-up, issue 34, item 13)."""

from __future__ import annotations

from datetime import timedelta

from tests.server.conftest import START

ROUND_TWO = {"number": 2, "start": (START + timedelta(hours=5)).isoformat()}


def _seen(hub) -> dict[str, str]:
    """What the dashboard sends with a change: the state its screen was drawn from."""
    return {"X-Dipclock-Base": str(hub.client.get("/api/td/state").json()["base"])}


def test_time_added_from_a_screen_drawn_before_a_new_round_is_refused(hub, td):
    hub.at(START + timedelta(minutes=30))  # round 1 under way
    seen = _seen(hub)
    r = hub.client.put("/api/td/round", json=ROUND_TWO, headers=td)  # the other phone
    assert r.status_code == 200, r.text
    for path, body in (("/api/td/adjustments", {"seconds": 60}), ("/api/td/pauses", {})):
        r = hub.client.post(path, json=body, headers=td | seen)
        assert r.status_code == 409, (path, r.text)
        detail = r.json()["detail"]
        assert detail.startswith("Not done: this changed meanwhile: ") and \
            "round 2 starts" in detail, detail
    state = hub.client.get("/api/td/state").json()
    assert state["adjustments"] == [] and state["round"]["number"] == 2
    # drawn again, the screen shows round 2, and the time is given
    r = hub.client.post("/api/td/adjustments", json={"seconds": 60}, headers=td | _seen(hub))
    assert r.status_code == 200, r.text


def test_a_change_about_something_else_does_not_hold_a_clock_action_up(hub, td):
    """The control: only news about the clocks or the round makes a clock action stale."""
    hub.at(START + timedelta(minutes=30))
    seen = _seen(hub)
    r = hub.client.put("/api/td/tables", json={"count": 5}, headers=td)
    assert r.status_code == 200, r.text
    r = hub.client.post("/api/td/adjustments", json={"seconds": 60}, headers=td | seen)
    assert r.status_code == 200, r.text
