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
It speaks the command line's language (``--lang``, else ``LANG``'s): its own lines, and each
check's detail and fix where the probe gave them as sentences; ``--json`` stays English (the
dashboard reads it). It is also what a systemd unit writes on the Pi's console when the
kiosk gives up, so the text fits an 80-column console. Stop the kiosk first: the buttons and
the box are opened here too.
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
from functools import reduce
from pathlib import Path
from typing import Any

import httpx

from dipclock import __version__
from dipclock.arguments import Parser, UsageError, add_lang, words_in
from dipclock.i18n import ENGLISH, LanguageError, Said, Words, language, said
from dipclock.powers import POWERS
from dipclock.sentences import clauses, plural
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
    add_lang(p)
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
        return None, fail(name, said("{error}", error=exc),  # an error said as raised
                          said("correct the file named above, then run the doctor again"))
    parts = [said("table {table}", table=settings.table) if settings.table
             else said("no table number"),
             said("hub found on the network (auto)") if settings.finds_hub else
             said("hub {url}", url=settings.hub) if settings.hub
             else said("standalone (no hub)")]
    gpio = len(settings.buttons.gpio)
    inputs = [plural("{n} GPIO button", "{n} GPIO buttons", gpio) if gpio else None,
              said("box {port}", port=settings.buttons.serial) if settings.buttons.serial
              else None,
              said("keyboard") if settings.buttons.keyboard else None]
    given = [i for i in inputs if i is not None]
    parts.append(reduce(lambda a, b: said("{first}, {second}", first=a, second=b), given)
                 if given else said("no buttons"))
    if settings.language:  # the screens' before the hub says the event's (kiosk.config.spoken)
        parts.append(said("screens in {language} until the hub says the event's language",
                          language=settings.language))
    return settings, ok(name, clauses(*parts))


def _guarded(name: str, run: Callable[[], list[Check]]) -> list[Check]:
    """A probe that breaks in a way nobody foresaw is a failed check, never a traceback."""
    try:
        return run()
    except Exception as exc:
        return [fail(name, said("the check itself failed: {kind}: {error}",
                                kind=type(exc).__name__, error=str(exc)),
                     said("send this output to whoever looks after the kiosks"))]


def _gpio(settings: Settings, m: Machine, seconds: float | None,
          say: Callable[[str], None], words: Words = ENGLISH) -> list[Check]:
    pins = dict(settings.buttons.gpio)
    setting = settings.buttons.pin_factory
    if not pins and not setting:
        return [ok("gpio buttons", said("none configured (buttons.gpio)"))]
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
        watch = test.watch(seconds, lambda p: say(_pressed(p, words)))
        say(words("Press each button now, within {seconds} s: {powers}",
                  seconds=format(seconds, "g"),
                  powers=", ".join(_power(p, words) for p in test.pins)))
        return found + watch.wait()
    finally:
        test.close()
        factory.close()


def _power(letter: str, words: Words) -> str:
    return words.power(letter) if letter in POWERS else letter


def _pressed(letter: str, words: Words) -> str:
    """A prompt's line for a button pressed, indented under the prompt."""
    return "  " + words("pressed: {power}", power=_power(letter, words))


def _box(settings: Settings, m: Machine, seconds: float | None,
         say: Callable[[str], None], words: Words = ENGLISH) -> list[Check]:
    verdict, url = box.check_box(settings.buttons.serial, m.box_wait, m.probe_box, m.find_box)
    if url is None or seconds is None:
        return [verdict]
    return [verdict, box.watch_presses(
        url, seconds, lambda p: say(_pressed(p, words)),
        ready=lambda: say(words("Press each button on the box now, within {seconds} s",
                                seconds=format(seconds, "g"))))]


def _hub(settings: Settings, m: Machine) -> list[Check]:
    from kiosk.pairing import pinned

    url, found_by = settings.hub, ""
    if not settings.finds_hub and not url:
        return [ok("hub", said("none: a standalone kiosk"))]
    paired = hub.stored_credential(_outbox(settings), settings.table)
    if settings.finds_hub:
        wanted = paired.hub if paired is not None else None
        url, found_by = m.find_hub(wanted, m.discovery_wait), " (found on the network)"
        if url is None:
            wait = f"{m.discovery_wait:g}"
            silent = (said("the hub this clock is paired with does not announce itself on "
                           "the network (mDNS, {seconds} s)", seconds=wait) if wanted
                      else said("no hub announces itself on the network (mDNS, {seconds} s)",
                                seconds=wait))
            return [fail("hub", silent,
                         said("start the hub on the same network, or set hub = "
                              "https://ADDRESS:8000 in dipclock.txt on the boot partition"))]
    assert url is not None
    # not paired yet: whether the hub answers, before the clock trusts its certificate
    verify = pinned(paired.certificate) if paired is not None else False
    with m.http(url, verify) as client:
        return hub.check_hub(client, paired, m.wall, found_by)


def time_source(settings: Settings | None) -> Said | None:
    """Whose time the kiosk counts by, said for the time sync check: the hub it finds on the
    network (the one it is paired with, once paired), the hub at its typed address, or None:
    standalone (or settings unread), the system clock's."""
    if settings is None:
        return None
    if settings.finds_hub:
        if hub.stored_credential(_outbox(settings), settings.table) is not None:
            return said("the hub it is paired with (found on the network)")
        return said("the hub it finds on the network (mDNS), once paired")
    return said("the hub at {url} (typed address)", url=settings.hub) if settings.hub else None


def _outbox(settings: Settings | None) -> Path:
    return Path(settings.outbox) if settings is not None and settings.outbox \
        else default_outbox()


def _data_folder(settings: Settings | None) -> Path:
    return _outbox(settings).parent


def run(config: str | None = None, machine: Machine | None = None,
        button_seconds: float | None = None,
        say: Callable[[str], None] = lambda line: None, words: Words = ENGLISH) -> list[Check]:
    """Every check, in the order a TD would fix them. ``say`` shows prompts (``--buttons``),
    in ``words``' language."""
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
        found += _guarded("gpio buttons", lambda: _gpio(settings, m, button_seconds, say,
                                                        words))
        found += _guarded("button box", lambda: _box(settings, m, button_seconds, say, words))
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


def render(checks: Sequence[Check], width: int = 80, words: Words = ENGLISH) -> str:
    """One line per check (``verdict name detail``), the fix below it; long text wraps with
    an indent, so every line that starts at the margin starts with a verdict. In ``words``'
    language; the verdicts and the checks' names stay as ``--json`` gives them."""
    indent = " " * (5 + NAME_WIDTH)
    lines = [words("dipclock doctor {version} on {host}, as {user}", version=__version__,
                   host=socket.gethostname(), user=user_name())]

    def fill(text: str, first: str = "") -> str:
        return textwrap.fill(text, width=width, initial_indent=first, subsequent_indent=indent,
                             break_long_words=True, break_on_hyphens=False)

    for c in checks:
        detail, fix = c.said(words)
        lines.append(fill(f"{c.verdict:<5}{c.name:<{NAME_WIDTH}}{detail}"))
        if fix:
            lines.append(fill(words("fix: {fix}", fix=fix), indent))
    counts = {v: sum(c.verdict == v for c in checks) for v in ("fail", "warn", "ok")}
    summary = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    if counts["fail"]:
        lines.append(words("{summary}: fix the failures above, then run dipclock doctor "
                           "again", summary=summary))
    else:
        lines.append(words("{summary}: nothing fails", summary=summary))
    return "\n".join(lines)


def as_json(checks: Sequence[Check]) -> dict[str, Any]:
    return {"checks": [c.as_json() for c in checks],
            "ok": not any(c.verdict == "fail" for c in checks)}


def main(argv: Sequence[str] | None = None, machine: Machine | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    words = words_in(argv, os.environ)  # --lang as written, else LANG's, its refusal too
    try:
        args = build_parser().parse_args(argv)
        if args.buttons is not None and not 0 < args.buttons <= MAX_BUTTON_SECONDS:
            raise UsageError(said("--buttons: give the seconds to wait, more than 0 and at "
                                  "most {most}", most=format(MAX_BUTTON_SECONDS, "g")))
        if args.lang is not None:
            language(args.lang)  # a LanguageError names those there are
    except (UsageError, LanguageError) as exc:
        print(words("dipclock doctor: error: {message}", message=exc.in_(words)),
              file=sys.stderr)
        return 2
    prompts = sys.stderr if args.json else sys.stdout
    try:
        checks = run(args.config, machine, args.buttons,
                     say=lambda line: print(line, file=prompts, flush=True), words=words)
    except KeyboardInterrupt:  # Ctrl-C while it waits for the buttons
        print(words("dipclock doctor: interrupted"), file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(as_json(checks), indent=2))
    else:
        print(render(checks, min(shutil.get_terminal_size((80, 24)).columns, 100), words))
    return 0 if as_json(checks)["ok"] else 1
