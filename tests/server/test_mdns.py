"""The hub announces itself by mDNS, and a kiosk browsing for ``_dipclock._tcp`` finds it by
the hash of its own key (docs/protocol.md)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from server.mdns import SERVICE, instance, service_info, where
from tests.server.live import ROOT


def private_network() -> list[str] | None:
    """``unshare -n`` with loopback multicast on, if this machine lets us make one."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return None
    wrap = ["unshare", "-n", "sh", "-c", 'ip link set lo up multicast on && exec "$@"', "sh"]
    ok = subprocess.run([*wrap, "true"], capture_output=True, timeout=10).returncode == 0
    return wrap if ok else None


def test_a_kiosk_browsing_the_lan_finds_the_hub_by_its_key(tmp_path: Path):
    """A real ``dipclock hub`` with mDNS on, browsed with zeroconf as a kiosk does. In a
    private network namespace when we may make one (as root), else on loopback only."""
    wrap = private_network()
    host = "0.0.0.0" if wrap else "127.0.0.1"  # 0.0.0.0: the default, every interface
    run = subprocess.run(
        [*(wrap or []), sys.executable, "-m", "tests.server.mdns_probe",
         str(tmp_path / "hub"), host],
        cwd=ROOT, capture_output=True, text=True, timeout=90,
    )
    assert run.returncode == 0, run.stderr + (tmp_path / "hub.log").read_text()
    found = json.loads(run.stdout)
    assert "timeout" not in found, found
    hub_id = found["hub_id"]
    [svc] = [s for s in found["services"] if s["txt"]["id"] == hub_id]
    assert svc["name"] == f"dipclock hub {hub_id}._dipclock._tcp.local."
    assert svc["txt"] == {"id": hub_id, "s": "https", "v": "0.2.0"}  # no secret on the air
    assert svc["port"] == found["port"] and svc["addresses"] == ["127.0.0.1"]
    assert found["seen"][svc["name"]] == ["Added", "Removed"]  # a goodbye when it stops
    printed = (tmp_path / "hub.log").read_text()
    assert "Kiosks find this hub on the LAN (mDNS _dipclock._tcp)" in printed
    assert re.search(r"^Hub clock:  (synchronised|not synchronised|unknown)$", printed, re.M)


def test_the_announcement_is_the_contracts():
    info = service_info("9f2c4e1a0b7d3e55", "https", 8000, ["10.0.0.1"])
    assert (info.type, info.name, info.port) == (
        SERVICE, "dipclock hub 9f2c4e1a0b7d3e55._dipclock._tcp.local.", 8000)
    assert info.properties == {b"id": b"9f2c4e1a0b7d3e55", b"s": b"https", b"v": b"0.2.0"}
    assert info.parsed_addresses() == ["10.0.0.1"]
    assert instance("x") == "dipclock hub x._dipclock._tcp.local."


def test_a_hub_on_loopback_announces_on_loopback_only():
    assert where("127.0.0.1") == (["127.0.0.1"], ["127.0.0.1"])
    assert where("localhost") == (["127.0.0.1"], ["127.0.0.1"])


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
