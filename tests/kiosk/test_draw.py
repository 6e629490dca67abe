"""Every stage drawn at the smallest and largest screens, landscape and portrait (a TV on its
side, a panel mounted upright) and a 4K TV's: nothing cut off, nothing overlapping, read from
two metres."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pygame
import pytest

from kiosk.cli import main
from kiosk.draw import Drawn, Painter
from kiosk.screenshots import LANGUAGE_SCENES, SCENES, Scene, draw
from kiosk.screenshots import main as screenshots_main

#: Landscape from a 7" panel to a 4K TV; portrait: a TV on its side, 7" and 10" panels.
SIZES = [(800, 480), (1920, 1080), (1024, 600), (3840, 2160),
         (480, 800), (1080, 1920), (600, 1024)]
painter = Painter()


def assert_on_screen_and_apart(surface: pygame.Surface, drawn: list[Drawn]) -> None:
    """Every text (and code, and mark) wholly on the screen, none over another."""
    area = surface.get_rect()
    assert drawn, "nothing drawn"
    for d in drawn:
        assert area.contains(d.rect), f"{d.role} {d.text!r} {d.rect} is cut off"
    for a, b in itertools.combinations(drawn, 2):
        assert not a.rect.colliderect(b.rect), f"{a.role} {a.rect} overlaps {b.role} {b.rect}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scene", SCENES, ids=lambda s: s.name)
def test_every_text_is_on_screen_and_apart(scene: Scene, size: tuple[int, int]) -> None:
    surface, drawn, screen = draw(scene, size, painter)
    assert_on_screen_and_apart(surface, drawn)
    for d in drawn:
        assert not d.text.endswith("..."), f"{d.role} {d.text!r} had to be shortened"
    assert [d.text for d in drawn if d.role == "alert"] == list(screen.alerts)
    if screen.sheet is not None:  # the sheet's lines instead of the big words and the chips
        assert [d.text for d in drawn if d.role.endswith("-power")] == POWER_NAMES
        assert [d.text for d in drawn if d.role.endswith("-mark")] == [
            ln.state for ln in screen.sheet.lines]
        return
    if screen.look == "problem":  # no clock: what is wrong and the fix, every word of them
        for role, text in zip(("problem", "fix"), screen.notes, strict=True):
            assert " ".join(d.text for d in drawn if d.role == role) == text
        return
    big = next(d for d in drawn if d.role == "big")
    assert big.text == screen.big
    if screen.board_call:  # before the round: the table's number and its seven players
        table = next(d for d in drawn if d.role == "board_table")
        assert table.text == "3" and table.rect.h >= min(size) * 0.2, "the table is not large"
        assert [d.text for d in drawn if d.role == "board_power"] == POWER_NAMES
        assert [d.text for d in drawn if d.role == "board_player"] == [
            p for _, p in screen.board_call]
        return
    # a quarter of the screen's short side (a pairing code, seven letters wide, is as wide
    # as the screen: on a screen on its side, the width gives out first)
    if any(c.isdigit() for c in screen.big) and screen.look != "connecting":
        assert big.rect.h >= min(size) * 0.25, "the remaining time is not large"
    chips = [d for d in drawn if d.role.endswith("-name")]
    assert [d.text for d in chips] == POWER_NAMES


POWER_NAMES = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]


def dominant(surface: pygame.Surface) -> tuple[int, int, int]:
    small = pygame.transform.scale(surface, (64, 36))
    counts = Counter(tuple(small.get_at((x, y)))[:3] for x in range(64) for y in range(36))
    return counts.most_common(1)[0][0]


def test_each_stage_has_its_own_look() -> None:
    colours = {}
    for scene in SCENES:
        surface, _, screen = draw(scene, (800, 480), painter)
        colours[screen.look] = dominant(surface)
    assert set(colours) >= {"before_start", "negotiating", "warning", "writing", "late",
                            "paused", "held", "adjudicating", "game_over"}
    assert len(set(colours.values())) == len(colours), colours


def test_hub_lost_is_drawn_small() -> None:
    scene = next(s for s in SCENES if s.hub_lost)
    _, drawn, _ = draw(scene, (1280, 720), painter)
    mark = next(d for d in drawn if d.role == "hub_lost")
    big = next(d for d in drawn if d.role == "big")
    assert mark.rect.h < big.rect.h / 5


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_alerts_are_small_marks_above_the_chips(size: tuple[int, int]) -> None:
    scene = next(s for s in SCENES if s.name == "alerts")
    assert len(scene.alerts) == 3
    _, drawn, _ = draw(scene, size, painter)
    alerts = [d for d in drawn if d.role == "alert"]
    big = next(d for d in drawn if d.role == "big")
    chips = [d for d in drawn if d.role.startswith("chip-")]
    assert {d.rect.h for d in alerts} == {alerts[0].rect.h}, "one size for every alert"
    assert alerts[0].rect.h < big.rect.h / 5
    assert all(a.rect.bottom <= min(c.rect.top for c in chips) for a in alerts)
    assert all(a.rect.top >= big.rect.bottom for a in alerts)


def test_the_layout_without_alerts_is_unchanged() -> None:
    from kiosk.draw import layout

    plain = layout((800, 480))
    assert "alerts" not in plain
    with_one = layout((800, 480), alert_rows=1)
    for row in ("top", "label"):  # only the alert row's gap is shared out above it
        assert abs(with_one[row].h - plain[row].h) <= 1
        assert abs(with_one[row].top - plain[row].top) <= 1
    assert with_one["alerts"].h > 0 and with_one["big"].h < plain["big"].h


def test_before_a_round_the_screen_names_the_table_and_its_hub() -> None:
    for name in ("before-start", "waiting-for-the-round"):
        _, drawn, screen = draw(next(s for s in SCENES if s.name == name), (800, 480), painter)
        texts = [d.text for d in drawn]
        assert any("Table 3" in t for t in texts), texts
        assert "Hub 10.0.0.1:8000, found on the network" in texts


def test_screenshot_command_draws_the_late_stage(tmp_path: Path) -> None:
    out = tmp_path / "late.png"
    rc = main(["--event", "wdc2019", "--start", "2019-09-06T10:00",
               "--at", "2019-09-06T10:18:16", "--press", "I@2019-09-06T10:18:12",
               "--screenshot", str(out), "--size", "800x480"])
    assert rc == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == (800, 480)
    assert dominant(img) == next(
        dominant(draw(s, (800, 480), painter)[0]) for s in SCENES if s.name == "late-orders")


def test_screenshot_needs_a_moment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["--event", "wdc2019", "--start", "10:00", "--screenshot", str(tmp_path / "x.png")])
    assert rc == 2
    assert "--at" in capsys.readouterr().err


def test_screenshots_module_writes_every_stage(tmp_path: Path) -> None:
    assert screenshots_main([str(tmp_path), "--size", "800x480"]) == 0
    assert sorted(p.stem for p in tmp_path.glob("*.png")) == sorted(
        [s.name for s in (*SCENES, *LANGUAGE_SCENES)] + ["portrait"])
    assert pygame.image.load(str(tmp_path / "portrait.png")).get_size() == (1080, 1920)


# --- the penalty under a late power's chip is readable from across the table ---------------

def ink_height(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """The height of what is inked inside ``rect`` on the real frame: rows holding any pixel
    other than the rect's background (its top-left corner, outside every glyph)."""
    area = surface.subsurface(rect)
    bg = area.get_at((0, 0))
    rows = [y for y in range(area.get_height())
            if any(area.get_at((x, y)) != bg for x in range(area.get_width()))]
    return rows[-1] - rows[0] + 1 if rows else 0


def readable(size: tuple[int, int]) -> float:
    """14 px capitals at 800x480, scaled with the screen: 480x800 is the same panel on its
    side, so as tall there."""
    return 14 * min(max(size) / 800, min(size) / 480) - 0.5


#: What a player reads from across the table, never drawn below a penalty's 14 px at 800x480:
#: all but the small marks for the TD (alerts, "hub lost", the round's title giving way to
#: the table's number, the code's caption, the sheet's column heads).
READ_FROM_THE_TABLE = {"table", "phase", "deadline", "label", "big", "notes", "banner", "name",
                       "note", "detail", "power", "player", "centres", "score", "late",
                       "ending", "instruction", "problem", "fix", "vote", "vote_status"}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_stage_is_read_from_two_metres(size: tuple[int, int]) -> None:
    for scene in SCENES:
        surface, drawn, _ = draw(scene, size, painter)
        for d in drawn:
            role = d.role.rsplit("-", 1)[-1]  # chip-A-name: name; line-A-power: power
            if role in READ_FROM_THE_TABLE:
                ink = ink_height(surface, d.rect)
                assert ink >= readable(size), f"{scene.name}: {d.role} {d.text!r} {ink} px"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_penalty_under_a_chip_is_at_least_14_px_at_800x480(size: tuple[int, int]) -> None:
    from kiosk.draw import short_label

    surface, drawn, screen = draw(next(s for s in SCENES if s.name == "late-orders"), size,
                                  painter)
    late = [c for c in screen.chips if c.detail]
    assert late, "the scene has no penalty to measure"
    for chip in late:
        lines = [d for d in drawn if d.role == f"chip-{chip.letter}-detail"]
        assert " ".join(d.text for d in lines) == short_label(chip.detail)  # every word
        for d in lines:
            assert ink_height(surface, d.rect) >= readable(size), (d.text, d.rect)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_long_penalty_wraps_rather_than_shrinks(size: tuple[int, int]) -> None:
    import dataclasses

    from kiosk.draw import render

    scene = next(s for s in SCENES if s.name == "late-orders")
    screen = scene.frame().screen
    details = {"A": "Referee decides", "E": "All units hold", "F": "10-unit NMR",
               "G": "Yellow card", "I": "30-second leniency used by this power"}
    chips = tuple(dataclasses.replace(c, state="late", note="+88 s", detail=details[c.letter])
                  if c.letter in details else c for c in screen.chips)
    surface = pygame.Surface(size)
    drawn = render(surface, dataclasses.replace(screen, chips=chips), painter)
    assert_on_screen_and_apart(surface, drawn)
    for letter, detail in details.items():
        lines = [d for d in drawn if d.role == f"chip-{letter}-detail"]
        assert 1 <= len(lines) <= 2
        assert all(ink_height(surface, d.rect) >= readable(size) for d in lines), lines
        shown = " ".join(d.text for d in lines)
        if letter == "I":  # too long for two lines: the second ends in "..."
            assert shown.endswith("...") and shown.startswith("30-")
        else:
            assert shown == detail
        notes = [d for d in drawn if d.role == f"chip-{letter}-note"]
        assert [d.text for d in notes] == ["+88 s"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["game-over", "game-over-sheet"])
def test_game_over_shows_the_result_sheet_as_a_qr_code_a_phone_reads(
        size: tuple[int, int], name: str, tmp_path: Path) -> None:
    """Read back with zbar (Debian's zbar-tools), as a phone's camera reads the screen:
    before the sheet is entered, and beside it (corrections are made on the phone)."""
    import shutil
    import subprocess

    scene = next(s for s in SCENES if s.name == name)
    surface, drawn, screen = draw(scene, size, painter)
    assert screen.qr == scene.sheet
    assert (screen.sheet is not None) == (name == "game-over-sheet")
    code = next(d for d in drawn if d.role == "qr")
    assert code.rect.h >= min(size) // 3, "too small to scan from across the table"
    png = tmp_path / "game-over.png"
    pygame.image.save(surface, str(png))
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg is needed: sh scripts/ensure-test-tools.sh"
    read = subprocess.run([zbarimg, "--quiet", "--raw", str(png)], capture_output=True,
                          text=True, timeout=60)
    assert read.stdout.strip() == scene.sheet


def test_no_qr_code_before_the_game_is_over() -> None:
    from dataclasses import replace

    from kiosk.state import with_sheet

    scene = next(s for s in SCENES if s.name == "negotiating")
    frame = with_sheet(scene.frame(), "https://10.0.0.1:8000/sheet/2/3#abcdefghijklmnop")
    assert frame.screen.qr == ""
    _, drawn, _ = draw(replace(scene, sheet="https://hub/sheet/2/3#k"), (800, 480), painter)
    assert not [d for d in drawn if d.role == "qr"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_late_count_stands_still_on_screen_through_lunch(size: tuple[int, int]) -> None:
    """The hall paused while Italy and Russia were 40 s late: their chips and the late line
    stay at +40 s however long lunch lasts, and the line says the count is paused."""
    from dataclasses import replace
    from datetime import timedelta

    scene = next(s for s in SCENES if s.name == "paused-while-late")
    _, drawn, screen = draw(scene, size, painter)
    assert screen.look == "paused"
    notes = [d.text for d in drawn if d.role == "notes"]  # two lines on a portrait screen
    assert notes[0].startswith("Italy and Russia +40 s paused, 3-unit NMR")
    chips = [(d.role, d.text) for d in drawn if d.role.startswith("chip-")]
    assert ("chip-I-note", "+40 s") in chips and ("chip-R-note", "+40 s") in chips
    _, later, _ = draw(replace(scene, at=scene.at + timedelta(minutes=20, seconds=30)), size,
                       painter)
    assert [d.text for d in later if d.role == "notes"] == notes
    assert [(d.role, d.text) for d in later if d.role.startswith("chip-")] == chips


# --- the table number is read from two metres, whatever the TD called the round ------------

#: the event's own round title, a TD's 80-character one, and players' long names
LONG_TITLES = ("Team Round and Third Individual Round",
               "Spring Open 2024, Saturday afternoon: Team Round and Third Individual Round (AB)")
LONG_NAMES = (("I", "Maximiliane Alexandra von Hohenzollern-Sigmaringen"),
              ("R", "Jean-Baptiste Emmanuel de La Rochefoucauld-Liancourt"))


def table_ink(size: tuple[int, int], scene: Scene) -> tuple[int, pygame.Surface, list[Drawn]]:
    surface, drawn, _ = draw(scene, size, painter)
    [table] = [d for d in drawn if d.text.endswith("Table 3")]
    return ink_height(surface, table.rect), surface, drawn


@pytest.mark.parametrize("hub_lost", [False, True], ids=["hub", "hub-lost"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_number_stays_readable_whatever_the_round_is_called(
        size: tuple[int, int], hub_lost: bool) -> None:
    from dataclasses import replace

    assert len(LONG_TITLES[1]) == 80
    scene = replace(next(s for s in SCENES if s.name == "late-orders"), hub_lost=hub_lost)
    short, _, _ = table_ink(size, replace(scene, title="Round 2"))
    plain, _, _ = table_ink(size, replace(scene, title="Round 2", hub_lost=False))
    assert short >= plain, "the hub-lost mark shrank the table number"
    for title in LONG_TITLES:
        ink, surface, drawn = table_ink(size, replace(scene, title=title, players=LONG_NAMES))
        assert_on_screen_and_apart(surface, drawn)
        assert ink >= short, f"{title!r} shrank the table number to {ink} px"
        assert ink >= 1.5 * readable(size), ink  # well above a penalty's 14 px at 800x480
        [heading] = [d.text for d in drawn if d.role == "heading"]
        # shortened beside the table's name; whole on a portrait screen's own heading row
        assert heading == title or (heading.endswith("...")
                                    and title.startswith(heading.removesuffix("...")))
        if size[0] >= size[1] or len(title) > 40:
            assert heading != title
        assert any("Maximiliane" in d.text for d in drawn), "the late player is not named"


# --- a screen mounted on its side: rotate = 90 draws the upright picture, turned -----------

def upright_frame(size: tuple[int, int]) -> pygame.Surface:
    """The late-orders stage drawn upright at ``size``, as on a screen that is not turned."""
    surface, _, _ = draw(next(s for s in SCENES if s.name == "late-orders"), size, painter)
    return surface


#: Where the upright picture's pixel (x, y) lands on a W x H display turned clockwise: its
#: top edge on the display's right (90), bottom (180) or left (270).
TURNED = {
    90: lambda x, y, w, h: (w - 1 - y, x),
    180: lambda x, y, w, h: (w - 1 - x, h - 1 - y),
    270: lambda x, y, w, h: (y, h - 1 - x),
}


def assert_turned(display: pygame.Surface, upright: pygame.Surface, rotate: int) -> None:
    w, h = display.get_size()
    assert (w, h) == ((upright.get_height(), upright.get_width()) if rotate % 180
                      else upright.get_size())
    uw, uh = upright.get_size()
    for x in range(0, uw, 7):
        for y in range(0, uh, 5):
            assert display.get_at(TURNED[rotate](x, y, w, h)) == upright.get_at((x, y)), (x, y)
    assert pygame.image.tobytes(display, "RGB") == pygame.image.tobytes(
        pygame.transform.rotate(upright, -rotate), "RGB")  # and every pixel, not a sample


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_rotate_draws_the_upright_picture_turned_on_the_screen(rotate: int) -> None:
    from kiosk.display import Display

    scene = next(s for s in SCENES if s.name == "late-orders")
    display = Display(headless=True)
    display.use((800, 480), False, rotate)  # the screen's own mode, whatever way it hangs
    display.show(scene.frame(), painter)
    upright = upright_frame((480, 800) if rotate % 180 else (800, 480))
    assert_turned(pygame.display.get_surface(), upright, rotate)
    display.use((800, 480), False)  # the session's window as the other tests expect it


def test_the_screenshot_of_a_turned_screen_is_its_pixels(tmp_path: Path) -> None:
    out = tmp_path / "turned.png"
    assert main(["--event", "graduated20", "--start", "2019-09-06T10:00",
                 "--at", "2019-09-06T10:20:17", "--size", "1920x1080", "--rotate", "90",
                 "--screenshot", str(out)]) == 0
    upright = tmp_path / "upright.png"
    assert main(["--event", "graduated20", "--start", "2019-09-06T10:00",
                 "--at", "2019-09-06T10:20:17", "--size", "1080x1920",
                 "--screenshot", str(upright)]) == 0
    assert_turned(pygame.image.load(str(out)), pygame.image.load(str(upright)), 90)


def test_a_portrait_size_the_screen_refuses_points_to_rotate() -> None:
    from kiosk.display import _size_fix

    fix = str(_size_fix((1080, 1920), [(1920, 1080), (1280, 720)]))
    assert fix.startswith('set size = "1920x1080" (the screen\'s own mode) and rotate = 90')
    assert str(_size_fix((1000, 1000), [(1920, 1080)])) == (
        "remove size from kiosk.toml, or set one the screen has: 1920x1080")
