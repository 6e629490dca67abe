"""The hub checks against a real hub: ``dipclock hub`` under uvicorn on a free 127.0.0.1 port."""

from __future__ import annotations

import http.server
import re
import threading

import httpx

from machine import hub
from tests.server.live import free_port


def check(url: str, table: int | None, key: str | None, shift: float = 0.0):
    """The doctor's hub checks, with this machine's wall clock moved by ``shift`` seconds."""
    with httpx.Client(base_url=url, timeout=10) as client:
        return hub.check_hub(client, table, key, lambda: hub.wall_seconds() + shift)


def test_a_hub_that_answers_takes_our_key_and_agrees_on_the_time(live):
    h, key = live
    checks = check(h.url, 3, key)
    assert [(c.name, c.verdict) for c in checks] == [
        ("hub", "ok"), ("hub key", "ok"), ("hub clock", "ok")]
    assert checks[1].detail == "key accepted for table 3 (round set up)"
    assert "behind" in checks[2].detail or "ahead of" in checks[2].detail


def test_a_wrong_key_fails_with_where_to_copy_the_right_one(live):
    h, _ = live
    checks = {c.name: c for c in check(h.url, 3, "not-the-key")}
    assert checks["hub key"].verdict == "fail"
    assert checks["hub key"].detail == "the hub refuses this kiosk key"
    assert "dipclock.txt" in checks["hub key"].fix
    assert checks["hub"].verdict == "ok"  # the hub itself answers


def test_no_key_or_no_table_number_fail_without_asking(live):
    h, key = live
    assert check(h.url, 3, None)[1].detail == "no kiosk key given"
    no_table = check(h.url, None, key)[1]
    assert no_table.verdict == "fail" and "table-N" in no_table.fix


def test_a_table_number_the_hub_cannot_have_fails(live):
    h, key = live
    bad = check(h.url, 1000, key)[1]
    assert bad.verdict == "fail" and "table 1000 is not in the hub's round" == bad.detail


def test_a_clock_seconds_off_warns(live):
    h, key = live
    off = check(h.url, 3, key, shift=-5.0)[2]  # this machine 5 s slow
    assert off.verdict == "warn" and "NTP" in off.fix
    said = re.fullmatch(r"this machine's clock is ([\d.]+) s behind the hub "
                        r"\(round trip (\d+) ms\); the kiosk shows the hub's time", off.detail)
    assert said is not None, off.detail
    # four timestamps place the offset within half the round trip, however busy the machine
    seconds, rtt = float(said[1]), int(said[2]) / 1000
    assert abs(seconds - 5.0) <= rtt / 2 + 0.01


def test_a_clock_a_whole_hour_off_asks_about_the_time_zone(live):
    h, key = live
    off = check(h.url, 3, key, shift=3600.0)[2]
    assert off.verdict == "warn" and "ahead of the hub" in off.detail
    assert "another time zone?" in off.detail and "Timezone" in off.fix


def test_nothing_listening_fails_with_the_network_as_fix():
    url = f"http://127.0.0.1:{free_port()}"
    checks = check(url, 3, "key")
    assert len(checks) == 1 and checks[0].verdict == "fail"
    assert checks[0].detail.startswith(f"{url} does not answer")


def test_a_web_server_that_is_not_a_hub_fails(tmp_path):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0),
        lambda *a: http.server.SimpleHTTPRequestHandler(*a, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        checks = check(f"http://127.0.0.1:{server.server_address[1]}", 3, "key")
    finally:
        server.shutdown()
        server.server_close()
    assert [c.verdict for c in checks] == ["fail"]
    assert "(HTTP 404) but is not a dipclock hub" in checks[0].detail


def test_the_offset_says_which_clock_is_ahead():
    assert "behind the hub" in hub._offset(2.5, 0.01).detail
    assert "ahead of the hub" in hub._offset(-2.5, 0.01).detail
    assert hub._offset(0.4, 0.01).verdict == "ok"
