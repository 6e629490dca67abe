"""``make hall-test``'s judgements, on what the cards gave it: a screen's stage by its
colours, a press the hub holds (a bounce it merged counts), the words a card's kiosk wrote to
its serial console, the router's leases, and ``ok``."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path

from benchmarks.hall_test import (
    KEYS,
    LanCard,
    Press,
    code_shown,
    judged,
    leases,
    not_held,
    qr_link,
    shows_stage,
)

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
T0 = datetime(2026, 11, 28, 7, 5, 55)


def test_the_pause_is_told_by_its_band() -> None:
    assert shows_stage(SHOTS / "meal-break.png", "paused")
    assert not shows_stage(SHOTS / "negotiating.png", "paused")
    assert not shows_stage(SHOTS / "missing.png", "paused")


def test_a_bounce_the_hub_merged_is_held_and_a_lost_press_is_not() -> None:
    """The first hall run counted 3 presses lost: each was a bounce (two key events read
    at once under emulation, stamped 50 ms apart), which the hub merges by design."""
    held = [Press("stored", 1, "T", T0)]
    bounce = Press("bounce", 1, "T", T0 + timedelta(milliseconds=48))
    later = Press("later", 1, "T", T0 + timedelta(seconds=2))
    elsewhere = Press("elsewhere", 2, "T", T0)
    other_power = Press("other", 1, "A", T0)
    assert not_held([held[0], bounce], held) == set()
    assert not_held([later, elsewhere, other_power], held) == {"later", "elsewhere", "other"}


def test_the_last_whole_status_line_is_the_screen(tmp_path: Path) -> None:
    card = LanCard.__new__(LanCard)  # no image: only its serial console is read
    card.console = tmp_path / "console-1.log"
    card.console.write_text(
        'hall-test-screen: {"look": "connecting", "label": "Looking for the hub"}\n'
        "[  12.3] some kernel line\n"
        "hall-test-screen: \n"
        'hall-test-screen: {"look": "problem", "notes": ["line 32: no time zone"]}\n'
        'hall-test-screen: {"look": "cut off in the midd\n')
    assert card.screen_text() == {"look": "problem", "notes": ["line 32: no time zone"]}
    card.console = tmp_path / "none.log"
    assert card.screen_text() is None


def test_the_routers_leases(tmp_path: Path) -> None:
    path = tmp_path / "dhcp.leases"
    path.write_text("1795892343 52:54:00:77:00:03 10.77.0.132 dipclock-table-2 01:52\n"
                    "1795892254 52:54:00:77:00:01 10.77.0.130 dipclock-hub *\n")
    assert leases(path) == {"52:54:00:77:00:03": ("10.77.0.132", "dipclock-table-2"),
                            "52:54:00:77:00:01": ("10.77.0.130", "dipclock-hub")}
    assert leases(tmp_path / "none") == {}


def figures(**values: object) -> dict[str, object]:
    return {k: None for k in KEYS} | {
        "tables_found_hub_s": [200.0, 210.0], "paired": True, "press_at_hub": True,
        "pause_on_screens_ms": 900, "hub_power_cut_lost": 0, "hub_power_cut_acknowledged": 40,
        "hub_replaced_actions": 3, "hub_replaced_s": 30.0, "typo_line_only": True,
        "network_fault_shown": True, "hub_address_on_screen": True} | values


def test_ok_needs_every_step_run_to_hold() -> None:
    every = {1, 2, 3, 4, 5, 6}
    assert judged(figures(), every)
    assert not judged(figures(hub_power_cut_acknowledged=0), every)  # a cut proving nothing
    assert not judged(figures(hub_power_cut_lost=1), every)
    assert not judged(figures(hub_replaced_actions=4), every)
    assert not judged(figures(tables_found_hub_s=[200.0]), every)
    assert not judged(figures(network_fault_shown=False), every)
    # steps not run are not judged; the steps run are
    assert judged(figures(network_fault_shown=None, typo_line_only=None), {1, 3, 4})
    assert not judged(figures(pause_on_screens_ms=None), {1, 3, 4})


def test_the_qr_code_is_read_as_a_phone_reads_it(tmp_path: Path) -> None:
    import segno

    assert shutil.which("zbarimg"), "zbarimg is needed: sh scripts/ensure-test-tools.sh"

    segno.make("https://10.77.0.130:8000/").save(str(tmp_path / "qr.png"), scale=8, border=4)
    assert qr_link(tmp_path / "qr.png") == "https://10.77.0.130:8000/"
    assert qr_link(SHOTS / "negotiating.png") is None


def test_the_pairing_code_is_told_from_asking_for_it(tmp_path: Path) -> None:
    """The first screendump of the code was taken while the table still asked for it: the
    harness waits for the code, told by the kiosk's own frames, at the card's size."""
    import pygame

    from kiosk.draw import Painter, render
    from kiosk.state import pairing

    def shot(code: str | None) -> Path:
        surface = pygame.Surface((1280, 800))
        render(surface, pairing(1, code, "Hub 10.77.0.130:8000", "6F:FB:F0:F2").screen,
               Painter())
        png = tmp_path / f"{code}.png"
        pygame.image.save(surface, str(png))
        return png

    assert code_shown(shot("6MF-77D"))
    assert not code_shown(shot(None))
