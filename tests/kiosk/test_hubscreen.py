"""The hub card's own screen (kiosk/hubscreen.py): the TD, phone in hand, reads the dashboard's
link by address and by ``.local`` name and scans its QR code, drawn with SDL's dummy driver at
the smallest and a large screen; the code is read back with zbar as a phone's camera would.
Its unit runs it fullscreen on the hub card only."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
from itertools import combinations
from pathlib import Path

import pygame
import pytest

from kiosk.draw import Painter
from kiosk.hubscreen import (
    HubView,
    Options,
    build_parser,
    hub_answers,
    look,
    main,
    render,
    run,
)
from machine.network import NetworkState
from tests.kiosk.qrread import zbar

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(800, 480), (1920, 1080)]
FINGERPRINT = ":".join(["3F", "2A", "9C", "11", "0B", "7D", "3E", "55"] * 4)
ON_WIFI = NetworkState("connected", ("10.0.0.5",), "dipclock-hub", "Hall B", "wlan0")
WRONG_PASSWORD = NetworkState("wifi_wrong_password", (), "dipclock-hub", "Hall B", "wlan0")
REFUSED = "dipclock.txt line 4 not used: unknown key 'wifi_pasword'"
HUB_CARD = HubView(hostname="dipclock-hub", addresses=("10.0.0.5",), fingerprint=FINGERPRINT,
                   answering=True, network=ON_WIFI)
painter = Painter()


@pytest.fixture(autouse=True)
def fonts() -> None:
    """A kiosk run by an earlier test closes its display, and pygame's fonts with it."""
    if not pygame.font.get_init():
        pygame.font.init()


def ink_height(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """Rows of ``rect`` holding any pixel not the background's: how tall the text is drawn."""
    background = surface.get_at((0, 0))
    rows = [y for y in range(rect.top, rect.bottom)
            if any(surface.get_at((x, y)) != background for x in range(rect.left, rect.right))]
    return len(rows)


def texts(drawn, role: str) -> list[str]:
    return [d.text for d in drawn if d.role == role]


def said(drawn, role: str) -> str:
    """A text wrapped onto lines, whole again."""
    return " ".join(texts(drawn, role))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hub_card_shows_its_link_its_name_and_a_code_a_phone_reads(
        size: tuple[int, int], tmp_path: Path) -> None:
    surface = pygame.Surface(size)
    drawn = render(surface, HUB_CARD, painter)
    assert texts(drawn, "title") == ["dipclock hub"]
    assert texts(drawn, "link") == ["https://10.0.0.5:8000/"]
    assert texts(drawn, "name") == ["or https://dipclock-hub.local:8000/"]
    assert said(drawn, "certificate") == (
        "Certificate 3F:2A:9C:11:0B:7D:3E:55: each table shows the same")
    assert said(drawn, "hub") == "Hub: running, answering"
    assert said(drawn, "network") == ON_WIFI.words()
    [code] = [d for d in drawn if d.role == "qr"]
    assert code.text == "https://10.0.0.5:8000/"
    assert zbar(surface, tmp_path / "hub.png") == "https://10.0.0.5:8000/"
    # read from two metres: the link's capitals a twentieth of the screen, the code half
    [link] = [d for d in drawn if d.role == "link"]
    assert ink_height(surface, link.rect) >= size[1] // 20, link
    assert code.rect.h >= size[1] // 2
    screen = surface.get_rect()
    for d in drawn:
        assert screen.contains(d.rect), d
    for a, b in combinations(drawn, 2):
        assert not a.rect.colliderect(b.rect), (a, b)


def test_a_wrong_wifi_password_is_told_with_its_fix_and_no_code_to_scan(tmp_path: Path) -> None:
    view = HubView(hostname="dipclock-hub", network=WRONG_PASSWORD, answering=True,
                   notes=(REFUSED, "Fix: correct line 4 of dipclock.txt on a laptop"))
    surface = pygame.Surface((800, 480))
    drawn = render(surface, view, painter)
    assert not [d for d in drawn if d.role == "qr"]
    assert texts(drawn, "link") == ["No address yet: see the network line"]
    assert said(drawn, "network") == WRONG_PASSWORD.words()
    assert said(drawn, "fix") == WRONG_PASSWORD.fix()
    assert texts(drawn, "note") == [REFUSED, "Fix: correct line 4 of dipclock.txt on a laptop"]
    assert not texts(drawn, "name")  # no address: no name reaches it either
    assert zbar(surface, tmp_path / "no-address.png") == ""


def test_every_note_of_the_card_is_shown_whole_however_many() -> None:
    """Five refused lines, their fix and Imager's three notes (machine.identity.card_notes):
    each whole, smaller if need be, beside the links and the code."""
    from machine.identity import IMAGER_NOTES

    notes = (*(f"dipclock.txt line {n} not used: wifi_country 'Narnia' is no country code"
               for n in range(2, 7)),
             "Fix: correct lines 2, 3, 4, 5 and 6 of dipclock.txt on a laptop (the DIPCLOCK "
             "drive)", *IMAGER_NOTES)
    for size in SIZES:
        surface = pygame.Surface(size)
        drawn = render(surface, HubView(hostname="dipclock-hub", addresses=("10.0.0.5",),
                                        network=ON_WIFI, notes=notes), painter)
        assert said(drawn, "note") == " ".join(notes)
        assert said(drawn, "hub") == "Hub: checking..."
        assert [d.text for d in drawn if d.role == "qr"] == ["https://10.0.0.5:8000/"]
        screen = surface.get_rect()
        assert all(screen.contains(d.rect) for d in drawn)
        for a, b in combinations(drawn, 2):
            assert not a.rect.colliderect(b.rect), (a, b)


def test_a_host_name_no_phone_can_ask_for_gets_no_name_line() -> None:
    for odd in ("localhost", "pi.example.org", "hub_1"):
        view = HubView(hostname=odd, addresses=("10.0.0.5",))
        assert view.name_link() is None
        assert not texts(render(pygame.Surface((800, 480)), view, painter), "name")
    assert HubView(hostname="Hall-B").name_link() == "https://hall-b.local:8000/"
    assert HubView(hostname="Hall-B", port=8443).name_link() == "https://hall-b.local:8443/"


def test_what_the_screen_reads_from_the_card(tmp_path: Path) -> None:
    """The certificate from the hub's data folder (the one the hub serves), the card's notes
    from its files, the addresses and name from the network's state."""
    from server.certificate import ensure, fingerprint_of

    cert, _key, _made = ensure(tmp_path / "hub")
    notes = tmp_path / "card"
    notes.mkdir()
    (notes / "refused").write_text(f"{REFUSED}\n\nFix: correct line 4 of dipclock.txt\n")
    (notes / "imager").write_text("This card ignores Imager's settings\n")
    asked: list[tuple[str, int]] = []

    def answers(scheme: str, port: int) -> bool:
        asked.append((scheme, port))
        return True

    view = look(Options("https", 8443, tmp_path / "hub", notes), network=lambda: ON_WIFI,
                answers=answers, hostname=lambda: "not-this")
    assert view == HubView(hostname="dipclock-hub", addresses=("10.0.0.5",), scheme="https",
                           port=8443, fingerprint=fingerprint_of(cert), answering=True,
                           network=ON_WIFI, notes=(REFUSED, "Fix: correct line 4 of dipclock.txt",
                                                   "This card ignores Imager's settings"))
    assert asked == [("https", 8443)]
    empty = look(Options(data=tmp_path / "nowhere", notes=tmp_path / "none"),
                 network=lambda: WRONG_PASSWORD, answers=lambda s, p: False)
    assert (empty.fingerprint, empty.addresses, empty.link(), empty.notes) == (None, (), None, ())


def test_a_network_reading_that_breaks_leaves_the_kernels_addresses(tmp_path: Path) -> None:
    def broken() -> NetworkState:
        raise RuntimeError("nmcli: no such thing")

    view = look(Options(data=tmp_path, notes=tmp_path / "none"), network=broken,
                answers=lambda s, p: False, hostname=lambda: "dipclock-hub")
    assert view.network is None and view.hostname == "dipclock-hub"
    assert all(not a.startswith("127.") for a in view.addresses)
    drawn = render(pygame.Surface((800, 480)), view, painter)
    assert said(drawn, "network") == "Network: this machine does not say"


def test_the_hub_is_asked_on_loopback_and_a_silent_one_is_told_in_time(tmp_path: Path) -> None:
    from tests.server.live import LiveHub

    hub = LiveHub(tmp_path / "hub", https=True).start()
    try:
        assert hub_answers("https", hub.port)
    finally:
        hub.stop()
    started = time.monotonic()
    assert not hub_answers("https", hub.port, within=1.0)  # bound, nobody listening
    assert time.monotonic() - started < 5


def test_the_loop_draws_again_every_few_seconds() -> None:
    seen: list[Options] = []
    waits: list[float] = []
    views = iter([HubView(hostname="dipclock-hub", network=WRONG_PASSWORD),
                  HUB_CARD])

    def see(options: Options) -> HubView:
        seen.append(options)
        return next(views)

    assert run(Options(), every=4.0, size=(800, 480), headless=True, turns=2, see=see,
               sleep=waits.append) == 0
    assert len(seen) == 2 and waits == [4.0]  # the address came with the Wi-Fi: drawn


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_example_screenshot(size: tuple[int, int], tmp_path: Path) -> None:
    png = tmp_path / "hubscreen.png"
    assert main(["--screenshot", str(png), "--example", "--size", f"{size[0]}x{size[1]}"]) == 0
    shot = pygame.image.load(str(png))
    assert shot.get_size() == size
    assert zbar(shot, tmp_path / "again.png") == "https://10.0.0.5:8000/"


@pytest.mark.parametrize(("argv", "said"), [
    (["--size", "big"], "'big': give WIDTHxHEIGHT, as 1920x1080"),
    (["--every", "0"], "0: give 0.5 to 3600 seconds"),
    (["--scheme", "ftp"], "invalid choice: 'ftp'"),
    (["--port", "0"], "--port 0: give 1 to 65535"),
    (["--example"], "--example goes with --screenshot"),
])
def test_a_bad_option_gets_one_line_that_says_why(argv: list[str], said: str, capsys) -> None:
    try:
        code: object = main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and said in err.strip().splitlines()[-1], err


def test_the_unit_runs_it_fullscreen_on_the_console_on_the_hub_card_only() -> None:
    unit = (ROOT / "systemd/dipclock-hubscreen.service").read_text()
    lines = {line.partition("=")[0]: line.partition("=")[2] for line in unit.splitlines()
             if "=" in line and not line.startswith("#")}
    assert lines["User"] == "dipclock"
    assert "Environment=SDL_VIDEODRIVER=kmsdrm" in unit.splitlines()
    assert lines["Conflicts"] == "getty@tty1.service"
    argv = shlex.split(lines["ExecStart"])
    assert argv[:3] == ["/opt/dipclock/venv/bin/python", "-m", "kiosk.hubscreen"]
    args = build_parser().parse_args(argv[3:])
    hub = (ROOT / "systemd/dipclock-hub.service").read_text()
    assert f"--port {args.port} " in hub and f"--data {args.data} " in hub  # the hub's own
    analyze = shutil.which("systemd-analyze")
    if analyze:
        out = subprocess.run([analyze, "verify", str(ROOT / "systemd/dipclock-hubscreen.service")],
                             capture_output=True, text=True, timeout=60)
        assert [line for line in (out.stdout + out.stderr).splitlines()
                if line.strip() and "/opt/dipclock/venv" not in line] == []
    drop_in = (ROOT / "card/files/root/etc/systemd/system/dipclock-hubscreen.service.d/card.conf"
               ).read_text()
    assert "ConditionPathExists=/run/dipclock-card/role-hub" in drop_in.splitlines()
