"""Verdicts on the system clock's sync and the Pi's power word (read from a fake /sys)."""

from __future__ import annotations

from pathlib import Path

import pytest

from machine import power, system
from tests.machine.conftest import PI4_FIRMWARE, PI5_FIRMWARE, FakePi, write


def read_power(pi: FakePi, vcgencmd: str | None = None):
    return lambda: power.throttling(pi.sys, vcgencmd)


@pytest.mark.parametrize(("bits", "verdict", "words"), [
    (0x0, "ok", "no under-voltage"),
    (0x50005, "fail", "under-voltage now"),
    (0x50000, "warn", "under-voltage since boot"),
    (0x80008, "warn", "throttled now"),
    (0x40000, "warn", "throttled since boot"),
])
def test_the_firmwares_throttling_word_becomes_a_verdict(pi: FakePi, bits, verdict, words):
    pi.throttled(bits)
    check = system.check_power(read_power(pi))
    assert check.verdict == verdict
    assert words in check.detail
    assert ("power supply" in check.fix) == ("under-voltage" in words and verdict != "ok")


@pytest.mark.parametrize("firmware", [PI4_FIRMWARE, PI5_FIRMWARE, "axi/axi:firmware"],
                         ids=["Pi 4", "Pi 5", "another board"])
def test_the_word_is_read_where_this_boards_firmware_device_is(pi: FakePi, firmware: str):
    """Each board's kernel puts the firmware's device elsewhere: a Pi 4's, a Pi 5's, and
    any other found through the firmware driver's bound devices."""
    pi.throttled(0x50005, firmware)
    assert power.throttling(pi.sys, vcgencmd=None) == power.Throttling(0x50005)


def vcgencmd(tmp_path: Path, prints: str, status: int = 0) -> str:
    """A ``vcgencmd`` that answers ``get_throttled`` as the firmware's tool does."""
    tool = tmp_path / "bin" / "vcgencmd"
    tool.parent.mkdir(parents=True)
    tool.write_text(f'#!/bin/sh\n[ "$1" = get_throttled ] || exit 2\n'
                    f"echo '{prints}'\nexit {status}\n")
    tool.chmod(0o755)
    return str(tool)


def test_no_word_in_sysfs_asks_vcgencmd(pi: FakePi, tmp_path: Path):
    """A kernel without the sysfs file (a Pi 5 on some kernels): the firmware's own tool."""
    check = system.check_power(read_power(pi, vcgencmd(tmp_path, "throttled=0x50000")))
    assert check.verdict == "warn" and "under-voltage since boot (0x50000)" in check.detail


def test_a_vcgencmd_that_cannot_ask_the_firmware_is_no_reading(pi: FakePi, tmp_path: Path):
    """No /dev/vcio (not a Pi, or the user is not in the video group): vcgencmd fails, and
    the hwmon alarm (or nothing) is what is left."""
    tool = vcgencmd(tmp_path, "VCHI initialization failed", status=255)
    assert power.throttling(pi.sys, tool) is None
    assert power.throttling(pi.sys, str(tmp_path / "no-such-tool")) is None
    write(pi.sys / "class/hwmon/hwmon1/name", "rpi_volt\n")
    write(pi.sys / "class/hwmon/hwmon1/in0_lcrit_alarm", "0\n")
    assert power.throttling(pi.sys, tool) == power.Throttling(0)


def test_the_hwmon_low_voltage_alarm_alone_is_under_voltage_now(pi: FakePi):
    write(pi.sys / "class/hwmon/hwmon0/name", "cpu_thermal\n")
    write(pi.sys / "class/hwmon/hwmon1/name", "rpi_volt\n")
    write(pi.sys / "class/hwmon/hwmon1/in0_lcrit_alarm", "1\n")
    assert system.check_power(read_power(pi)).verdict == "fail"


def test_a_machine_that_reports_no_power_word_is_not_judged(pi: FakePi):
    check = system.check_power(read_power(pi))
    assert check.verdict == "ok" and "not reported" in check.detail


HUB = "the hub it finds on the network (mDNS), once paired"


@pytest.mark.parametrize(("state", "hub", "verdict", "words"), [
    (True, None, "ok", "synchronised (network time)"),
    (True, HUB, "ok", "synchronised (network time)"),
    (False, HUB, "ok", f"not synchronised, which is fine: the kiosk counts by the time of {HUB}"),
    (None, HUB, "ok", "cannot tell whether it is synchronised, which is fine"),
    (False, None, "warn", "hours off after a reboot"),
    (None, None, "warn", "cannot tell"),
])
def test_time_sync(state, hub, verdict, words):
    check = system.check_time_sync(hub, lambda: state)
    assert check.verdict == verdict and words in check.detail
    assert bool(check.fix) == (verdict == "warn")


def test_time_sync_on_this_machine_gives_a_verdict_from_the_kernel():
    check = system.check_time_sync(None)
    assert check.verdict in {"ok", "warn"}
    assert ("synchronised (network time)" in check.detail) == (check.verdict == "ok")
