"""The hub checks against a real hub: ``dipclock hub`` under uvicorn on a free 127.0.0.1 port."""

from __future__ import annotations

import http.server
import re
import threading
from dataclasses import replace
from datetime import UTC, datetime

import httpx

from kiosk import hubcheck as hub
from kiosk.pairing import Credential, pinned
from tests.server.live import hub_socket


def check(url: str, paired: Credential | None, shift: float = 0.0,
          pem: str | None = None):
    """The doctor's hub checks, verifying the hub as the clock does (the certificate it was
    paired with, or ``pem``), with this machine's wall clock moved by ``shift`` seconds."""
    pinned_to = pem or (paired.certificate if paired is not None else None)
    verify = pinned(pinned_to) if pinned_to else False
    with httpx.Client(base_url=url, timeout=10, verify=verify) as client:
        return hub.check_hub(client, paired, lambda: hub.wall_seconds() + shift)


def test_a_hub_that_answers_knows_this_clock_and_agrees_on_the_time(live):
    h, paired = live
    checks = check(h.url, paired)
    assert [(c.name, c.verdict) for c in checks] == [
        ("hub", "ok"), ("pairing", "ok"), ("hub clock", "ok")]
    assert checks[1].detail == "paired for table 3 (round set up)"
    assert "behind" in checks[2].detail or "ahead of" in checks[2].detail


def test_a_revoked_or_unknown_token_fails_with_pairing_again_as_the_fix(live):
    h, paired = live
    checks = {c.name: c for c in check(h.url, replace(paired, token="not-a-token"))}
    assert checks["pairing"].verdict == "fail"
    assert checks["pairing"].detail == ("the hub no longer takes this clock for table 3 "
                                        "(revoked, or another hub)")
    assert "restart the kiosk" in checks["pairing"].fix
    assert checks["hub"].verdict == "ok"  # the hub itself answers


def test_a_clock_not_paired_yet_is_a_warning_saying_how(live):
    h, paired = live
    checks = {c.name: c for c in check(h.url, None)}
    assert checks["pairing"].verdict == "warn"
    assert "shows a code" in checks["pairing"].fix and "Clocks" in checks["pairing"].fix


def test_another_certificate_than_the_one_paired_with_fails_before_any_request(live):
    from server.certificate import make

    h, paired = live
    other = make(datetime.now(UTC))[0].decode()  # the hub set up afresh, or someone between
    checks = check(h.url, replace(paired, certificate=other))
    assert [c.verdict for c in checks] == ["fail"]
    assert "another certificate than the one this clock was paired with" in checks[0].detail
    assert "pairs again" in checks[0].fix


def test_a_clock_seconds_off_warns(live):
    h, paired = live
    off = check(h.url, paired, shift=-5.0)[2]  # this machine 5 s slow
    assert off.verdict == "warn" and "NTP" in off.fix
    said = re.fullmatch(r"this machine's clock is ([\d.]+) s behind the hub "
                        r"\(round trip (\d+) ms\); the kiosk shows the hub's time", off.detail)
    assert said is not None, off.detail
    # four timestamps place the offset within half the round trip, however busy the machine
    seconds, rtt = float(said[1]), int(said[2]) / 1000
    assert abs(seconds - 5.0) <= rtt / 2 + 0.01


def test_a_clock_a_whole_hour_off_asks_about_the_time_zone(live):
    h, paired = live
    off = check(h.url, paired, shift=3600.0)[2]
    assert off.verdict == "warn" and "ahead of the hub" in off.detail
    assert "another time zone?" in off.detail and "Timezone" in off.fix


def test_nothing_listening_fails_with_the_network_as_fix():
    with hub_socket() as nobody:  # bound, never listening: refused, and no one else's port
        url = f"http://127.0.0.1:{nobody.getsockname()[1]}"
        checks = check(url, None)
    assert len(checks) == 1 and checks[0].verdict == "fail"
    assert checks[0].detail.startswith(f"{url} does not answer")


def test_a_web_server_that_is_not_a_hub_fails(tmp_path):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0),
        lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        checks = check(f"http://127.0.0.1:{server.server_address[1]}", None)
    finally:
        server.shutdown()
        server.server_close()
    assert [c.verdict for c in checks] == ["fail"]
    assert "(HTTP 404) but is not a dipclock hub" in checks[0].detail


def test_the_offset_says_which_clock_is_ahead():
    assert "behind the hub" in hub._offset(2.5, 0.01).detail
    assert "ahead of the hub" in hub._offset(-2.5, 0.01).detail
    assert hub._offset(0.4, 0.01).verdict == "ok"
