"""``dipclock doctor`` as a whole, in process: a healthy fake Pi with a real hub, a real pty box
and gpiozero's MockFactory buttons; a broken settings file; a probe that breaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from kiosk import doctor
from kiosk.pairing import Credential
from machine.check import Check
from machine.network import NetworkState
from tests.machine.conftest import PINS, FakePi, keep
from tests.machine.test_box import PtyBox
from tests.server.live import ROOT

#: The fake Pi's network: on the hall's Wi-Fi with an address.
UP = NetworkState("connected", ("10.0.0.23",), "dipclock-table-3", "Hall B", "wlan0")


@pytest.fixture
def box():
    b = PtyBox(b"K\n")
    yield b
    b.close()


def healthy(pi: FakePi, factory: MockFactory) -> doctor.Machine:
    """A Pi 5 on Bookworm Lite: screen on HDMI-A-1, no desktop, GPIO chips, good power."""
    pi.card(0)
    pi.card(1, ("HDMI-A-1", "connected"), ("HDMI-A-2", "disconnected"))
    pi.gpiochip(0)
    pi.gpiochip(4)
    pi.throttled(0)
    return doctor.Machine(dev=pi.dev, sys=pi.sys, proc=pi.proc, etc=pi.etc,
                          synchronised=lambda: True, load_factory=lambda name: factory,
                          read_network=lambda net: UP)


def config(tmp_path: Path, text: str) -> str:
    path = tmp_path / "kiosk.toml"
    path.write_text(text)
    return str(path)


def hall_config(tmp_path: Path, url: str, paired: Credential, box: PtyBox) -> str:
    """A table's settings, and its outbox holding the clock's pairing with the hub."""
    pins = "\n".join(f"{p} = {n}" for p, n in PINS.items())
    keep(tmp_path / "data" / "outbox.sqlite", paired)
    return config(tmp_path, f'table = 3\nhub = "{url}"\n'
                            f'outbox = "{tmp_path}/data/outbox.sqlite"\n'
                            f'[buttons]\nserial = "{box.path}"\n[buttons.gpio]\n{pins}\n')


NAMES = ["kiosk settings", "display driver", "display device", "screen", "desktop session",
         "network", "pin factory", "gpio chips", *(f"button {p}" for p in PINS), "button box",
         "modem manager", "hub",
         "pairing", "hub clock", "time sync", "data filesystem", "data folder", "free space",
         "power"]


def test_a_healthy_table_passes_every_check_and_exits_0(pi, factory, box, live, tmp_path,
                                                        capsys):
    hub, paired = live
    path = hall_config(tmp_path, hub.url, paired, box)
    status = doctor.main(["--config", path, "--json"], healthy(pi, factory))
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and report["ok"] is True
    assert [c["name"] for c in report["checks"]] == NAMES
    verdicts = {c["name"]: c["verdict"] for c in report["checks"]}
    # The one warning: the pin factory handed to this doctor is gpiozero's mock.
    assert [n for n, v in verdicts.items() if v != "ok"] == ["pin factory"]
    assert all(set(c) == {"name", "verdict", "detail", "fix"} for c in report["checks"])
    assert report["checks"][0]["detail"] == (
        f"table 3; hub {hub.url}; 7 GPIO buttons, box {box.path}, keyboard")


def test_pressing_every_button_when_asked_is_reported_per_button(pi, factory, tmp_path):
    path = config(tmp_path, "[buttons.gpio]\n" + "\n".join(f"{p} = {n}" for p, n in PINS.items()))
    said: list[str] = []

    def person(line: str) -> None:
        """Reads the prompt and presses every button but Russia's (pin 16)."""
        said.append(line)
        if line.startswith("Press each button now"):
            for pin in (5, 6, 13, 19, 26, 20):
                factory.pin(pin).drive_low()
                factory.pin(pin).drive_high()

    checks = doctor.run(path, healthy(pi, factory), button_seconds=0.2, say=person)
    buttons = {c.name: c for c in checks if c.name.startswith("button ") and c.name[-1] in PINS}
    assert [n for n, c in buttons.items() if c.verdict == "fail"] == ["button R"]
    assert buttons["button R"].detail == "Russia (GPIO16): no press seen in 0.2 s"
    assert said[0] == ("Press each button now, within 0.2 s: Austria, England, France, "
                       "Germany, Italy, Russia, Turkey")
    assert said[1:] == [f"  pressed: {n}" for n in
                        ("Austria", "England", "France", "Germany", "Italy", "Turkey")]


def test_a_broken_settings_file_is_a_failed_check_and_the_rest_still_runs(pi, factory,
                                                                          tmp_path, capsys):
    path = config(tmp_path, 'table = 3\nhubb = "http://10.0.0.1:8000"\n')
    status = doctor.main(["--config", path], healthy(pi, factory))
    out, err = capsys.readouterr()
    assert status == 1 and err == ""
    first = out.splitlines()[1]
    assert first.startswith("fail kiosk settings") and "hubb" in out
    assert "ok   display device" in out and "ok   power" in out


def test_a_probe_that_breaks_is_a_failed_line_not_a_traceback(pi, factory, tmp_path, capsys):
    def broken() -> list[str]:
        raise RuntimeError("libSDL2 went away")

    machine = healthy(pi, factory)
    machine.sdl_drivers = broken
    status = doctor.main(["--config", config(tmp_path, "")], machine)
    out = capsys.readouterr().out
    assert status == 1
    assert ("fail display driver the check itself failed: RuntimeError: libSDL2 went away"
            in " ".join(out.split()))


def test_warnings_alone_exit_0_and_one_failure_exits_1(pi, factory, tmp_path, capsys):
    path = config(tmp_path, f'event = "wdc2006"\noutbox = "{tmp_path}/o.sqlite"\n')  # one board
    machine = healthy(pi, factory)
    machine.synchronised = lambda: False  # a warning only
    assert doctor.main(["--config", path], machine) == 0
    pi.throttled(0x50005)  # under-voltage now
    assert doctor.main(["--config", path], machine) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("1 fail, 1 warn, ")


@pytest.mark.parametrize("argv", [["--buttons", "0"], ["--buttons", "ten"], ["--buttons", "700"],
                                  ["--bogus"]])
def test_a_mistake_in_the_doctors_own_options_is_one_line_and_status_2(argv, capsys):
    assert doctor.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("dipclock doctor: error: ") and err.count("\n") == 1


def test_the_text_fits_80_columns_and_each_check_starts_one_line():
    checks = [Check("display device", "fail", "root cannot open /dev/dri/card1: Permission "
                    "denied; /dev/dri/card0: Permission denied",
                    "add the user to the video group: sudo usermod -aG video dipclock"),
              Check("power", "ok", "no under-voltage or throttling since boot")]
    text = doctor.render(checks, width=80)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    starts = [line.split()[0] for line in lines[1:-1] if not line.startswith(" ")]
    assert starts == ["fail", "ok"]
    assert lines[-1] == "1 fail, 1 ok: fix the failures above, then run dipclock doctor again"
    assert "fix: add the user to the video group" in text


def test_the_pin_factory_named_in_the_settings_is_the_one_loaded_and_reported(pi, tmp_path):
    path = config(tmp_path,
                  '[buttons]\npin_factory = "mock"\n[buttons.gpio]\nA = 5\nT = "GPIO20"\n')
    machine = doctor.Machine(dev=pi.dev, sys=pi.sys, proc=pi.proc, etc=pi.etc)  # the real loader
    checks = {c.name: c for c in doctor.run(path, machine)}
    assert checks["pin factory"].verdict == "warn"
    assert checks["pin factory"].detail.startswith("mock")
    assert "gpio chips" not in checks  # a mock factory reads no chip
    assert checks["button A"].detail == "Austria (GPIO5) released at rest"
    assert checks["button T"].detail == "Turkey (GPIO20) released at rest"


def test_gpio_buttons_with_no_pin_factory_on_this_machine_fail_with_lgpio_as_fix(pi, tmp_path):
    path = config(tmp_path, "[buttons.gpio]\nA = 5\n")
    machine = doctor.Machine(dev=pi.dev, sys=pi.sys, proc=pi.proc, etc=pi.etc)
    checks = {c.name: c for c in doctor.run(path, machine)}
    assert checks["pin factory"].verdict == "fail" and "python3-lgpio" in checks["pin factory"].fix
    assert checks["gpio chips"].verdict == "fail"  # this machine's fake /dev has none
    assert "button A" not in checks  # nothing to read the button with


def test_buttons_on_the_box_are_asked_for_too(pi, factory, box, tmp_path):
    path = config(tmp_path, f'[buttons]\nserial = "{box.path}"\n')
    said: list[str] = []

    def person(line: str) -> None:
        said.append(line)
        if line.startswith("Press each button on the box now"):
            box.send(b"P A 120\nP E 120\nP F 120\nP G 120\nP I 120\nP R 120\nP T 120\n")

    checks = {c.name: c for c in doctor.run(path, healthy(pi, factory), 30, say=person)}
    assert checks["button box"].verdict == "ok"
    assert checks["box buttons"].verdict == "ok"
    assert said[0] == "Press each button on the box now, within 30 s"
    assert said[1:] == [f"  pressed: {n}" for n in
                        ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")]


@pytest.mark.parametrize(("settings", "paired", "verdict", "source"), [
    ("", False, "ok", "the hub it finds on the network (mDNS), once paired"),
    ('hub = "auto"\n', True, "ok", "the hub it is paired with (found on the network)"),
    ("", True, "ok", "the hub it is paired with (found on the network)"),
    ('hub = "https://{hub}"\n', False, "ok", "the hub at https://{hub} (typed address)"),
    ('event = "wdc2006"\n', False, "warn", None),
], ids=["found, not paired", "auto, paired", "found, paired", "typed", "standalone"])
def test_time_sync_warns_only_a_kiosk_that_counts_by_its_own_clock(
        pi, factory, tmp_path, settings, paired, verdict, source):
    """The system clock not synchronised: a kiosk with a hub (found on the network, paired
    or not, or typed) counts by the hub's time, so only a standalone one is warned."""
    from tests.server.live import hub_socket

    with hub_socket() as nobody:  # bound, never listening: the typed hub refuses at once
        at = f"127.0.0.1:{nobody.getsockname()[1]}"
        outbox = tmp_path / "data" / "outbox.sqlite"
        if paired:
            keep(outbox, Credential("hub-id", 3, "token", 3, None))
        path = config(tmp_path, "table = 3\n" + settings.format(hub=at)
                      + f'outbox = "{outbox}"\n')
        machine = healthy(pi, factory)
        machine.synchronised = lambda: False
        machine.find_hub = lambda hub_id, wait: None  # nobody announces here
        check = {c.name: c for c in doctor.run(path, machine)}["time sync"]
    assert check.verdict == verdict
    if source is None:
        assert "a standalone kiosk may be hours off" in check.detail and "NTP" in check.fix
    else:
        assert check.detail == ("system clock not synchronised, which is fine: the kiosk counts "
                                f"by the time of {source.format(hub=at)}")
        assert check.fix == ""


def test_modem_manager_beside_the_box_is_warned_until_the_installers_rule_is_there(
        pi, factory, box, tmp_path):
    path = config(tmp_path, f'[buttons]\nserial = "{box.path}"\n')
    machine = healthy(pi, factory)
    pi.process(712, "ModemManager")
    checks = {c.name: c for c in doctor.run(path, machine)}
    assert checks["button box"].verdict == "ok"
    assert checks["modem manager"].verdict == "warn"
    (pi.etc / "udev/rules.d").mkdir(parents=True)
    (pi.etc / "udev/rules.d/75-dipclock-button-box.rules").write_text(
        (ROOT / "systemd/75-dipclock-button-box.rules").read_text())
    assert {c.name: c for c in doctor.run(path, machine)}["modem manager"].verdict == "ok"


def test_the_network_check_says_the_address_and_name_or_what_is_wrong_and_the_fix(
        pi, factory, tmp_path, capsys):
    """Issue 35: a wrong Wi-Fi password fails the doctor with the words and the fix that
    work on a card (dipclock.txt from a laptop), where it passed with the address."""
    path = config(tmp_path, f'event = "wdc2006"\noutbox = "{tmp_path}/o.sqlite"\n')
    machine = healthy(pi, factory)
    checks = {c.name: c for c in doctor.run(path, machine)}
    assert checks["network"].verdict == "ok"
    assert checks["network"].detail == ("10.0.0.23 on wlan0; this machine is "
                                        "dipclock-table-3 on the network")
    wrong = NetworkState("wifi_wrong_password", (), "dipclock-table-3", "Hall B", "wlan0")
    machine.read_network = lambda net: wrong
    assert doctor.main(["--config", path], machine) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "fail network Wi-Fi 'Hall B': the password was refused" in out
    assert f"fix: {wrong.fix()}" in out
