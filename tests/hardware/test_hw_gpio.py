"""GPIO buttons through real gpiozero on its MockFactory pins."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import DEFAULT_PINS, POWERS, ButtonEvent, ButtonsClosed, GpioButtons


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def make(factory, events, clock) -> Iterator:
    made: list[GpioButtons] = []

    def build(pins=None, **kwargs) -> GpioButtons:
        kwargs.setdefault("clock", clock)
        buttons = GpioButtons(pins or DEFAULT_PINS, events, pin_factory=factory, **kwargs)
        made.append(buttons)
        return buttons

    yield build
    for buttons in made:
        buttons.close()


def push(factory: MockFactory, clock, pin: int, seconds: float = 0.2) -> float:
    """Press and release a pin; returns the (fake) time it went down."""
    down = clock()
    factory.pin(pin).drive_low()
    clock.advance(seconds)
    factory.pin(pin).drive_high()
    return down


def test_press_gives_one_press_stamped_at_down(make, factory, clock, events, take_all) -> None:
    make()
    down = push(factory, clock, DEFAULT_PINS["A"])
    assert take_all(events) == [ButtonEvent("A", "press", down, "gpio")]


def test_nothing_until_release(make, factory, clock, events) -> None:
    make()
    pin = factory.pin(DEFAULT_PINS["F"])
    pin.drive_low()
    clock.advance(1.0)
    assert events.empty()
    pin.drive_high()  # else closing waits out gpiozero's 3 s hold timer
    assert events.get_nowait().kind == "press"


def test_all_seven_pins_map_to_their_powers(make, factory, clock, events, take_all) -> None:
    make()
    for power in POWERS:
        push(factory, clock, DEFAULT_PINS[power])
    assert [e.power for e in take_all(events)] == list(POWERS)


def test_gpio_name_strings_work(make, factory, clock, events, take_all) -> None:
    make({p: f"GPIO{n}" for p, n in DEFAULT_PINS.items()})
    push(factory, clock, 20)
    push(factory, clock, 5)
    assert [e.power for e in take_all(events)] == ["T", "A"]


def test_pins_get_pull_up_bounce_and_hold_time(make, factory) -> None:
    buttons = make(bounce_seconds=0.03, hold_seconds=2.5)
    for pin in DEFAULT_PINS.values():
        assert factory.pin(pin).pull == "up"
        assert factory.pin(pin).bounce == pytest.approx(0.03)
    for button in buttons.buttons.values():  # gpiozero times the hold, once per push
        assert button.hold_time == pytest.approx(2.5)
        assert not button.hold_repeat


def test_bouncing_contacts_give_one_press_from_when_they_settled(
    make, factory, clock, events, take_all
) -> None:
    # MockFactory does not debounce (real backends do), so every edge reaches us: the
    # shortest-push guard must still turn a bouncing push into exactly one press.
    make()
    pin = factory.pin(DEFAULT_PINS["E"])
    for _ in range(4):  # contact chatter on the way down, 1 ms apart
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    settled = clock()
    pin.drive_low()
    clock.advance(0.3)
    for _ in range(3):  # and on the way up
        pin.drive_high()
        clock.advance(0.001)
        pin.drive_low()
        clock.advance(0.001)
    pin.drive_high()
    assert take_all(events) == [ButtonEvent("E", "press", settled, "gpio")]


def test_a_spike_is_not_a_press(make, factory, clock, events) -> None:
    make()
    push(factory, clock, DEFAULT_PINS["G"], seconds=0.01)
    assert events.empty()


def test_hold_fires_while_down_and_release_adds_no_press(make, factory, clock, events) -> None:
    # gpiozero's hold timer runs on real time: a short hold_seconds keeps the test quick;
    # the fake clock stays still so the stamp is exactly the recognition time.
    make(hold_seconds=0.05, bounce_seconds=0.01)
    pin = factory.pin(DEFAULT_PINS["I"])
    pin.drive_low()
    event = events.get(timeout=2)
    assert event == ButtonEvent("I", "hold", clock(), "gpio")
    pin.drive_high()
    assert events.empty()


def test_short_press_with_a_real_hold_timer_is_not_a_hold(make, factory, clock, events) -> None:
    make(hold_seconds=0.5, bounce_seconds=0.01)
    down = push(factory, clock, DEFAULT_PINS["R"], seconds=0.1)
    assert events.get(timeout=2) == ButtonEvent("R", "press", down, "gpio")
    assert events.empty()


def test_bad_pin_map_is_refused(make) -> None:
    with pytest.raises(ValueError, match="power letters"):
        make({"X": 5})
    with pytest.raises(ValueError, match="no GPIO pins"):
        GpioButtons({}, None)  # type: ignore[arg-type]


def test_failed_construction_releases_the_pins_it_took(make, factory, clock, events) -> None:
    with pytest.raises(Exception):  # noqa: B017 - gpiozero's pin-in-use error
        make({"A": 5, "E": 5})
    make({"A": 5})  # pin 5 was given back, so this works
    down = push(factory, clock, 5)
    assert events.get_nowait() == ButtonEvent("A", "press", down, "gpio")


def test_close_releases_the_pins_and_stops_events(make, factory, clock, events) -> None:
    buttons = make()
    buttons.close()
    buttons.close()  # idempotent
    make()  # the same pins can be claimed again
    push(factory, clock, DEFAULT_PINS["A"])
    assert events.get_nowait().power == "A"  # one event: the closed set is silent
    assert events.empty()


def test_a_with_block_gives_the_pins_back_and_a_closed_set_refuses_use(
        factory, clock, events) -> None:
    with GpioButtons(DEFAULT_PINS, events, pin_factory=factory, clock=clock) as buttons:
        assert not buttons.closed and set(buttons.buttons) == set(POWERS)
        down = push(factory, clock, DEFAULT_PINS["I"])
    assert buttons.closed
    with pytest.raises(ButtonsClosed, match="gpio buttons are closed"):
        buttons.buttons  # noqa: B018 - the use that must fail
    with pytest.raises(ButtonsClosed):
        buttons.__enter__()
    again = GpioButtons(DEFAULT_PINS, events, pin_factory=factory, clock=clock)  # pins free
    again.close()
    assert events.get_nowait() == ButtonEvent("I", "press", down, "gpio")
    assert events.empty()


def test_a_button_pressed_at_start_is_reported(factory, events, caplog) -> None:
    # A pin with a fixed external pull-down reads "pressed" for a pull-up button.
    caplog.set_level(logging.WARNING)
    from gpiozero.pins.mock import MockPin

    class StuckLow(MockPin):
        def _set_pull(self, value: str) -> None:
            self._pull = value
            self.drive_low()

    factory.pin(5, pin_class=StuckLow)
    buttons = GpioButtons({"A": 5}, events, pin_factory=factory)
    try:
        assert "stuck" in caplog.text
        factory.pin(5).drive_high()  # its release is not a press: its down time is unknown
        assert events.empty()
    finally:
        buttons.close()
