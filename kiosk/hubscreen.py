"""``python -m kiosk.hubscreen``: the hub card's own screen, telling the TD how to reach it.

A hub card has no keyboard and the TD's phone does not know where the dashboard is: the
hall's router may give the card any address and may have no DNS for it. So the card's
HDMI screen shows, large enough to read from two metres: the dashboard's link by address
(``https://10.0.0.5:8000/``, which every phone opens) with its QR code, the link by name
(``https://dipclock-hub.local:8000/``, answered by the hub's own mDNS: server/mdns.py), the
hub's certificate fingerprint (the tables show the same once paired), whether the hub
answers, the network's state with its fix (machine/network.py) and any line of
dipclock.txt the card refused (machine.identity.card_notes). It looks again every few
seconds: the address changes when the Wi-Fi joins.

Run by ``dipclock-hubscreen.service`` on a card whose dipclock.txt says ``role = hub``,
fullscreen on the console like the table's clock (kiosk.display). It only reads: the hub
runs in its own unit and serves whether this screen works or not.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from kiosk.draw import (  # noqa: E402
    ALERT,
    DIM,
    FIX,
    LOOKS,
    RGB,
    TABLE_GOLD,
    WHITE,
    Drawn,
    Painter,
    _qr_code,
    portrait,
    turn,
    upright_size,
    wrap_lines,
)
from machine import fingerprint  # noqa: E402
from machine.identity import CARD_NOTES, card_notes  # noqa: E402
from machine.network import NetworkState, read_state  # noqa: E402

log = logging.getLogger("dipclock.hubscreen")

#: The hub unit's own (systemd/dipclock-hub.service): where it serves and keeps its data.
PORT = 8000
SCHEME = "https"
DATA = Path("/var/lib/dipclock/hub")
#: the hub's certificate in its data folder (server/certificate.py's CERTIFICATE)
CERTIFICATE = "hub-cert.pem"
#: seconds between two looks: an address that comes with the Wi-Fi shows within this
EVERY = 5.0
#: seconds the hub has to answer on loopback before the screen says it does not
ANSWER_WITHIN = 2.0

BACKGROUND = LOOKS["connecting"].background
GOOD = (120, 220, 140)
#: a DNS label (RFC 1123): only such a host name is answered as ``<name>.local``
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?", re.IGNORECASE)
#: the failures to read the network already logged
_said: set[str] = set()


@dataclass(frozen=True)
class HubView:
    """What the screen shows: read by ``look``, drawn by ``render``."""

    hostname: str
    addresses: tuple[str, ...] = ()
    scheme: str = SCHEME
    port: int = PORT
    fingerprint: str | None = None  # the whole one: the screen shows its first 8 pairs
    answering: bool | None = None  # None: not asked yet
    network: NetworkState | None = None  # None: this machine cannot tell
    #: the card's notes (machine/cardsetup.py): each refused dipclock.txt line and its fix,
    #: Imager's settings ignored
    notes: tuple[str, ...] = field(default=())

    def link(self) -> str | None:
        """The dashboard's link by the first address (the one every phone opens)."""
        return link(self.scheme, self.addresses[0], self.port) if self.addresses else None

    def name_link(self) -> str | None:
        """The link by ``<hostname>.local``, when the host name is one a phone can ask for."""
        if not _LABEL.fullmatch(self.hostname) or self.hostname.lower() == "localhost":
            return None
        return link(self.scheme, f"{self.hostname.lower()}.local", self.port)


def link(scheme: str, host: str, port: int) -> str:
    """``/`` takes the TD to the dashboard (server/routers/pages.py): the shortest link, the
    smallest QR code."""
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}/"


# --- reading the machine ---------------------------------------------------------------------


def read_fingerprint(data: Path = DATA) -> str | None:
    """The hub certificate's fingerprint; None before the hub's first start made it."""
    try:
        return fingerprint.of_pem((data / CERTIFICATE).read_text())
    except (OSError, ValueError):
        return None


def hub_answers(scheme: str = SCHEME, port: int = PORT, within: float = ANSWER_WITHIN) -> bool:
    """Whether the hub answers a public endpoint on loopback within ``within`` seconds. Its
    certificate is not checked: on 127.0.0.1 nobody can stand between, and the fingerprint
    shown is read from the hub's own file."""
    import httpx

    try:
        answer = httpx.get(f"{scheme}://127.0.0.1:{port}/api/time", verify=False,
                           timeout=within)
    except httpx.HTTPError:
        return False
    return answer.status_code == 200


def own_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses but loopback: where the network's state is unknown."""
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.") and ip.ip not in found:
                found.append(ip.ip)
    return tuple(found)


@dataclass(frozen=True)
class Options:
    scheme: str = SCHEME
    port: int = PORT
    data: Path = DATA
    notes: Path = CARD_NOTES


def look(options: Options, network: Callable[[], NetworkState] = read_state,
         answers: Callable[[str, int], bool] = hub_answers,
         hostname: Callable[[], str] = socket.gethostname) -> HubView:
    """The view now. A reading of the network that breaks (``read_state`` should not)
    leaves the addresses to the kernel's list and the network line blank: the screen keeps
    drawing whatever one reading does."""
    try:
        state: NetworkState | None = network()
    except Exception as exc:  # noqa: BLE001  (another part's reader: the screen goes on)
        if str(exc) not in _said:  # once, not every few seconds
            _said.add(str(exc))
            log.warning("cannot read the network's state: %s", exc)
        state = None
    addresses = own_addresses() if state is None else state.addresses
    name = state.hostname if state is not None and state.hostname else hostname()
    return HubView(hostname=name, addresses=addresses, scheme=options.scheme,
                   port=options.port, fingerprint=read_fingerprint(options.data),
                   answering=answers(options.scheme, options.port), network=state,
                   notes=card_notes(options.notes))


# --- drawing ----------------------------------------------------------------------------------


def _rows(box: pygame.Rect, shares: Sequence[tuple[str, float]], gap: int
          ) -> dict[str, pygame.Rect]:
    """``box`` cut top to bottom into rows of the given shares of its height."""
    usable = box.h - gap * (len(shares) - 1)
    rows, y = {}, box.top
    for name, share in shares:
        h = int(usable * share)
        rows[name] = pygame.Rect(box.left, y, box.w, h)
        y += h + gap
    return rows


def _network_lines(view: HubView) -> tuple[str, str, RGB]:
    """The network's words, its fix, and their colour."""
    state = view.network
    if state is None:
        return "Network: this machine does not say", "", DIM
    return state.words(), state.fix(), GOOD if state.kind == "connected" else ALERT


def _hub_line(view: HubView) -> tuple[str, RGB]:
    if view.answering is None:
        return "Hub: checking...", DIM
    if view.answering:
        return "Hub: running, answering", GOOD
    return ("Hub: not answering. It starts within a minute; if this stays, switch the card "
            "off and on"), ALERT


def render(surface: pygame.Surface, view: HubView, painter: Painter) -> list[Drawn]:
    """Draw ``view`` filling ``surface``; returns what was drawn and where (the QR code as
    role ``qr`` with the link as its text)."""
    drawn: list[Drawn] = []
    w, h = surface.get_size()
    surface.fill(BACKGROUND)
    m = max(6, round(min(w, h) * 0.03))
    gap = max(2, m // 3)
    target = view.link()
    code_area: pygame.Rect | None = None  # no address, no code: the words take its room
    text = pygame.Rect(m, m, w - 2 * m, h - 2 * m)
    if target is not None and portrait((w, h)):
        side = min(w - 2 * m, int(h * 0.36))
        text = pygame.Rect(m, m, w - 2 * m, h - 3 * m - side - side // 9)
        code_area = pygame.Rect((w - side) // 2, text.bottom + m, side, h - text.bottom - 2 * m)
    elif target is not None:
        side = min(int(h * 0.6), int(w * 0.4))
        code_area = pygame.Rect(w - m - side, m, side, h - 2 * m)
        text = pygame.Rect(m, m, code_area.left - 2 * m, h - 2 * m)
    also = view.addresses[1:]
    shares = [("title", 0.13), ("label", 0.06), ("address", 0.13), ("name", 0.10),
              ("also", 0.05 if also else 0.0), ("space", 0.02), ("status", 0.0)]
    rows = _rows(text, shares, gap)
    painter.text(surface, drawn, "title", "dipclock hub", rows["title"], WHITE, "left")
    painter.text(surface, drawn, "label", "The TD's dashboard: open on your phone",
                 rows["label"], DIM, "left")
    if target is not None:
        painter.text(surface, drawn, "link", target, rows["address"], TABLE_GOLD, "left",
                     whole=True)
    else:
        painter.text(surface, drawn, "link", "No address yet: see the network line",
                     rows["address"], ALERT, "left")
    name = view.name_link()
    if name is not None and target is not None:  # never larger than the link by address
        most = painter.whole_size(target, rows["address"].w, rows["address"].h)
        painter.text(surface, drawn, "name", f"or {name}", rows["name"], TABLE_GOLD, "left",
                     max_size=most, whole=True)
    if also:
        painter.text(surface, drawn, "also",
                     "also " + ", ".join(link(view.scheme, a, view.port) for a in also),
                     rows["also"], DIM, "left")
    wide = None  # below the code the lines take the whole width
    if target is not None and code_area is not None:
        code = _qr_code(surface, drawn, code_area, target, painter, side,
                        "Scan: the dashboard")
        wide = None if portrait((w, h)) else (code.bottom + m, w - 2 * m)
    status = pygame.Rect(text.left, rows["status"].top, text.w, text.bottom - rows["status"].top)
    _status(surface, drawn, painter, view, status, wide,
            max(painter.MIN_SIZE, painter.fit_size("Ag", 10 ** 6, text.h * 6 // 100)))
    return drawn


def _status(surface: pygame.Surface, drawn: list[Drawn], painter: Painter, view: HubView,
            box: pygame.Rect, wide: tuple[int, int] | None, size: int) -> None:
    """The certificate, the hub, the network and its fix, the card's notes: one size, each
    wrapped onto the lines it needs, one under the other; from ``wide``'s height down (below
    the QR code) as wide as its width."""
    words, fix, network_colour = _network_lines(view)
    said, hub_colour = _hub_line(view)
    if view.fingerprint:
        certificate = (f"Certificate {fingerprint.short(view.fingerprint)}: each table shows "
                       "the same", WHITE)
    else:
        certificate = ("Certificate: not made yet (the hub makes it at its first start)", DIM)
    items: list[tuple[str, str, RGB]] = [
        ("certificate", *certificate), ("hub", said, hub_colour),
        ("network", words, network_colour)]
    if fix:
        items.append(("fix", fix, FIX))
    items += [("note", line, FIX if line.startswith("Fix:") else ALERT) for line in view.notes]
    for fits in range(size, painter.MIN_SIZE - 1, -max(1, size // 20)):
        lines = _flow(painter, items, box, wide, fits)
        if lines is not None:
            break
    else:  # not even the smallest size fits: the lines that do
        lines = _flow(painter, items, box, wide, painter.MIN_SIZE, cut=True) or []
        fits = painter.MIN_SIZE
    for role, line, colour, row in lines:
        painter.text(surface, drawn, role, line, row, colour, "left", max_size=fits)


def _flow(painter: Painter, items: Sequence[tuple[str, str, RGB]], box: pygame.Rect,
          wide: tuple[int, int] | None, size: int, cut: bool = False
          ) -> list[tuple[str, str, RGB, pygame.Rect]] | None:
    """Each item's lines at ``size``, one under the other, and where; None when they do not
    all fit ``box`` (``cut``: the lines that do)."""
    font = painter.font(size)
    line_h = font.get_linesize()
    out: list[tuple[str, str, RGB, pygame.Rect]] = []
    top = box.top
    for role, text, colour in items:
        width = wide[1] if wide is not None and top >= wide[0] else box.w
        for line in wrap_lines(font, text, width, breaking=True) or []:
            if top + line_h > box.bottom:
                return out if cut else None
            out.append((role, line, colour, pygame.Rect(box.left, top, width, line_h)))
            top += line_h
    return out


# --- running ----------------------------------------------------------------------------------

#: what the docs' screenshot shows: a hub card on a hall's Wi-Fi, one line of its
#: dipclock.txt refused (as machine.identity.refusal_notes words it)
EXAMPLE = HubView(
    hostname="dipclock-hub", addresses=("10.0.0.5",),
    fingerprint=":".join(f"{b:02X}" for b in bytes.fromhex("3f2a9c110b7d3e55") * 4),
    answering=True,
    network=NetworkState("connected", ("10.0.0.5",), "dipclock-hub", "Hall B", "wlan0"),
    notes=("dipclock.txt line 6 not used: unknown key 'wifi_pasword' (did you mean "
           "wifi_password?)", "Fix: correct line 6 of dipclock.txt on a laptop (the DIPCLOCK "
           "drive)"),
)


def screenshot(path: Path, size: tuple[int, int], view: HubView, rotate: int = 0) -> None:
    """One frame to a PNG, drawn by the live screen's code."""
    pygame.font.init()
    canvas = pygame.Surface(upright_size(size, rotate))
    render(canvas, view, Painter())
    pygame.image.save(turn(canvas, rotate) if rotate else canvas, str(path))


def run(options: Options, every: float = EVERY, size: tuple[int, int] | None = None,
        headless: bool = False, turns: int | None = None,
        see: Callable[[Options], HubView] = look,
        sleep: Callable[[float], None] = time.sleep) -> int:
    """Draw the view every ``every`` seconds until stopped (``turns``: that many, for a
    test); 78 when no display opens, as the table's clock (kiosk.startup)."""
    from kiosk.display import Display, console_screens
    from kiosk.problems import DisplayUnavailable

    try:
        display = Display(headless, None if headless else console_screens())
        display.use(size, fullscreen=size is None)
    except DisplayUnavailable as exc:
        print(f"dipclock hubscreen: {exc}", file=sys.stderr)
        return 78
    painter = Painter()
    done = 0
    try:
        while turns is None or done < turns:
            view = see(options)
            try:
                display.look()  # a screen connected since: open it
            except DisplayUnavailable as exc:
                print(f"dipclock hubscreen: {exc}", file=sys.stderr)
                return 78
            if display.waiting is None and display.canvas is not None:
                render(display.canvas, view, painter)
                if display.rotate:
                    turn(display.canvas, display.rotate, onto=display.surface)
                pygame.display.flip()
                display.drawn += 1
            done += 1
            if display.quit_asked():
                return 0
            if turns is None or done < turns:
                sleep(every)
    finally:
        display.close()
    return 0


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give WIDTHxHEIGHT, as 1920x1080") from None
    if not (100 <= w <= 10000 and 100 <= h <= 10000):
        raise argparse.ArgumentTypeError(f"{text}: each side 100 to 10000 pixels")
    return w, h


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds, as 5") from None
    if not 0.5 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text}: give 0.5 to 3600 seconds")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kiosk.hubscreen",
        description="The hub card's screen: the dashboard's link, its QR code, the hub's "
                    "certificate and the network's state.")
    p.add_argument("--port", type=int, default=PORT, help="the hub's port (default 8000)")
    p.add_argument("--scheme", choices=("https", "http"), default=SCHEME,
                   help="https (default) or http for a hub serving plain HTTP")
    p.add_argument("--data", type=Path, default=DATA,
                   help="the hub's data folder, for its certificate (default %(default)s)")
    p.add_argument("--notes", type=Path, default=CARD_NOTES,
                   help="the card's notes: refused dipclock.txt lines (default %(default)s)")
    p.add_argument("--every", type=_seconds, default=EVERY,
                   help="seconds between two looks (default 5)")
    p.add_argument("--size", type=_size, help="a window of WIDTHxHEIGHT, not fullscreen")
    p.add_argument("--headless", action="store_true", help="draw nowhere (SDL's dummy)")
    p.add_argument("--screenshot", type=Path, metavar="PNG",
                   help="draw one frame of this machine's state to PNG and stop")
    p.add_argument("--example", action="store_true",
                   help="with --screenshot: the docs' example hub, not this machine")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if not 0 < args.port <= 65535:
        print(f"dipclock hubscreen: error: --port {args.port}: give 1 to 65535",
              file=sys.stderr)
        return 2
    options = Options(args.scheme, args.port, args.data, args.notes)
    if args.screenshot is not None:
        view = EXAMPLE if args.example else look(options)
        try:
            screenshot(args.screenshot, args.size or (1920, 1080), view)
        except (OSError, pygame.error) as exc:
            print(f"dipclock hubscreen: error: cannot write {args.screenshot}: {exc}",
                  file=sys.stderr)
            return 1
        return 0
    if args.example:
        print("dipclock hubscreen: error: --example goes with --screenshot", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        return run(options, args.every, args.size, args.headless)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
