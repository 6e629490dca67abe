"""``dipclock doctor``: checks the machine a kiosk runs on, one line per check with the fix.

    dipclock doctor                      # as the kiosk would start: /etc/dipclock/kiosk.toml
    dipclock doctor --config FILE --json # for the dashboard
    dipclock doctor --buttons 30         # and press each button within 30 s

A table that stays black tells a TD nothing; this says what is wrong and what to type. It
reads the kiosk's settings exactly as the kiosk does (a settings error is a failed check),
then the display, the network (its address and name, or what is wrong with it and the
fix), the buttons, the box (and ModemManager, which would probe it), the hub, the clock, the
data folder and the power.
Exit status 0 only when no check fails (warnings pass); 2 for a mistake in its own options.
It is also what a systemd unit writes on the Pi's console when the kiosk gives up, so the
text fits an 80-column console. Stop the kiosk first: the buttons and the box are opened
here too.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import ssl
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from dipclock import __version__
from dipclock.arguments import Parser, UsageError
from dipclock.powers import POWERS
from hardware import boxfinder
from hardware.gpio import load_pin_factory
from kiosk import hubcheck as hub
from kiosk.config import Settings, default_outbox
from machine import box, buttons, display, modem, network, power, sdl, storage, system, timesync
from machine.check import Check, fail, ok
from machine.devices import Opener, user_name

MAX_BUTTON_SECONDS = 600.0
NAME_WIDTH = 17
HTTP_TIMEOUT = 5.0


def build_parser() -> Parser:
    p = Parser(prog="dipclock doctor",
                description="Check this machine for a table's kiosk: one line per check, "
                            "with the fix. Exit status 0 when nothing fails.")
    p.add_argument("--config", metavar="FILE",
                   help="the kiosk's settings file (default: as the kiosk does)")
    p.add_argument("--json", action="store_true", help="print JSON (for the dashboard)")
    p.add_argument("--buttons", type=float, metavar="SECONDS",
                   help="ask for each button to be pressed within SECONDS")
    return p


def _find_hub(hub_id: str | None, wait: float) -> str | None:
    """The hub on this network with the id this clock is paired with (any hub, for None),
    as the kiosk finds it."""
    from kiosk.discovery import find_hub

    return find_hub(hub_id, wait)


@dataclass
class Machine:
    """Where the doctor looks. The defaults are this machine; tests hand it a fake ``/dev``,
    ``/sys``, ``/proc`` and ``/etc`` under tmp_path, and the probes that are not files."""

    dev: Path = Path("/dev")
    sys: Path = Path("/sys")
    proc: Path = Path("/proc")
    etc: Path = Path("/etc")
    opener: Opener = os.open
    sdl_drivers: Callable[[], list[str]] = sdl.video_drivers
    synchronised: Callable[[], bool | None] = timesync.clock_synchronised
    free_bytes: Callable[[Path], int] = field(default=lambda p: shutil.disk_usage(p).free)
    load_factory: buttons.Loader = load_pin_factory
    probe_box: Callable[[str, float], bool] = boxfinder.probe
    find_box: Callable[[float], str | None] = boxfinder.find_box
    find_hub: Callable[[str | None, float], str | None] = _find_hub
    #: a client for the hub at a URL, verifying it with what ``kiosk.pairing.pinned`` gives
    http: Callable[[str, ssl.SSLContext | bool], httpx.Client] = field(
        default=lambda url, verify: httpx.Client(base_url=url, timeout=HTTP_TIMEOUT,
                                                 verify=verify))
    wall: Callable[[], float] = hub.wall_seconds
    box_wait: float = box.WAIT
    discovery_wait: float = 5.0  # seconds of mDNS browsing
    vcgencmd: str | None = power.VCGENCMD  # the firmware's own tool (None: not asked)
    #: the network's state, read from NetworkManager, else from the kernel under ``sys``
    read_network: Callable[[Path], network.NetworkState] = field(
        default=lambda net: network.read_state(net=net))

    def throttling(self) -> power.Throttling | None:
        return power.throttling(self.sys, self.vcgencmd)


def read_settings(config: str | None) -> tuple[Settings | None, Check]:
    """The kiosk's settings, read by the kiosk's own code; (None, failed check) if they
    cannot be read."""
    from kiosk.options import build_parser as kiosk_parser
    from kiosk.options import settings_from

    name = "kiosk settings"
    try:
        settings = settings_from(kiosk_parser().parse_args(
            ["--config", config] if config else []))
    except Exception as exc:  # ConfigError, UsageError, the boot file's: each is one line
        return None, fail(name, str(exc), "correct the file named above, then run the "
                                          "doctor again")
    said = [f"table {settings.table}" if settings.table else "no table number",
            "hub found on the network (auto)" if settings.finds_hub else
            f"hub {settings.hub}" if settings.hub else "standalone (no hub)"]
    inputs = [f"{len(settings.buttons.gpio)} GPIO buttons" if settings.buttons.gpio else "",
              f"box {settings.buttons.serial}" if settings.buttons.serial else "",
              "keyboard" if settings.buttons.keyboard else ""]
    said.append(", ".join(i for i in inputs if i) or "no buttons")
    if settings.language:  # the screens' before the hub says the event's (kiosk.config.spoken)
        said.append(f"screens in {settings.language} until the hub says the event's language")
    return settings, ok(name, "; ".join(said))


def _guarded(name: str, run: Callable[[], list[Check]]) -> list[Check]:
    """A probe that breaks in a way nobody foresaw is a failed check, never a traceback."""
    try:
        return run()
    except Exception as exc:
        return [fail(name, f"the check itself failed: {type(exc).__name__}: {exc}",
                     "send this output to whoever looks after the kiosks")]


def _gpio(settings: Settings, m: Machine, seconds: float | None,
          say: Callable[[str], None]) -> list[Check]:
    pins = dict(settings.buttons.gpio)
    setting = settings.buttons.pin_factory
    if not pins and not setting:
        return [ok("gpio buttons", "none configured (buttons.gpio)")]
    verdict, factory = buttons.check_pin_factory(setting, m.load_factory)
    found = [verdict]
    if setting != "mock":
        found.append(buttons.check_gpiochips(m.dev, m.opener))
    if factory is None or not pins:
        return found
    test = buttons.ButtonTest(pins, factory)
    try:
        if seconds is None:
            return found + test.at_rest()
        watch = test.watch(seconds, lambda p: say(f"  pressed: {POWERS.get(p, p)}"))
        say(f"Press each button now, within {seconds:g} s: "
            f"{', '.join(POWERS.get(p, p) for p in test.pins)}")
        return found + watch.wait()
    finally:
        test.close()
        factory.close()


def _box(settings: Settings, m: Machine, seconds: float | None,
         say: Callable[[str], None]) -> list[Check]:
    verdict, url = box.check_box(settings.buttons.serial, m.box_wait, m.probe_box, m.find_box)
    if url is None or seconds is None:
        return [verdict]
    return [verdict, box.watch_presses(
        url, seconds, lambda p: say(f"  pressed: {POWERS.get(p, p)}"),
        ready=lambda: say(f"Press each button on the box now, within {seconds:g} s"))]


def _hub(settings: Settings, m: Machine) -> list[Check]:
    from kiosk.pairing import pinned

    url, found_by = settings.hub, ""
    if not settings.finds_hub and not url:
        return [ok("hub", "none: a standalone kiosk")]
    paired = hub.stored_credential(_outbox(settings), settings.table)
    if settings.finds_hub:
        wanted = paired.hub if paired is not None else None
        url, found_by = m.find_hub(wanted, m.discovery_wait), " (found on the network)"
        if url is None:
            which = ("the hub this clock is paired with does not announce" if wanted
                     else "no hub announces")
            return [fail("hub", f"{which} itself on the network (mDNS, {m.discovery_wait:g} s)",
                         "start the hub on the same network, or set hub = "
                         "https://ADDRESS:8000 in dipclock.txt on the boot partition")]
    assert url is not None
    # not paired yet: whether the hub answers, before the clock trusts its certificate
    verify = pinned(paired.certificate) if paired is not None else False
    with m.http(url, verify) as client:
        return hub.check_hub(client, paired, m.wall, found_by)


def time_source(settings: Settings | None) -> str | None:
    """Whose time the kiosk counts by, said for the time sync check: the hub it finds on the
    network (the one it is paired with, once paired), the hub at its typed address, or None:
    standalone (or settings unread), the system clock's."""
    if settings is None:
        return None
    if settings.finds_hub:
        if hub.stored_credential(_outbox(settings), settings.table) is not None:
            return "the hub it is paired with (found on the network)"
        return "the hub it finds on the network (mDNS), once paired"
    return f"the hub at {settings.hub} (typed address)" if settings.hub else None


def _outbox(settings: Settings | None) -> Path:
    return Path(settings.outbox) if settings is not None and settings.outbox \
        else default_outbox()


def _data_folder(settings: Settings | None) -> Path:
    return _outbox(settings).parent


def run(config: str | None = None, machine: Machine | None = None,
        button_seconds: float | None = None,
        say: Callable[[str], None] = lambda line: None) -> list[Check]:
    """Every check, in the order a TD would fix them. ``say`` shows prompts (``--buttons``)."""
    m = machine or Machine()
    settings, read = read_settings(config)
    found = [read]
    found += _guarded("display driver", lambda: [display.check_driver(m.sdl_drivers)])
    found += _guarded("display device", lambda: [display.check_device(m.dev / "dri", m.opener)])
    found += _guarded("screen", lambda: [display.check_connector(m.sys / "class" / "drm")])
    found += _guarded("desktop session", lambda: [display.check_desktop(
        m.proc, m.etc / "systemd" / "system")])
    found += _guarded(network.NETWORK_CHECK, lambda: [network.check_network(
        m.read_network(m.sys / "class" / "net"))])
    if settings is not None:
        found += _guarded("gpio buttons", lambda: _gpio(settings, m, button_seconds, say))
        found += _guarded("button box", lambda: _box(settings, m, button_seconds, say))
        found += _guarded("modem manager", lambda: [modem.check_modem_manager(
            settings.buttons.serial, m.proc, m.etc)])
        found += _guarded("hub", lambda: _hub(settings, m))
    found += _guarded("time sync", lambda: [system.check_time_sync(
        time_source(settings), m.synchronised)])
    folder = _data_folder(settings)
    found += _guarded("data filesystem", lambda: [storage.check_filesystem(
        folder, m.proc / "self" / "mountinfo")])
    found += _guarded("data folder", lambda: [storage.check_writable(folder)])
    found += _guarded("free space", lambda: [storage.check_free(folder, m.free_bytes)])
    found += _guarded("power", lambda: [system.check_power(m.throttling)])
    return found


def render(checks: Sequence[Check], width: int = 80) -> str:
    """One line per check (``verdict name detail``), the fix below it; long text wraps with
    an indent, so every line that starts at the margin starts with a verdict."""
    indent = " " * (5 + NAME_WIDTH)
    lines = [f"dipclock doctor {__version__} on {socket.gethostname()}, as {user_name()}"]

    def fill(text: str, first: str = "") -> str:
        return textwrap.fill(text, width=width, initial_indent=first, subsequent_indent=indent,
                             break_long_words=True, break_on_hyphens=False)

    for c in checks:
        lines.append(fill(f"{c.verdict:<5}{c.name:<{NAME_WIDTH}}{c.detail}"))
        if c.fix:
            lines.append(fill(f"fix: {c.fix}", indent))
    counts = {v: sum(c.verdict == v for c in checks) for v in ("fail", "warn", "ok")}
    summary = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    if counts["fail"]:
        lines.append(f"{summary}: fix the failures above, then run dipclock doctor again")
    else:
        lines.append(f"{summary}: nothing fails")
    return "\n".join(lines)


def as_json(checks: Sequence[Check]) -> dict[str, Any]:
    return {"checks": [c.as_json() for c in checks],
            "ok": not any(c.verdict == "fail" for c in checks)}


def main(argv: Sequence[str] | None = None, machine: Machine | None = None) -> int:
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        if args.buttons is not None and not 0 < args.buttons <= MAX_BUTTON_SECONDS:
            raise UsageError(f"--buttons: give the seconds to wait, more than 0 and at most "
                             f"{MAX_BUTTON_SECONDS:g}")
    except UsageError as exc:
        print(f"dipclock doctor: error: {exc}", file=sys.stderr)
        return 2
    prompts = sys.stderr if args.json else sys.stdout
    try:
        checks = run(args.config, machine, args.buttons,
                     say=lambda line: print(line, file=prompts, flush=True))
    except KeyboardInterrupt:  # Ctrl-C while it waits for the buttons
        print("dipclock doctor: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(as_json(checks), indent=2))
    else:
        print(render(checks, min(shutil.get_terminal_size((80, 24)).columns, 100)))
    return 0 if as_json(checks)["ok"] else 1
