"""Verdicts on the system clock's sync and the Pi's power word (read from a fake /sys)."""

from __future__ import annotations

import pytest

from machine import power, system
from tests.machine.conftest import FakePi, write


def read_power(pi: FakePi):
    return lambda: power.throttling(pi.sys / "devices/platform/soc/soc:firmware/get_throttled",
                                    pi.sys / "class" / "hwmon")


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
