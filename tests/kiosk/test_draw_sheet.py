"""The result sheet at game over, drawn at the smallest and largest screens, landscape and
portrait: every line, the ending and the one thing to do fit, apart, and read from across
the table, whatever the names, the ending or the problem to correct."""

from __future__ import annotations

import pytest

from kiosk.draw import Painter
from kiosk.screenshots import SCENES, SEATED, Scene, _t, draw, sheet

from .test_draw import SIZES, assert_on_screen_and_apart, ink_height, readable

painter = Painter()
BASE = next(s for s in SCENES if s.name == "game-over-sheet")
LONG = (("A", "Alexandra Konstantinopoulou-Papadimitriou"),
        ("E", "Bartholomew Fitzwilliam-Worthington III"),
        ("F", "Marie-Christine de La Rochefoucauld"),
        ("G", "Maximilian von Hohenzollern-Sigmaringen"),
        ("I", "Giovanni Battista Pergolesi-Sforza"),
        ("R", "Aleksandr Aleksandrovich Rimsky-Korsakov"),
        ("T", "Mehmet Abdulkadir Karaosmanoglu"))
PROBLEM = "Italy has 7 centres: a solo in 1909 needs 18"
LONG_PROBLEM = ("ManorCon draws include all survivors: Austria, England, France, Russia, "
                "Turkey are not in the draw")
VARIANTS = {
    # seven long names, a solo, three alerts and the hub lost: the fullest screen there is
    "long names, solo, alerts": Scene(
        "sheet-long", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
        sheet=BASE.sheet, players=LONG, hub_lost=True,
        alerts=("Clock not verified: no hub and no network time", "Button box unplugged",
                "Another kiosk (192.168.100.123) also says it is table 3"),
        result=sheet("A=3,E=4,F=18,G=0,I=4,R=5,T=0", ending="Solo: France", solo="F",
                     eliminated={"G": 1905, "T": 1908}, confirmed="AEFGIRT")),
    "a problem to correct": Scene(
        "sheet-problem", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
        sheet=BASE.sheet, players=SEATED,
        result=sheet("A=5,E=4,F=6,G=0,I=7,R=6,T=6", eliminated={"G": 1905}).model_copy(
            update={"ending": "Solo: Italy", "scores": {}, "problem": PROBLEM})),
    # among the longest the core words (``dipclock.scoring``): two lines, at full size
    "a long problem": Scene(
        "sheet-problem-long", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
        sheet=BASE.sheet, players=SEATED,
        result=sheet("A=5,E=4,F=6,G=0,I=7,R=6,T=6", eliminated={"G": 1905}).model_copy(
            update={"scores": {}, "problem": LONG_PROBLEM})),
    # the most a snapshot carries (300 characters): every word, smaller if it must be
    "the longest problem a snapshot carries": Scene(
        "sheet-problem-300", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
        sheet=BASE.sheet, players=SEATED,
        result=sheet("A=5,E=4,F=6,G=0,I=7,R=6,T=6", eliminated={"G": 1905}).model_copy(
            update={"scores": {}, "problem": ("a draw naming an eliminated power " * 9)[:300]})),
    # Italy and Turkey have not pressed for Fall 1909 (deadline 14:48): they count late
    "two powers late": Scene(
        "sheet-late", "wdc2006", _t("14:50:17"), last_year=1909, title="Round 5",
        sheet=BASE.sheet, players=SEATED,
        presses=tuple((p, "14:47:00") for p in "AEFGR"),
        result=sheet("A=5,E=4,F=6,G=0,I=7,R=6,T=6", eliminated={"G": 1905})),
    "confirmed by the TD": Scene(
        "sheet-final", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
        sheet=BASE.sheet, players=SEATED,
        result=sheet("A=5,E=4,F=6,G=0,I=7,R=6,T=6", eliminated={"G": 1905},
                     confirmed="AEFIRT", final=True)),
    "no QR code": Scene(
        "sheet-no-qr", "wdc2006", _t("15:31:04"), last_year=1909, title="Round 5",
        players=SEATED, result=BASE.result),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["base", *VARIANTS])
def test_the_sheet_fits_and_reads_from_across_the_table(name: str,
                                                        size: tuple[int, int]) -> None:
    scene = BASE if name == "base" else VARIANTS[name]
    surface, drawn, screen = draw(scene, size, painter)
    view = screen.sheet
    assert view is not None and screen.look == "game_over"
    assert_on_screen_and_apart(surface, drawn)
    roles = {d.role: d for d in drawn}
    for ln in view.lines:
        power = roles[f"line-{ln.letter}-power"]
        assert power.text == ln.power
        assert roles[f"line-{ln.letter}-centres"].text == ln.centres
        # a name too long for its column keeps its start and says it was cut
        shown = roles[f"line-{ln.letter}-player"].text if ln.player else ""
        assert shown == ln.player or (shown.endswith("...") and len(shown) > 12
                                      and ln.player.startswith(shown[:-3]))
        if ln.late:  # the count where the score and the mark were
            assert roles[f"line-{ln.letter}-late"].text == ln.late
            assert f"line-{ln.letter}-mark" not in roles
        else:
            assert roles[f"line-{ln.letter}-mark"].text == ln.state
            if ln.score:
                assert roles[f"line-{ln.letter}-score"].text == ln.score
        for role in ("power", "centres"):  # capitals and digits at least 14 px at 800x480
            d = roles[f"line-{ln.letter}-{role}"]
            assert ink_height(surface, d.rect) >= readable(size), (d, size)
    # under the lines, or wrapped beside the code under them on a portrait screen
    assert " ".join(d.text for d in drawn if d.role == "ending") == view.ending
    said = " ".join(d.text for d in drawn if d.role == "instruction")
    assert said.split() == view.instruction.split()  # every word of it, never cut
    lines = [d for d in drawn if d.role == "instruction"]
    if len(lines) == 1:  # centred under the label's band, as wide as it
        assert abs(lines[0].rect.centerx - roles["label"].rect.centerx) <= 2
    if name != "the longest problem a snapshot carries":
        assert all(ink_height(surface, d.rect) >= readable(size)
                   for d in drawn if d.role == "instruction")
    assert [d.text for d in drawn if d.role == "alert"] == list(screen.alerts)
    assert ("qr" in roles) == bool(scene.sheet)
    assert not [d for d in drawn if d.role == "big" or d.role.startswith("chip-")]


def test_what_each_variant_says() -> None:
    said = {name: scene.frame().screen.sheet for name, scene in VARIANTS.items()}
    assert said["long names, solo, alerts"].ending == "Fall 1909 · Solo: France"
    assert said["long names, solo, alerts"].tone == "done"
    assert said["a problem to correct"].instruction == (
        f"Correct the sheet on the phone: {PROBLEM}")
    assert [ln.late for ln in said["two powers late"].lines] == [
        "", "", "", "", "late +137 s", "", "late +137 s"]
    assert said["confirmed by the TD"].instruction == "Confirmed by the TD"
