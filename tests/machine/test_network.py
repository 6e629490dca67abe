"""The network's state from recorded ``nmcli -t``, ``ip -j`` and journal outputs: each kind
told right, in words, with the fix that works on a card (issue 35, item 4).

The outputs are as NetworkManager 1.5x prints them on a Pi 4 on Debian Trixie (``end0`` its
Ethernet, ``wlan0`` its Wi-Fi): terse mode is untranslated, ``GENERAL.REASON`` is "number
(text)", and a failed attempt is back to "disconnected", reason 0, once it is over.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from machine import network
from machine.network import NetworkState, NetworkWatch, check_network, read_state

DEVICES = ("nmcli", "-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device")
SHOW_WLAN0 = ("nmcli", "-t", "-f", "GENERAL.STATE,GENERAL.REASON", "device", "show", "wlan0")
JOURNAL = ("journalctl", "-b", "-u", "NetworkManager", "-o", "cat", "--no-pager", "-n", "400")
PROFILES = ("nmcli", "-t", "-f", "NAME,TYPE", "connection", "show")
SSID = ("nmcli", "-t", "-g", "802-11-wireless.ssid", "connection", "show", "id",
        "dipclock-wifi")
SCAN = ("nmcli", "-t", "-f", "SSID", "device", "wifi", "list", "ifname", "wlan0",
        "--rescan", "no")
ADDR = ("ip", "-j", "-4", "addr")
IP_VERSION = ("ip", "-V")

LO_ONLY = json.dumps([{"ifindex": 1, "ifname": "lo", "flags": ["LOOPBACK", "UP", "LOWER_UP"],
                       "operstate": "UNKNOWN", "addr_info": [
                           {"family": "inet", "local": "127.0.0.1", "prefixlen": 8,
                            "scope": "host", "label": "lo"}]}])
ON_WLAN0 = json.dumps([*json.loads(LO_ONLY), {
    "ifindex": 3, "ifname": "wlan0", "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"],
    "operstate": "UP", "addr_info": [{"family": "inet", "local": "10.0.0.23", "prefixlen": 24,
                                      "broadcast": "10.0.0.255", "scope": "global",
                                      "dynamic": True, "label": "wlan0"}]}])

WIFI_DOWN = ("end0:ethernet:unavailable:\n"
             "wlan0:wifi:disconnected:\n"
             "p2p-dev-wlan0:wifi-p2p:disconnected:\n"
             "lo:loopback:connected (externally):lo\n")
AFTER_FAILURE = "GENERAL.STATE:30 (disconnected)\nGENERAL.REASON:0 (No reason given)\n"
CARD_PROFILE = "dipclock-wifi:802-11-wireless\nlo:loopback\n"

RECORDED = Path(__file__).resolve().parent / "recorded"
#: A wrong WPA password (``journalctl -u NetworkManager -o cat``): the handshake fails,
#: NetworkManager asks its agents for a new key, there are none on a card, the attempt fails
#: with no-secrets and the profile is left alone.
WRONG_PASSWORD_JOURNAL = (RECORDED / "wrong-password.journal").read_text()


def runner(outputs: Mapping[tuple[str, ...], str]) -> network.Runner:
    """Commands answered from recordings; any other is missing (None), as on a machine
    without it."""
    def run(argv: Sequence[str], timeout: float) -> str | None:
        assert 0 < timeout <= 10, "every command has a timeout"
        return outputs.get(tuple(argv))
    return run


def read(outputs: Mapping[tuple[str, ...], str], up: float = 600.0, **kw: object
         ) -> NetworkState:
    return read_state(runner({IP_VERSION: "ip utility, iproute2-6.15.0\n", **outputs}),
                      hostname=lambda: "dipclock-table-7", uptime=lambda: up, **kw)  # type: ignore[arg-type]


def wifi_card(**more: str) -> dict[tuple[str, ...], str]:
    """A table card whose dipclock.txt names 'Hall B': no address yet."""
    return {ADDR: LO_ONLY, DEVICES: WIFI_DOWN, SHOW_WLAN0: AFTER_FAILURE,
            PROFILES: CARD_PROFILE, SSID: "Hall B\n", SCAN: "Hall B\nBT-Hub-7X2\n\n",
            **{tuple(k.split("|")): v for k, v in more.items()}}


def test_a_refused_password_read_from_the_journal() -> None:
    state = read({**wifi_card(), JOURNAL: WRONG_PASSWORD_JOURNAL}, up=40.0)
    assert (state.kind, state.wifi_name, state.device) == ("wifi_wrong_password", "Hall B",
                                                           "wlan0")
    assert state.words() == "Wi-Fi 'Hall B': the password was refused"
    assert "wifi_password" in state.fix() and "DIPCLOCK drive" in state.fix()
    assert "hub" not in state.fix()


def test_a_refused_password_without_the_journal_is_the_network_in_range_left_alone() -> None:
    # journalctl as the kiosk's user: no entries it may read
    outputs = {**wifi_card(), JOURNAL: "-- No entries --\n"}
    assert read(outputs, up=600.0).kind == "wifi_wrong_password"
    assert read(outputs, up=20.0).kind == "connecting"  # just booted: still trying


def test_asking_for_the_password_again_is_a_refused_password() -> None:
    devices = WIFI_DOWN.replace("wlan0:wifi:disconnected:",
                                "wlan0:wifi:connecting (need authentication):dipclock-wifi")
    assert read({**wifi_card(), DEVICES: devices}, up=10.0).kind == "wifi_wrong_password"


def test_the_reason_while_it_fails_is_read_from_the_device() -> None:
    failed = ("GENERAL.STATE:120 (connection failed)\n"
              "GENERAL.REASON:7 (Secrets were required, but not provided)\n")
    devices = WIFI_DOWN.replace("wlan0:wifi:disconnected:", "wlan0:wifi:connection failed:")
    state = read({**wifi_card(), DEVICES: devices, SHOW_WLAN0: failed}, up=10.0)
    assert state.kind == "wifi_wrong_password"
    assert network.parse_reason("GENERAL.STATE:30 (disconnected)\n"
                                "GENERAL.REASON:53 (The Wi-Fi network could not be found)\n"
                                ) == "ssid-not-found"


def test_a_network_not_in_range() -> None:
    state = read({**wifi_card(), SCAN: "BT-Hub-7X2\nEduroam\n"}, up=600.0)
    assert state.kind == "wifi_not_found"
    assert state.words() == "Wi-Fi 'Hall B': not found (not in range, or not that name)"
    assert "wifi_name" in state.fix() and "DIPCLOCK drive" in state.fix()
    journal = ("<info>  [1764312101.5] device (wlan0): state change: config -> failed "
               "(reason 'ssid-not-found', managed-type: 'full')\n")
    assert read({**wifi_card(), JOURNAL: journal}, up=5.0).kind == "wifi_not_found"


def test_a_pi_without_wifi_and_no_cable() -> None:
    devices = "end0:ethernet:unavailable:\nlo:loopback:connected (externally):lo\n"
    state = read({ADDR: LO_ONLY, DEVICES: devices})
    assert state.kind == "no_device"
    assert state.words() == "No network: no cable, and no Wi-Fi on this Pi"
    assert state.fix().startswith("This Pi has no Wi-Fi chip") and "cable" in state.fix()


def test_no_cable_and_no_wifi_in_dipclock_txt() -> None:
    state = read({ADDR: LO_ONLY, DEVICES: WIFI_DOWN, PROFILES: "lo:loopback\n"})
    assert (state.kind, state.wifi_name) == ("no_wifi_settings", None)
    assert state.words() == "No network: no cable and no Wi-Fi set in dipclock.txt"
    assert "wifi_name" in state.fix() and "cable" in state.fix()


def test_no_address_from_the_router() -> None:
    cable = ("end0:ethernet:disconnected:\nwlan0:wifi:unavailable:\n"
             "lo:loopback:connected (externally):lo\n")
    state = read({ADDR: LO_ONLY, DEVICES: cable, PROFILES: "lo:loopback\n"}, up=600.0)
    assert (state.kind, state.device) == ("no_address", "end0")
    assert state.words() == "Network cable in, but the router gave no address"
    assert "DHCP" in state.fix()
    dhcp = ("<info>  [1764312201.2] device (wlan0): state change: ip-config -> failed "
            "(reason 'ip-config-unavailable', managed-type: 'full')\n")
    state = read({**wifi_card(), JOURNAL: dhcp}, up=100.0)
    assert state.kind == "no_address"
    assert state.words() == "Wi-Fi 'Hall B': joined, but the router gave no address"
    # joined, and only the address a machine gives itself when no DHCP answered
    link_local = ON_WLAN0.replace("10.0.0.23", "169.254.77.12")
    devices = WIFI_DOWN.replace("wlan0:wifi:disconnected:", "wlan0:wifi:connected:dipclock-wifi")
    state = read({ADDR: link_local, DEVICES: devices})
    assert (state.kind, state.device, state.addresses) == ("no_address", "wlan0", ())


def test_asking_for_an_address_is_connecting() -> None:
    devices = ("end0:ethernet:connecting (getting IP configuration):Wired connection 1\n"
               "wlan0:wifi:unavailable:\n")
    state = read({ADDR: LO_ONLY, DEVICES: devices, PROFILES: ""}, up=30.0)
    assert (state.kind, state.device) == ("connecting", "end0")
    check = check_network(state)
    assert check.verdict == "warn" and check.fix


def test_connected_says_the_address_and_name() -> None:
    devices = WIFI_DOWN.replace("wlan0:wifi:disconnected:", "wlan0:wifi:connected:dipclock-wifi")
    state = read({ADDR: ON_WLAN0, DEVICES: devices})
    assert (state.kind, state.addresses, state.device) == ("connected", ("10.0.0.23",), "wlan0")
    assert state.words() == "Network: 10.0.0.23, dipclock-table-7"
    assert state.fix() == ""
    check = check_network(state)
    assert (check.name, check.verdict) == ("network", "ok")
    assert "10.0.0.23" in check.detail and "dipclock-table-7" in check.detail


@pytest.mark.parametrize("kind", [k for k in network.KINDS if k not in ("connected",
                                                                         "connecting")])
def test_every_fault_fails_the_doctors_check_with_its_words_and_fix(kind: str) -> None:
    state = NetworkState(kind, (), "dipclock-table-7", "Hall B", "wlan0")
    check = check_network(state)
    assert (check.verdict, check.detail, check.fix) == ("fail", state.words(), state.fix())
    assert state.fix() and "set hub" not in state.fix()


def test_a_colon_in_a_name_is_escaped_in_terse_mode() -> None:
    assert network.terse_fields(r"wlan0:wifi:connected:Hall\:B") == [
        "wlan0", "wifi", "connected", "Hall:B"]
    state = read({**wifi_card(), SSID: "Hall\\:B\n", SCAN: "Hall\\:B\n",
                  JOURNAL: WRONG_PASSWORD_JOURNAL})
    assert state.wifi_name == "Hall:B"


def test_joined_again_after_a_failure_forgets_it() -> None:
    journal = WRONG_PASSWORD_JOURNAL + (
        "<info>  [1764312301.0] device (wlan0): state change: secondaries -> activated "
        "(reason 'none', managed-type: 'full')\n")
    assert network.last_failure(journal, "wlan0") is None
    assert network.last_failure(WRONG_PASSWORD_JOURNAL, "end0") is None
    assert network.last_failure(WRONG_PASSWORD_JOURNAL, "wlan0") == "no-secrets"


# --- no NetworkManager: the kernel ----------------------------------------------------------

def fake_net(tmp_path: Path, **links: dict[str, str]) -> Path:
    net = tmp_path / "class" / "net"
    for name, files in links.items():
        (net / name).mkdir(parents=True)
        for file, text in files.items():
            path = net / name / file
            if text == "<dir>":
                path.mkdir()
            else:
                path.write_text(text + "\n")
    return net


def test_without_networkmanager_the_kernel_tells_a_cable_from_no_device(tmp_path: Path) -> None:
    net = fake_net(tmp_path, eth0={"device": "<dir>", "carrier": "1", "operstate": "up"},
                   wlan0={"device": "<dir>", "wireless": "<dir>", "operstate": "down"})
    interfaces = [(1, "lo"), (2, "eth0"), (3, "wlan0")]
    state = read({ADDR: LO_ONLY}, up=600.0, net=net, interfaces=lambda: interfaces)
    assert (state.kind, state.device) == ("no_address", "eth0")
    only_wifi = [(1, "lo"), (3, "wlan0")]
    assert read({ADDR: LO_ONLY}, net=net, interfaces=lambda: only_wifi).kind == \
        "no_wifi_settings"
    assert read({ADDR: LO_ONLY}, net=net, interfaces=lambda: [(1, "lo")]).kind == "no_device"
    state = read({ADDR: ON_WLAN0}, net=net, interfaces=lambda: only_wifi)
    assert (state.kind, state.addresses) == ("connected", ("10.0.0.23",))


def test_a_command_that_hangs_is_cut_short() -> None:
    assert network.run_command(["sleep", "5"], timeout=0.2) is None
    assert network.run_command(["no-such-command-here"]) is None


def test_the_watch_keeps_the_last_reading_when_one_breaks() -> None:
    readings: list[object] = [NetworkState("connecting"), RuntimeError("nmcli crashed")]

    def reader() -> NetworkState:
        item = readings.pop(0)
        if isinstance(item, Exception):
            raise item
        assert isinstance(item, NetworkState)
        return item

    watch = NetworkWatch(reader)
    assert watch.state() is None
    assert watch.poll() == NetworkState("connecting")
    assert watch.poll() == NetworkState("connecting")
    assert watch.state() == NetworkState("connecting")
