"""The hub announces itself by mDNS, and a kiosk browsing for ``_dipclock._tcp`` finds it by
the hash of its own key (docs/protocol.md); a hub on a loopback address announces nothing.

The real hubs here run in a network namespace of their own (``unshare -n``): a loopback with
multicast on and nothing else, so no test announces anything on a real network."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.mdns import AVAHI_SOCKET, SERVICE, announced, host_name, instance, service_info, where
from tests.server.live import ROOT


@pytest.fixture
def netns() -> list[str]:
    """A command prefix: ``unshare -n`` (``-rn`` for a user allowed user namespaces) with
    loopback multicast on."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("a private network namespace needs unshare and ip")
    for flags in ("-n", "-rn"):
        wrap = ["unshare", flags, "sh", "-c", 'ip link set lo up multicast on && exec "$@"', "sh"]
        if subprocess.run([*wrap, "true"], capture_output=True, timeout=10).returncode == 0:
            return wrap
    pytest.skip("this machine lets us make no private network namespace: no test announces "
                "a hub on the real network")


@pytest.fixture
def hub_card_netns(netns: list[str]) -> list[str]:
    """``netns`` with a host name of its own too (``unshare -u``): ``dipclock-hub``, as
    machine/cardsetup.py names the hub card."""
    return [netns[0], netns[1] + "u", "sh", "-c",
            'hostname dipclock-hub && ip link set lo up multicast on && exec "$@"', "sh"]


def probe(wrap: list[str], data: Path, host: str, *more: str) -> dict:
    run = subprocess.run(
        [*wrap, sys.executable, "-m", "tests.server.mdns_probe", str(data), host, *more],
        cwd=ROOT, capture_output=True, text=True, timeout=90,
    )
    assert run.returncode == 0, run.stderr + data.with_suffix(".log").read_text()
    return json.loads(run.stdout)


def test_a_kiosk_browsing_the_lan_finds_the_hub_by_its_key(tmp_path: Path, netns):
    """A real ``dipclock hub`` with mDNS on, on every address (the default), browsed with
    zeroconf as a kiosk does."""
    found = probe(netns, tmp_path / "hub", "0.0.0.0")
    assert "timeout" not in found, found
    assert found["mdns_sockets"] > 0  # what the loopback hub below must not open
    hub_id = found["hub_id"]
    [svc] = [s for s in found["services"] if s["txt"]["id"] == hub_id]
    assert svc["name"] == f"dipclock hub {hub_id}._dipclock._tcp.local."
    assert svc["txt"] == {"id": hub_id, "s": "https", "v": "0.2.0"}  # no secret on the air
    assert svc["port"] == found["port"] and svc["addresses"] == ["127.0.0.1"]
    assert found["seen"][svc["name"]] == ["Added", "Removed"]  # a goodbye when it stops
    printed = (tmp_path / "hub.log").read_text()
    assert "Kiosks find this hub on the LAN (mDNS _dipclock._tcp)" in printed
    assert re.search(r"^Hub clock:  (synchronised|not synchronised|unknown)$", printed, re.M)


def test_a_phone_reaches_the_hub_card_as_dipclock_hub_local(tmp_path: Path, hub_card_netns):
    """A real hub on a machine named ``dipclock-hub`` (the hub card) answers an A query for
    ``dipclock-hub.local`` with its address, to an mDNS querier and to a plain one-shot
    question alike: the TD's phone opens https://dipclock-hub.local:8000/ with no router
    DNS."""
    if AVAHI_SOCKET.exists():
        pytest.skip("avahi runs here: it answers for the host name, the hub keeps its own")
    found = probe(hub_card_netns, tmp_path / "hub", "0.0.0.0", "resolve", "dipclock-hub.local.")
    assert "timeout" not in found, found
    [svc] = [s for s in found["services"] if s["txt"]["id"] == found["hub_id"]]
    assert svc["server"] == "dipclock-hub.local."
    assert found["resolved"] == ["127.0.0.1"], found
    assert found["one_shot"] == ["127.0.0.1"], found


def test_the_hub_answers_for_the_host_name_only_when_it_is_a_dns_label(tmp_path: Path):
    no_avahi = tmp_path / "no-avahi"
    assert host_name("9f2c", "dipclock-hub", no_avahi) == "dipclock-hub.local."
    assert host_name("9f2c", "Hall-B-Hub", no_avahi) == "hall-b-hub.local."
    for odd in ("", "localhost", "pi.example.org", "-hub", "hub-", "hub_1", "h" * 64, "café"):
        assert host_name("9f2c", odd, no_avahi) == "dipclock-hub-9f2c.local.", odd
    avahi = tmp_path / "avahi-socket"
    avahi.touch()  # avahi answers for the name already: a second answer makes it rename
    assert host_name("9f2c", "dipclock-hub", avahi) == "dipclock-hub-9f2c.local."


def test_the_announcement_is_the_contracts():
    info = service_info("9f2c4e1a0b7d3e55", "https", 8000, ["10.0.0.1"])
    assert (info.type, info.name, info.port) == (
        SERVICE, "dipclock hub 9f2c4e1a0b7d3e55._dipclock._tcp.local.", 8000)
    assert info.properties == {b"id": b"9f2c4e1a0b7d3e55", b"s": b"https", b"v": b"0.2.0"}
    assert info.parsed_addresses() == ["10.0.0.1"]
    assert instance("x") == "dipclock hub x._dipclock._tcp.local."


def test_a_hub_on_loopback_announces_nothing_and_says_so(tmp_path: Path, netns):
    """``--host 127.0.0.1``: nobody else can reach the hub, so a kiosk must not find it.
    The hub is the only process in its namespace: no mDNS socket open there at all."""
    found = probe(netns, tmp_path / "hub", "127.0.0.1", "quiet")
    assert found["mdns_sockets"] == 0, found
    printed = (tmp_path / "hub.log").read_text()
    assert ("Not announced on the LAN (mDNS): on 127.0.0.1 only this machine reaches the hub"
            in printed), printed
    assert "Kiosks find this hub" not in printed


def test_loopback_addresses_are_not_announced_and_others_are():
    for host in ("127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1", "localhost"):
        assert not announced(host), host
    for host in ("0.0.0.0", "::", "192.168.1.10", "10.0.0.7", "fe80::1"):
        assert announced(host), host
    assert where("192.168.1.10") == (["192.168.1.10"], ["192.168.1.10"])


def test_fixtures_and_test_hubs_keep_mdns_off(hub):
    assert hub.client.app.state.mdns is None


def test_a_hub_that_cannot_announce_says_so_once_and_serves(tmp_path, password_hash, caplog):
    from fastapi.testclient import TestClient

    from server.app import create_app
    from server.settings import Settings

    # 192.0.2.7 (TEST-NET-1) is no interface of this machine: zeroconf cannot bind it
    settings = Settings(data_dir=tmp_path, td_password_hash=password_hash, mdns=True,
                        host="192.0.2.7")
    with TestClient(create_app(settings)) as c:
        assert c.get("/api/time").status_code == 200
        assert c.app.state.mdns is not None and c.app.state.mdns.zc is None
    [line] = [r.getMessage() for r in caplog.records if "mDNS" in r.getMessage()]
    assert line.startswith("mDNS: cannot announce the hub (") and "address typed" in line
