"""Finding the hub by mDNS: a real zeroconf advertiser and browser, in a private network.

Multicast does not reach 127.0.0.1 on this machine's shared loopback (no MULTICAST flag),
and a test must not talk to the real network. So each test runs its script in a network
namespace of its own (``unshare -n``, root): a loopback with multicast switched on and
nothing else, where the advertiser and the kiosk's browser meet, and nothing leaves.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

needs_netns = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None,
    reason="a private network namespace needs root, unshare and ip",
)

PRELUDE = """
import json, socket, subprocess, sys
subprocess.run(["ip", "link", "set", "lo", "up", "multicast", "on"], check=True)
from zeroconf import IPVersion, ServiceInfo, Zeroconf
from dipclock import __version__
from kiosk.discovery import SERVICE, find_hub

def advertise(zc, hub_id, port, scheme="https"):
    # contract 3: what the hub announces
    zc.register_service(ServiceInfo(
        SERVICE, f"dipclock hub {hub_id}.{SERVICE}", addresses=[socket.inet_aton("127.0.0.1")],
        port=port, properties={"id": hub_id, "s": scheme, "v": __version__}))

hubs = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
"""


def in_private_network(script: str, tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "script.py"
    path.write_text(PRELUDE + textwrap.dedent(script))
    done = subprocess.run(["unshare", "-n", sys.executable, str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@needs_netns
def test_a_paired_kiosk_takes_the_hub_it_was_paired_with_of_two_on_the_network(
        tmp_path: Path) -> None:
    out = in_private_network("""
        advertise(hubs, "other-hall", 8001)
        advertise(hubs, "ours", 8002)
        found = find_hub("ours", 20)  # the kiosk's own default: every interface
        hubs.close()
        print(json.dumps({"found": found}))
    """, tmp_path)
    assert out == {"found": "https://127.0.0.1:8002"}


@needs_netns
def test_a_hub_serving_plain_http_says_so_and_an_unpaired_kiosk_takes_any(
        tmp_path: Path) -> None:
    out = in_private_network("""
        advertise(hubs, "plain", 8001, scheme="http")
        found = find_hub(None, 20, interfaces=["127.0.0.1"])
        hubs.close()
        print(json.dumps({"found": found}))
    """, tmp_path)
    assert out == {"found": "http://127.0.0.1:8001"}


@needs_netns
def test_the_hub_it_was_paired_with_gone_finds_nothing(tmp_path: Path) -> None:
    out = in_private_network("""
        advertise(hubs, "other-hall", 8001)
        found = find_hub("ours", 3, interfaces=["127.0.0.1"])
        hubs.close()
        print(json.dumps({"found": found}))
    """, tmp_path)
    assert out == {"found": None}


@needs_netns
def test_a_new_kiosk_shows_it_is_looking_then_asks_the_hub_it_found(tmp_path: Path) -> None:
    status = tmp_path / "screen.json"
    (tmp_path / "kiosk.toml").write_text("")
    out = in_private_network(f"""
        import os, time
        kiosk = subprocess.Popen(
            [sys.executable, "-m", "dipclock", "kiosk", "--headless", "--run-for", "100",
             "--table", "3", "--boot-file", {str(tmp_path / "none")!r},
             "--config", {str(tmp_path / "kiosk.toml")!r},
             "--outbox", {str(tmp_path / "o.sqlite")!r}, "--status-file", {str(status)!r}],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def screen_when(test):
            end = time.monotonic() + 60
            while time.monotonic() < end:
                try:
                    screen = json.loads(open({str(status)!r}).read())
                except (OSError, ValueError):
                    screen = None
                if screen is not None and test(screen):
                    return screen
                time.sleep(0.05)
            return screen

        # this namespace has loopback alone: once read, the screen says there is no network
        looking = screen_when(lambda s: s["label"].startswith("No network"))
        advertise(hubs, "ours", 8123)  # nothing serves there: the pairing says so
        found = screen_when(lambda s: s["look"] == "connecting" and any(
            n.startswith("Hub ") for n in s["notes"]))
        kiosk.kill()
        hubs.close()
        print(json.dumps({{"looking": looking["label"], "found": found["notes"][0],
                          "heading": found["heading"], "label": found["label"]}}))
    """, tmp_path)
    assert out == {"looking": "No network: no cable, and no Wi-Fi on this Pi",
                   "found": "Hub 127.0.0.1:8123, found on the network", "heading": "Table 3?",
                   "label": "Asking the hub for a pairing code"}


#: Two network namespaces joined by a veth pair: this script's (the kiosk's, its end
#: ``veth-kiosk`` up but with no address yet, as a Pi whose Wi-Fi has not joined) and the
#: hub's (``veth-hub``, 10.77.0.1/24), where a real ``dipclock hub`` announces itself.
WIFI_LATE = """
import json, os, subprocess, sys, time
import httpx
from kiosk.discovery import HubFinder
from kiosk.pairing import pinned

tmp = sys.argv[1]
def ip(*args, ns=None):
    subprocess.run([*(["nsenter", "-t", str(ns), "-n"] if ns else []), "ip", *args], check=True)

ip("link", "set", "lo", "up", "multicast", "on")
other = subprocess.Popen(["unshare", "-n", "sh", "-c", "echo ready && exec sleep 600"],
                         stdout=subprocess.PIPE, text=True)  # holds the hub's namespace
assert other.stdout.readline() == "ready\\n"
ns = other.pid  # unshare execs in place: the namespace's process
ip("link", "add", "veth-kiosk", "type", "veth", "peer", "name", "veth-hub")
ip("link", "set", "veth-hub", "netns", str(ns))
ip("link", "set", "lo", "up", ns=ns)
ip("addr", "add", "10.77.0.1/24", "dev", "veth-hub", ns=ns)
ip("link", "set", "veth-hub", "up", ns=ns)
ip("link", "set", "veth-kiosk", "up", "multicast", "on")  # up, and no address yet

finder = HubFinder(None)  # as the kiosk starts it at boot, before its Wi-Fi has an address
env = {**os.environ, "DIPCLOCK_TD_PASSWORD": "a long enough password", "PYTHONUNBUFFERED": "1"}
hub = subprocess.Popen(["nsenter", "-t", str(ns), "-n", sys.executable, "-m", "dipclock", "hub",
                        "--data", f"{tmp}/hub", "--host", "0.0.0.0", "--port", "0",
                        "--wait-for-sync", "0"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
printed = ""
for line in hub.stdout:
    printed += line
    if line.startswith("Hub clock:"):  # the last line before it serves: announced by now
        break

def until(what, probe, seconds):
    end = time.monotonic() + seconds
    while (found := probe()) is None and time.monotonic() < end:
        time.sleep(0.05)
    return found if found is not None else f"not within {seconds} s: {what}"

try:
    before = finder.found()  # no address: nothing can have been heard
    ip("addr", "add", "10.77.0.2/24", "dev", "veth-kiosk")  # the Wi-Fi joins
    added = time.monotonic()
    found = until("the hub announcing at 10.77.0.1 found once veth-kiosk had 10.77.0.2",
                  finder.found, 30)
    seconds = time.monotonic() - added
    answers = None
    if found.startswith("https://"):
        pem = open(f"{tmp}/hub/hub-cert.pem").read()
        answers = httpx.get(found + "/api/time", verify=pinned(pem), timeout=10).status_code
    # the hub found stays found whatever the addresses do next
    ip("addr", "del", "10.77.0.2/24", "dev", "veth-kiosk")
    kept = finder.found()
finally:
    finder.close()
    hub.terminate()
    hub.wait(timeout=15)
    other.kill()
print(json.dumps({"before": before, "found": found, "seconds": seconds, "answers": answers,
                  "kept": kept, "announced": "Kiosks find this hub on the LAN" in printed}))
"""


@needs_netns
def test_a_kiosk_started_before_its_wifi_had_an_address_finds_the_hub_once_it_has_one(
        tmp_path: Path) -> None:
    """The kiosk boots before its Wi-Fi joins: the finder, made with no address but
    loopback, finds a real hub already announcing on the other end of the link within a
    few looks at the addresses once the address arrives; and keeps it."""
    path = tmp_path / "script.py"
    path.write_text(WIFI_LATE)
    done = subprocess.run(["unshare", "-n", sys.executable, str(path), str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["announced"] and out["before"] is None
    assert out["found"].startswith("https://10.77.0.1:"), out
    assert out["answers"] == 200 and out["kept"] == out["found"]
