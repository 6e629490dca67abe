"""The kiosk's hub session on its own: events in, requests and effects out; no hub, no threads.

Each test feeds ``HubSession`` what a driver would (a time reply with its four timestamps, a
snapshot, an upload reply, a lost connection) at the monotonic readings that matter.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import kiosk.session
from dipclock.events import BUILTIN
from dipclock.sync import to_seconds
from kiosk.clocksync import REFRESH_SAMPLES, VOTE_SYNC
from kiosk.outbox import StoredConfirmation, StoredPress
from kiosk.session import (
    FAST_SAMPLES,
    FAST_SYNC,
    HUB_RETRY,
    SLOW_SYNC,
    Effects,
    HubSession,
    Request,
)

START = datetime(2019, 9, 6, 10, 0)
HUB = to_seconds(START) - 1000.0  # hub time = monotonic + HUB


def snapshot(seq: int, **extra: Any) -> dict[str, Any]:
    return {"seq": seq, "table": 3, "event": BUILTIN["wdc2019"].model_dump(mode="json"),
            "schedule": {"start": START.isoformat(), "title": "Round 2"},
            "out": [], "presses": [], "hub_time": 0.0} | extra


def exchange(session: HubSession, t0: float, there: float, back: float, hub: float = HUB,
             wall_minus_mono: float = 0.0, provisional: bool | None = None) -> Effects:
    """A time exchange sent at ``t0`` whose legs took ``there`` and ``back`` seconds
    (``provisional``: the reply says so, as a hub that has just started does)."""
    _, ticket = session.time_request()
    t1 = t0 + there + hub
    t2 = t1 + 0.001
    body: dict[str, Any] = {"t1": t1, "t2": t2}
    if provisional is not None:
        body["provisional"] = provisional
    return session.time_reply(ticket, t0, t2 - hub + back, 200, body, wall_minus_mono)


def press(pid: str) -> StoredPress:
    return StoredPress(pid, "k", "I", "press", START)


# --- the press upload -------------------------------------------------------------------


@pytest.mark.parametrize("status", [409, 500, 503])
def test_a_batch_the_hub_refused_is_not_marked_sent(status: int) -> None:
    session = HubSession(3)
    batch = [press("a"), press("b")]
    request = session.upload_request(batch)
    assert request == Request("POST", "/api/tables/3/presses", {"presses": [
        p.as_json() for p in batch]})
    refused = session.upload_reply(batch, status, {"detail": "not now"})
    assert not refused.ok and refused.sent == () and refused.rejected == ()
    assert session.connected == (status == 409)  # a 5xx: the hub is in trouble
    taken = session.upload_reply(batch, 200, {"stored": 2, "duplicates": 0, "rejected": []})
    assert taken.ok and taken.sent == ("a", "b")


def test_a_press_the_hub_names_as_rejected_is_flagged_and_the_rest_sent() -> None:
    session = HubSession(3)
    batch = [press("a"), press("b"), press("c")]
    reply = {"stored": 2, "duplicates": 0,
             "rejected": [{"id": "b", "reason": "at: the year must be between 2000 and 2100"},
                          {"id": None, "reason": "no id"}]}
    effects = session.upload_reply(batch, 200, reply)
    assert effects.sent == ("a", "c")
    assert effects.rejected == (("b", "at: the year must be between 2000 and 2100"),)
    # a 2xx whose body does not parse stored the batch: nothing is held back
    assert session.upload_reply(batch, 200, None).sent == ("a", "b", "c")


# --- the confirmations of the sheet's lines ---------------------------------------------


def line(cid: str, power: str = "I", version: int = 2) -> StoredConfirmation:
    return StoredConfirmation(cid, "hub-a", 1, power, version, START)


def test_confirmations_go_to_the_hub_they_were_made_for() -> None:
    session = HubSession(3)
    assert session.hub_id == ""  # no snapshot yet: nothing is sent anywhere
    session.snapshot(snapshot(1, hub="hub-a"))
    assert session.hub_id == "hub-a"
    batch = [line("a"), line("b", "E")]
    assert session.confirmations_request(batch) == Request(
        "POST", "/api/tables/3/confirmations", {"confirmations": [
            {"id": "a", "round": 1, "power": "I", "version": 2},
            {"id": "b", "round": 1, "power": "E", "version": 2}]})


def test_a_confirmation_is_done_only_when_the_hub_names_it() -> None:
    session = HubSession(3)
    batch = [line("a"), line("b", "E"), line("c", "T")]
    reply = {"taken": ["a"], "refused": [{"id": "b", "reason": "the sheet changed meanwhile"},
                                         {"id": None, "reason": "no id"}]}
    effects = session.confirmations_reply(batch, 200, reply)
    assert effects.lines_taken == ("a",)
    assert effects.lines_refused == (("b", "the sheet changed meanwhile"),)
    assert not effects.ok and effects.wake  # "c" not named: sent again later, not at once
    assert session.connected
    done = session.confirmations_reply(batch[2:], 200, {"taken": ["c"], "refused": []})
    assert done.ok and done.lines_taken == ("c",)
    # not a 2xx, or a 2xx that does not parse: none is marked, on a guess or otherwise
    for status, body in ((409, {"detail": "no round"}), (503, None), (200, {"taken": 7}),
                         (200, None)):
        effects = session.confirmations_reply(batch, status, body)
        assert not effects.ok and effects.lines_taken == effects.lines_refused == ()
        assert session.connected == (status < 500)  # a 5xx: the hub is in trouble


# --- time: the filter, the slew, the fallback -------------------------------------------


def test_the_fastest_sample_sets_the_time_not_the_latest() -> None:
    session = HubSession(3)
    # slow and asymmetric (offset +0.4), fast (+0.005), then latest (-0.1): all differ
    for t0, there, back in ((100.0, 0.9, 0.1), (110.0, 0.02, 0.01), (120.0, 0.1, 0.3)):
        exchange(session, t0, there, back)
    assert session.stamp(130.0) - 130.0 == pytest.approx(HUB + 0.005, abs=1e-6)


def test_a_small_correction_is_slewed_into_the_shown_time_not_stepped() -> None:
    session = HubSession(3)
    assert session.snapshot(snapshot(1)).ok
    exchange(session, 100.0, 0.01, 0.01)
    assert session.local(100.0) - 100.0 == pytest.approx(HUB, abs=1e-6)  # the first: a step
    assert session.snapshot(snapshot(2, clock=1)).sync_now  # the TD set the hub's time
    assert not session.verified
    exchange(session, 101.0, 0.01, 0.01, hub=HUB + 0.5)
    assert session.verified
    assert session.stamp(102.0) - 102.0 == pytest.approx(HUB + 0.5, abs=1e-6)  # the estimate
    # what the screen shows moves 50 ms a second towards it: a countdown never skips
    shown = [session.local(t) - t - HUB for t in (102.0, 106.0, 120.0)]
    assert shown == pytest.approx([0.05, 0.25, 0.5], abs=0.002)


def test_before_any_sample_the_wall_clock_and_the_stored_offset_are_a_guess() -> None:
    session = HubSession(3, wall_offset=-3600.0)
    assert not session.synced and not session.verified
    assert session.local(50.0, wall_minus_mono=HUB + 3600) == pytest.approx(50.0 + HUB)
    effects = exchange(session, 100.0, 0.01, 0.01, wall_minus_mono=HUB + 3600.0)
    assert session.verified and effects.save_wall_offset == pytest.approx(-3600.0, abs=1e-6)
    assert effects.report is not None and effects.report[0] == pytest.approx(0.0, abs=1e-3)
    again = exchange(session, 110.0, 0.01, 0.01, wall_minus_mono=HUB + 3600.0)
    assert again.save_wall_offset is None  # saved at most every 10 minutes


def test_a_sample_taken_across_a_new_hub_clock_is_thrown_away() -> None:
    session = HubSession(3)
    session.snapshot(snapshot(1))
    exchange(session, 100.0, 0.01, 0.01)
    _, ticket = session.time_request()
    session.snapshot(snapshot(2, clock=1))  # arrives while the exchange is out
    stale = session.time_reply(ticket, 110.0, 110.03, 200, {"t1": 110.01 + HUB,
                                                            "t2": 110.011 + HUB}, 0.0)
    assert stale.ok and stale.sync_now and stale.report is None and not session.verified


def test_a_bad_time_reply_is_a_failed_exchange() -> None:
    session = HubSession(3)
    _, ticket = session.time_request()
    for status, body in ((200, {"t1": "soon"}), (200, None), (502, {"t1": 1.0, "t2": 1.0})):
        assert not session.time_reply(ticket, 1.0, 1.1, status, body, 0.0).ok
    assert not session.synced and not session.connected


def test_syncs_are_fast_until_settled_then_slow_and_back_off_when_down() -> None:
    session = HubSession(3, rng=random.Random(3))
    waits = []
    for i in range(FAST_SAMPLES):
        exchange(session, 10.0 * i, 0.01, 0.01)
        waits.append(session.next_sync(True))
    assert waits[:-1] == [FAST_SYNC] * (FAST_SAMPLES - 1) and waits[-1] == SLOW_SYNC
    assert [session.next_sync(False) <= 2 ** n for n in range(4)] == [True] * 4


# --- the connection ---------------------------------------------------------------------


def test_an_unreachable_hub_is_tried_again_at_least_every_few_seconds() -> None:
    """However long the hub has been away, the next try (sync and push channel) comes
    within ``HUB_RETRY``: a restarted hub has its hall back within seconds."""
    session = HubSession(3, rng=random.Random(5))
    waits = [session.next_sync(False) for _ in range(12)]
    pushes = [session.next_push(False) for _ in range(12)]
    assert max(waits + pushes) <= HUB_RETRY
    assert min(waits[-4:] + pushes[-4:]) >= HUB_RETRY / 2  # still backed off, jittered


def test_a_hub_that_comes_back_is_sampled_fast_a_few_times() -> None:
    """Its first sample after the return is slow (the whole hall reconnects at once): a few
    fast ones follow, so a quiet one soon outranks it."""
    session = HubSession(3)
    for i in range(FAST_SAMPLES):
        exchange(session, 10.0 * i, 0.01, 0.01)
    assert session.next_sync(True) == SLOW_SYNC
    session.link("ws", False)  # the hub goes away
    waits = []
    for i in range(REFRESH_SAMPLES + 1):
        exchange(session, 200.0 + 2 * i, 0.01, 0.01)
        waits.append(session.next_sync(True))
    assert waits == [FAST_SYNC] * (REFRESH_SAMPLES - 1) + [SLOW_SYNC] * 2


def test_losing_the_hub_keeps_the_trust_and_coming_back_syncs_and_uploads_at_once() -> None:
    session = HubSession(3)
    back = session.link("http", True)
    assert back.sync_now and back.upload_now and back.wake
    exchange(session, 100.0, 0.01, 0.01)
    lost = session.link("http", False)
    assert lost.wake and session.verified  # its clock runs on
    # the time sync looks for the hub at once, then on its backoff: not only the push
    # channel, nor only after a settled kiosk's slow wait
    assert lost.sync_now and not lost.upload_now
    assert session.link("ws", True).sync_now
    assert session.link("http", True) == Effects()  # no change: nothing to do


def test_a_kiosk_that_kept_the_time_does_not_follow_a_restarted_hub_far_from_it() -> None:
    """The hub came back an hour ahead (its machine's clock was stepped while it was down):
    the screen keeps the time it kept and tells the hub, which takes it
    (``server.kepttime``); once the hub has settled, its samples agree again."""
    session = HubSession(3)
    for t in range(8):
        exchange(session, 100.0 + t, 0.01, 0.01)
    session.link("ws", False)  # the hub goes; the kiosk counts on, trusting its time
    shown = session.local(200.0)
    held = exchange(session, 200.0, 0.01, 0.01, hub=HUB + 3600.0, provisional=True)
    assert held.report is not None and held.report[2]  # kept, and says so
    assert held.report[0] == pytest.approx(3600.0, abs=0.02)
    assert session.local(200.0) == shown and session.local(260.0) - 60.0 == shown
    # a vote every half second while the hub gathers them: its best-measured one counts
    assert session.next_sync(True) == VOTE_SYNC
    # the hub kept its time after all (most tables had not kept one): then it is followed
    exchange(session, 220.0, 0.01, 0.01, hub=HUB + 3600.0, provisional=False)
    assert session.stamp(220.0) - 220.0 == pytest.approx(HUB + 3600.0, abs=1e-3)
    assert session.next_sync(True) == FAST_SYNC  # then fast, as a new clock's first samples


def test_a_kiosk_that_kept_the_time_votes_for_a_restarted_hub_close_to_it() -> None:
    session = HubSession(3)
    for t in range(8):
        exchange(session, 100.0 + t, 0.01, 0.01)
    session.link("ws", False)
    near = exchange(session, 200.0, 0.01, 0.01, hub=HUB + 0.2, provisional=True)
    assert near.report is not None and near.report[2]  # kept: a vote for the hub's time
    assert near.report[0] == pytest.approx(0.2, abs=0.02)
    assert session.stamp(200.0) - 200.0 == pytest.approx(HUB + 0.2, abs=1e-3)  # followed
    request = session.status_request(*near.report[:2], {}, near.report[2])
    assert request.json is not None and request.json["kept"] is True


def test_a_kiosk_with_no_time_kept_follows_a_provisional_hub_and_reports_plainly() -> None:
    session = HubSession(3, wall_offset=0.0)  # restarted with the hub away: a guess only
    effects = exchange(session, 100.0, 0.01, 0.01, hub=HUB + 3600.0, provisional=True)
    assert effects.report is not None and not effects.report[2]
    assert session.stamp(100.0) - 100.0 == pytest.approx(HUB + 3600.0, abs=1e-3)
    request = session.status_request(*effects.report[:2], {}, effects.report[2])
    assert request.json is not None and "kept" not in request.json  # an older hub's 422


def test_a_push_channel_that_dies_loses_the_hub_until_a_new_exchange_succeeds() -> None:
    """A frozen hub answered the last sync well; only its silent push channel, given up by
    the keepalive, tells. An exchange before the channel died does not keep it found."""
    session = HubSession(3)
    session.link("http", True)
    session.link("ws", True)
    gone = session.link("ws", False)
    assert not session.connected and gone.wake
    assert session.link("http", True).sync_now and session.connected  # polling found it


# --- snapshots --------------------------------------------------------------------------


def test_snapshots_move_forward_per_hub_and_a_bad_one_keeps_the_last_round(
        caplog: pytest.LogCaptureFixture) -> None:
    session = HubSession(3)
    taken = session.snapshot(snapshot(5, out=["T"], hub="h1"))
    assert taken.ok and taken.wake and taken.upload_now and taken.save_snapshot is not None
    assert not session.snapshot(snapshot(4, hub="h1")).ok
    bad = snapshot(6, hub="h1", presses=[{"id": "x", "power": "Q", "kind": "press",
                                          "at": START.isoformat()}])
    with caplog.at_level("WARNING", logger="kiosk.session"):
        assert not session.snapshot(bad).ok
    assert [r.getMessage() for r in caplog.records] == [
        "bad snapshot: presses.0.power: 'Q' is not a power (one of A E F G I R T)"]
    current = session.current()
    assert current is not None and current.hub_out == {"T"}
    fresh = session.snapshot(snapshot(1, hub="h2"))  # a hub started on an empty data dir
    assert fresh.ok and fresh.resend == current.key and fresh.sync_now


def test_claims_name_the_other_kiosks_and_stored_ones_are_old_news() -> None:
    claims = [{"id": "me", "address": "10.0.0.12"}, {"id": "b", "address": "10.0.0.31"}]
    session = HubSession(3)
    session.snapshot(snapshot(1, claims=claims))
    assert session.others("me") == ("10.0.0.31",) and session.others(None) == ()
    restored = HubSession(3, stored=snapshot(1, claims=claims))
    assert restored.current() is not None and restored.others("me") == ()


def test_the_seating_rides_on_the_round_and_survives_a_restart_from_the_stored_snapshot(
) -> None:
    session = HubSession(3)
    session.snapshot(snapshot(1, hub="h1"))
    first = session.current()
    assert first is not None and first.players == ()  # an older hub: nobody named
    seated = snapshot(2, hub="h1", players={"R": "Boris Ivanov", "I": "Ann Smith"})
    taken = session.snapshot(seated)
    assert taken.ok and taken.save_snapshot is not None
    now = session.current()
    assert now is not None and now.key == first.key  # the same round, its players named
    assert now.players == (("I", "Ann Smith"), ("R", "Boris Ivanov"))
    restored = HubSession(3, stored=taken.save_snapshot)
    assert restored.current() == now


def test_a_refused_kiosk_block_is_sent_again_without_it_and_never_again() -> None:
    session = HubSession(3)
    first = session.status_request(0.001, 0.02, {"id": "card-1", "version": "0.2"})
    assert first.json is not None and first.json["kiosk"]["id"] == "card-1"
    again = session.status_reply(first, 422, "kiosk: extra fields not permitted")
    assert again is not None and again.json == {"offset": 0.001, "rtt": 0.02}
    assert session.status_reply(again, 204, "") is None
    later = session.status_request(0.0, 0.02, {"id": "card-1"})
    assert later.json is not None and "kiosk" not in later.json


def test_the_box_going_away_or_coming_back_is_reported_at_once_unless_the_hub_has_it() -> None:
    session = HubSession(3)
    assert session.box_changed(False).sync_now  # nothing reported yet: tell the hub
    sent = session.status_request(0.001, 0.02, {"id": "card-1", "box": "connected"})
    assert session.status_reply(sent, 204, "") is None
    assert session.box_changed(True) == Effects()  # the hub has it already
    assert session.box_changed(False).sync_now  # unplugged: a sync, then its report, now
    gone = session.status_request(0.001, 0.02, {"id": "card-1", "box": "disconnected"})
    assert session.status_reply(gone, 503, "restarting") is None
    assert session.box_changed(False).sync_now  # the hub never took it: still to tell
    assert session.status_reply(gone, 204, "") is None
    assert session.box_changed(False) == Effects()
    assert session.box_changed(True).sync_now  # plugged back


# --- the walls --------------------------------------------------------------------------


SESSION = ["session", "clocksync", "feed", "upload", "backoff", "round"]


def test_the_hub_client_and_its_session_need_no_pygame() -> None:
    code = ("import sys, kiosk.hubclient, dipclock.snapshot\n"
            + "".join(f"import kiosk.{name}\n" for name in SESSION)
            + "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("name", SESSION)
def test_the_session_opens_no_socket_thread_or_clock(name: str) -> None:
    path = Path(kiosk.session.__file__).with_name(f"{name}.py")
    tree = ast.parse(path.read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module}
    assert "__future__" in imported  # the check reads a module of ours
    assert not imported & {"httpx", "websockets", "threading", "socket", "time", "pygame",
                           "sqlite3", "asyncio", "json"}
    calls = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
             for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not calls & {"monotonic", "time", "now", "sleep", "open", "wait", "today"}
