"""GPIO: the pin factory, the chips, each button at rest and pressed (gpiozero's MockFactory)."""

from __future__ import annotations

import grp
import os
import threading

from gpiozero.pins.mock import MockFactory

from machine import buttons
from tests.machine.conftest import PINS, FakePi, refuse


def test_each_button_released_at_rest_passes(factory):
    test = buttons.ButtonTest(PINS, factory)
    try:
        checks = test.at_rest()
    finally:
        test.close()
    assert [c.name for c in checks] == [f"button {p}" for p in PINS]
    assert {c.verdict for c in checks} == {"ok"}
    assert checks[0].detail == "Austria (GPIO5) released at rest"


def test_a_button_shorted_to_ground_reads_pressed_at_rest_and_fails(factory):
    test = buttons.ButtonTest(PINS, factory)
    try:
        factory.pin(26).drive_low()  # Italy's wire touches ground
        checks = {c.name: c for c in test.at_rest()}
    finally:
        test.close()
    assert checks["button I"].verdict == "fail"
    assert "Italy (GPIO26) reads pressed at rest" == checks["button I"].detail
    assert [n for n, c in checks.items() if c.verdict == "fail"] == ["button I"]


def test_a_pin_that_does_not_exist_is_one_failed_button_not_a_crash(factory):
    test = buttons.ButtonTest({"A": 5, "E": "GPIO99"}, factory)
    try:
        checks = test.at_rest()
    finally:
        test.close()
    assert [c.verdict for c in checks] == ["ok", "fail"]
    assert "GPIO99" in checks[1].detail and "buttons.gpio" in checks[1].fix


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_pressing_each_button_is_seen_and_a_missing_one_is_named(factory):
    test = buttons.ButtonTest(PINS, factory)
    said: list[str] = []
    try:
        press(factory, 20)  # Turkey's press before the doctor asks does not count
        watch = test.watch(30, said.append)
        for pin in (5, 6, 13, 19, 26, 16):  # everyone but Turkey presses
            press(factory, pin)
        press(factory, 5)  # a second press of Austria changes nothing
        checks = watch.wait(timeout=0)  # the 30 s are up
    finally:
        test.close()
    assert {c.name: c.verdict for c in checks} == {
        **{f"button {p}": "ok" for p in "AEFGIR"}, "button T": "fail"}
    assert said == list("AEFGIR")
    assert checks[-1].detail == "Turkey (GPIO20): no press seen in 30 s"
    assert "GPIO20" in checks[-1].fix
    assert checks[0].detail == "Austria (GPIO5) released at rest, press seen"


def test_the_wait_ends_with_the_last_press_not_at_the_time_limit(factory):
    test = buttons.ButtonTest({"A": 5, "T": 20}, factory)
    result: list = []
    try:
        watch = test.watch(600, lambda power: None)
        waiter = threading.Thread(target=lambda: result.append(watch.wait()))
        waiter.start()
        press(factory, 5)
        press(factory, 20)
        waiter.join(60)  # a bound for a broken build, far below the 600 s asked for
        assert not waiter.is_alive()
    finally:
        test.close()
    assert [c.verdict for c in result[0]] == ["ok", "ok"]


def test_a_stuck_button_is_not_waited_for(factory):
    test = buttons.ButtonTest({"A": 5, "E": 6}, factory)
    try:
        factory.pin(6).drive_low()
        watch = test.watch(600)
        press(factory, 5)
        checks = watch.wait()  # returns at once: England cannot be pressed, Austria was
    finally:
        test.close()
    assert [(c.verdict, c.detail) for c in checks] == [
        ("ok", "Austria (GPIO5) released at rest, press seen"),
        ("fail", "England (GPIO6) reads pressed at rest")]


def test_the_mock_factory_named_in_the_settings_loads_and_warns():
    check, factory = buttons.check_pin_factory("mock")
    try:
        assert check.verdict == "warn" and check.detail.startswith("mock")
        assert isinstance(factory, MockFactory)
    finally:
        factory.close()


def test_on_this_machine_no_real_factory_loads_and_the_fix_is_lgpio():
    # No GPIO here and no lgpio installed: gpiozero's default order gives up, and the
    # reasons it passed each factory over reach the TD.
    check, factory = buttons.check_pin_factory(None)
    assert factory is None
    assert check.verdict == "fail"
    assert "lgpio" in check.detail and "python3-lgpio" in check.fix


def test_a_factory_name_that_does_not_exist_fails():
    check, factory = buttons.check_pin_factory("gpiod-not-a-factory")
    assert factory is None and check.verdict == "fail"
    assert "gpiod-not-a-factory" in check.detail


def test_gpio_chips_present_and_open(pi: FakePi):
    pi.gpiochip(0)
    pi.gpiochip(4)
    check = buttons.check_gpiochips(pi.dev)
    assert check.verdict == "ok" and check.detail == "gpiochip0, gpiochip4 open read-write"


def test_no_gpio_chips_fails(pi: FakePi):
    check = buttons.check_gpiochips(pi.dev)
    assert check.verdict == "fail" and "buttons.serial" in check.fix


def test_a_gpio_chip_this_user_may_not_open_names_the_group(pi: FakePi):
    chip = pi.gpiochip(0)
    os.chown(chip, 0, grp.getgrnam("dialout").gr_gid)  # a Pi's is "gpio"; this machine has none
    check = buttons.check_gpiochips(pi.dev, opener=refuse(chip))
    assert check.verdict == "fail" and "gpiochip0: Permission denied" in check.detail
    assert "sudo usermod -aG dialout " in check.fix
