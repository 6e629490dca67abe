"""The seven GPIO buttons: the pin factory gpiozero will use, the GPIO chips, each button.

On Bookworm gpiozero needs lgpio (``python3-lgpio`` from apt, seen through a venv made with
``--system-site-packages``); without it gpiozero falls back to its sysfs "native" factory,
which fails on 6.6 kernels. So the doctor loads the factory the kiosk would, says which one
it got and why the others were passed over, then reads every configured button: released at
rest, and, when asked, pressed by a person within the time given.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path

from gpiozero import Button, Device
from gpiozero.pins import Factory

from dipclock.i18n import N_, Said, said
from dipclock.powers import POWERS
from dipclock.sentences import power as power_name
from hardware.gpio import factory_name, load_pin_factory
from machine.check import Check, fail, ok, warn
from machine.devices import Opener, access, nodes, user_name

DEV = Path("/dev")

LGPIO_FIX = N_("install lgpio: sudo apt install python3-lgpio, in a venv made with "
               "--system-site-packages (the installer does both)")

Loader = Callable[[str | None], Factory | None]


def _passed_over(caught: list[warnings.WarningMessage]) -> list[str]:
    """gpiozero's "Falling back from lgpio: No module named 'lgpio'" -> "lgpio: No module..."."""
    prefix = "Falling back from "
    return [str(w.message).removeprefix(prefix) for w in caught
            if str(w.message).startswith(prefix)]


def check_pin_factory(setting: str | None,
                      load: Loader = load_pin_factory) -> tuple[Check, Factory | None]:
    """The factory the kiosk would get, and a verdict on it. The caller closes the factory."""
    name = "pin factory"
    asked: Said | str = (f"buttons.pin_factory = {setting!r}" if setting
                         else said("gpiozero's default order"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            factory = load(setting)
            if factory is None:  # gpiozero's default order, as the kiosk's first button
                factory = Device._default_pin_factory()  # does; its warnings say why
        except Exception as exc:  # PinFactoryError, BadPinFactory, a driver's own: one line
            reasons = _passed_over(caught) or [str(exc)]
            fix = Said(LGPIO_FIX) if setting in (None, "lgpio") else \
                said("remove buttons.pin_factory (gpiozero then tries lgpio first)")
            return fail(name, said("{asked}: none loads ({reasons})", asked=asked,
                                   reasons="; ".join(reasons)), fix), None
    passed_over = _passed_over(caught)
    got = factory_name(factory)
    why = f" ({'; '.join(passed_over)})" if passed_over else ""  # gpiozero's words
    if got == "native":
        return warn(name, said("native (sysfs) from {asked}{why}: fails on 6.6 kernels",
                               asked=asked, why=why), Said(LGPIO_FIX)), factory
    if got == "mock":
        return warn(name, said("mock: the buttons are simulated, no pin is read"),
                    said("remove buttons.pin_factory (or set it to \"lgpio\") on a Pi")), factory
    return ok(name, said("{factory} from {asked}{why}", factory=got, asked=asked, why=why)), \
        factory


def check_gpiochips(dev: Path = DEV, opener: Opener = os.open) -> Check:
    name = "gpio chips"
    chips = nodes(dev, "gpiochip*")
    if not chips:
        return fail(name, said("no GPIO chip in {path} (not a Raspberry Pi?)", path=str(dev)),
                    said("run the kiosk on a Pi, or use the button box (buttons.serial)"))
    results = [access(c, opener) for c in chips]
    refused = [a for a in results if a.error is not None]
    if not refused:
        return ok(name, said("{devices} open read-write",
                             devices=", ".join(c.name for c in chips)))
    group = next((a.group for a in refused if a.group), "gpio")
    what = "; ".join(f"{a.path.name}: {a.error}" for a in refused)
    return fail(name, said("{user} cannot open {what}", user=user_name(), what=what),
                said("add the user to the {group} group: sudo usermod -aG {group} {user}",
                     group=group, user=user_name()))


def _where(pin: int | str) -> str:
    return f"GPIO{pin}" if isinstance(pin, int) else str(pin)


def _label(power: str, pin: int | str) -> Said:
    """"Austria (GPIO5)": a button, its power said in the reader's language."""
    name: Said | str = power_name(power) if power in POWERS else power
    return said("{power} ({pin})", power=name, pin=_where(pin))


class ButtonTest:
    """Opens each configured button (pull-up, button to ground, as the kiosk wires them).

    ``at_rest`` reads them untouched; ``watch`` waits for a person to press each one. Close
    it: gpiozero keeps the pins reserved until then.
    """

    def __init__(self, pins: Mapping[str, int | str], factory: Factory) -> None:
        self.pins = dict(pins)
        self.buttons: dict[str, Button] = {}
        self.failed: dict[str, Check] = {}
        for power, pin in self.pins.items():
            try:
                # a short hold time: closing a pressed button waits for gpiozero's hold timer
                self.buttons[power] = Button(pin, pull_up=True, hold_time=0.05,
                                             pin_factory=factory)
            except Exception as exc:  # a bad pin name, a pin in use: one line for this button
                busy = "busy" in str(exc).lower() or "in use" in str(exc).lower()
                fix = (said("stop the kiosk first: sudo systemctl stop dipclock-kiosk") if busy
                       else said("check buttons.gpio: a BCM number like 5, or GPIO5 or "
                                 "BOARD29"))
                self.failed[power] = fail(f"button {power}",
                                          said("{button} cannot be opened: {error}",
                                               button=_label(power, pin), error=str(exc)), fix)

    def at_rest(self) -> list[Check]:
        """Released at rest, or pressed: stuck, or its wire shorted to ground."""
        found = []
        for power in self.pins:
            if power in self.failed:
                found.append(self.failed[power])
            elif self.buttons[power].is_pressed:
                found.append(fail(f"button {power}",
                                  said("{button} reads pressed at rest",
                                       button=_label(power, self.pins[power])),
                                  said("free the stuck button or mend the wire touching "
                                       "ground")))
            else:
                found.append(ok(f"button {power}",
                                said("{button} released at rest",
                                     button=_label(power, self.pins[power]))))
        return found

    def watch(self, seconds: float,
              on_press: Callable[[str], None] = lambda power: None) -> PressWatch:
        """Start listening for a press of each button that reads released at rest; the
        returned watch's ``wait`` gives each button's verdict."""
        return PressWatch(self, seconds, on_press)

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()


class PressWatch:
    """A person pressing each button in turn, within ``seconds``: a press counts from the
    moment the watch starts (gpiozero calls back from its edge thread)."""

    def __init__(self, test: ButtonTest, seconds: float,
                 on_press: Callable[[str], None]) -> None:
        self.test, self.seconds, self._on_press = test, seconds, on_press
        self.rest = {c.name: c for c in test.at_rest()}
        self.waiting = {p for p in test.buttons if self.rest[f"button {p}"].verdict == "ok"}
        self.seen: set[str] = set()
        self._lock = threading.Lock()
        self._done = threading.Event()
        if not self.waiting:
            self._done.set()
        for power in self.waiting:
            test.buttons[power].when_pressed = lambda power=power: self._pressed(power)

    def _pressed(self, power: str) -> None:
        with self._lock:
            if power in self.seen:
                return
            self.seen.add(power)
            if self.seen >= self.waiting:
                self._done.set()
        self._on_press(power)

    def wait(self, timeout: float | None = None) -> list[Check]:
        """Until every button is seen or ``timeout`` (default: the seconds given) is up."""
        self._done.wait(self.seconds if timeout is None else timeout)
        for power in self.waiting:
            self.test.buttons[power].when_pressed = None
        found = []
        with self._lock:
            seen = set(self.seen)
        for power, pin in self.test.pins.items():
            if power not in self.waiting:
                found.append(self.rest[f"button {power}"])
            elif power in seen:
                found.append(ok(f"button {power}",
                                said("{button} released at rest, press seen",
                                     button=_label(power, pin))))
            else:
                found.append(fail(f"button {power}",
                                  said("{button}: no press seen in {seconds} s",
                                       button=_label(power, pin),
                                       seconds=format(self.seconds, "g")),
                                  said("check the wiring: {pin} through the button to a "
                                       "ground pin", pin=_where(pin))))
        return found
