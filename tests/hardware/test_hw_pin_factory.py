"""``buttons.pin_factory``: gpiozero's factories by name, one clear line when it cannot be had."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import (
    GpioButtons,
    PinFactoryError,
    factory_name,
    load_pin_factory,
    pin_factory_names,
)


def test_the_names_are_gpiozeros_own() -> None:
    # what gpiozero registers as entry points, so lgpio (Bookworm, Pi 4 and Pi 5) is there
    assert {"lgpio", "rpigpio", "pigpio", "native", "mock"} <= set(pin_factory_names())


def test_none_leaves_the_choice_to_gpiozero() -> None:
    assert load_pin_factory(None) is None


def test_mock_by_name_drives_real_buttons() -> None:
    factory = load_pin_factory("mock")
    assert isinstance(factory, MockFactory) and factory_name(factory) == "mock"
    events: queue.Queue = queue.Queue()
    buttons = GpioButtons({"A": 5}, events, pin_factory=factory)
    try:
        assert buttons.buttons["A"].pin_factory is factory
    finally:
        buttons.close()
        factory.close()


def test_a_wrong_name_lists_the_choices() -> None:
    with pytest.raises(PinFactoryError) as caught:
        load_pin_factory("lgpoi")
    assert str(caught.value) == ("no GPIO pin factory 'lgpoi'; choose one of "
                                 + ", ".join(sorted(pin_factory_names())))


def test_a_factory_whose_library_is_missing_says_which() -> None:
    # this machine has no lgpio module (a venv without the system's python3-lgpio)
    try:
        import lgpio  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("lgpio is installed here")
    with pytest.raises(PinFactoryError, match=r"pin factory 'lgpio' cannot load its library: "
                                              r"No module named 'lgpio'"):
        load_pin_factory("lgpio")


@pytest.mark.skipif(Path("/proc/device-tree/model").exists(), reason="this is a Pi")
def test_a_factory_that_cannot_open_the_gpio_says_why() -> None:
    # the native factory loads anywhere but needs a Pi's /proc/device-tree
    with pytest.raises(PinFactoryError, match=r"pin factory 'native' cannot open the GPIO: "):
        load_pin_factory("native")
