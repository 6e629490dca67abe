"""``make screenshots`` (second half): the TD's dashboard, on a phone and on a desktop, and the
hall clock, at each stage of a round, from a real hub in Debian's headless Chromium.

    python scripts/page_screenshots.py OUTDIR

Each stage is its own hub (a fresh data folder, a free 127.0.0.1 port) set up through the
TD's and the kiosks' own API with a schedule placed around the hub's current time, so
the pictures show what a TD sees, not a mock of it. Writes ``dashboard-STAGE-phone.png`` (a
phone's screen), ``dashboard-STAGE-desktop.png`` (the whole page) and ``hall-STAGE.png`` for
each stage, plus the README's ``dashboard-phone.png`` (lunch), ``hall.png`` (negotiating) and
``clocks.png`` (the phone's Clocks card: a clock waiting for the TD, eight paired), and
the Seating card and the board call (``seating-card.png``, ``boardcall.png``), and the
Roster card on a 360 px phone with round 1 registered (``roster-card.png``).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dipclock.eventfiles import machine_zone  # noqa: E402
from dipclock.events import BUILTIN  # noqa: E402
from dipclock.sync import to_moment  # noqa: E402
from dipclock.venuetime import venue_naive, zone  # noqa: E402
from machine.fingerprint import of_pem  # noqa: E402
from tests.chromium import chromium, phone  # noqa: E402
from tests.server.conftest import PASSWORD  # noqa: E402
from tests.server.live import Clocks, LiveHub  # noqa: E402

TABLES = 8
Setup = Callable[[httpx.Client, LiveHub, datetime], None]


def venue(moment: datetime) -> datetime:
    """Hub time (UTC) as the venue's time the dashboard takes: this machine's zone, the
    hub's for a built-in event."""
    return venue_naive(moment, zone(machine_zone()))


def _round(td: httpx.Client, event: str, start: datetime, **more: Any) -> None:
    td.put("/api/td/event", json={"builtin": event}).raise_for_status()
    td.put("/api/td/round", json={"number": 1, "start": venue(start).isoformat(timespec="seconds"),
                                  "title": "Round 1", **more}).raise_for_status()
    td.put("/api/td/tables", json={"count": TABLES}).raise_for_status()


def _kiosks(td: httpx.Client, live: LiveHub) -> Clocks:
    """Tables 1-8 have paired clocks; 1-6 report their sync, as their kiosks do, and 7 and 8
    have not connected yet. A spare clock waits for the TD, asking for table 3."""
    auth = Clocks(td)
    for n in range(1, TABLES + 1):
        auth[n]
    for n in range(1, 7):
        httpx.post(f"{live.url}/api/tables/{n}/status", headers=auth[n], verify=live.verify,
                   json={"offset": 0.003 * n, "rtt": 0.012 + 0.002 * n}).raise_for_status()
    httpx.post(f"{live.url}/api/pair", verify=live.verify, json={
        "kiosk": "spare-clock", "token_hash": "5" * 64, "table": 3,
        "fingerprint": of_pem(live.certificate)}).raise_for_status()
    return auth


def _spring_over(td: httpx.Client, live: LiveHub, now: datetime) -> datetime:
    """wdc2006, Spring 1901's deadline 40 s ago: late presses in, others still late."""
    start = (now - timedelta(minutes=17, seconds=40)).replace(microsecond=0)
    _round(td, "wdc2006", start)
    auth = _kiosks(td, live)
    deadline = start + timedelta(minutes=17)
    for n in range(1, TABLES + 1):
        late = {"E": 21, "R": 35} if n == 2 else {"T": 12} if n == 5 else {}
        presses = [{"id": f"shot-{n}-{p}", "power": p, "kind": "press",
                    "at": (deadline + timedelta(seconds=late.get(p, -60 + i))).isoformat()}
                   for i, p in enumerate("AEFGIRT") if not (n == 3 and p == "G")]
        httpx.post(f"{live.url}/api/tables/{n}/presses", headers=auth[n], verify=live.verify,
                   json={"presses": presses}).raise_for_status()
    return start


def empty(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    """A hub just started: nothing set up yet."""


def before_start(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    _round(td, "wdc2006", (now + timedelta(minutes=8)).replace(second=0, microsecond=0))
    _kiosks(td, live)


def negotiating(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    _spring_over(td, live, now)


def writing(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    spring = BUILTIN["wdc2019"].phase_minutes(1901, "spring")
    _round(td, "wdc2019", (now - timedelta(minutes=spring, seconds=-25)).replace(microsecond=0))
    _kiosks(td, live)


def lunch(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    _spring_over(td, live, now)
    until = (now + timedelta(minutes=50)).replace(second=0, microsecond=0)
    td.post("/api/td/pauses", json={"reason": "Lunch", "until": venue(until).isoformat()}
            ).raise_for_status()


def hold_and_extra_time(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    _spring_over(td, live, now)
    td.post("/api/td/adjustments", json={"seconds": 90, "table": 2}).raise_for_status()
    td.post("/api/td/pauses", json={"table": 3, "reason": "ruling on a retreat"}
            ).raise_for_status()


def called(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    _spring_over(td, live, now)
    td.post("/api/td/call", json={}).raise_for_status()


def over(td: httpx.Client, live: LiveHub, now: datetime) -> None:
    _round(td, "wdc2006", (now - timedelta(minutes=40)).replace(microsecond=0), last_year=1901)
    _kiosks(td, live)


STAGES: tuple[tuple[str, Setup], ...] = (
    ("empty", empty), ("before-start", before_start), ("negotiating", negotiating),
    ("writing", writing), ("lunch", lunch), ("hold", hold_and_extra_time),
    ("called", called), ("over", over),
)


def _dashboard(browser: Any, url: str, size: dict[str, int] | None,
               locale: str | None = None) -> Any:
    """The dashboard signed in, on a phone (``size`` None) or a screen of ``size``; a phone
    in ``locale`` ("fr-FR") reads it in its own language."""
    if size is None:
        ctx = phone(browser, locale=locale)
    else:
        ctx = browser.new_context(bypass_csp=True, viewport=size, device_scale_factor=1)
    page = ctx.new_page()
    page.goto(url + "/dashboard")
    page.fill("#password", PASSWORD)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#app:not([hidden])")
    _drawn(page)
    return page


def _drawn(page: Any) -> None:
    """Wait until the page has drawn the hub's answer (its clock and its ticking parts)."""
    page.wait_for_function("last !== null && document.body.dataset.look !== undefined")
    page.wait_for_timeout(600)  # the page redraws its ticking parts every 200-250 ms


def _clocks_card(page: Any, path: Path) -> Path:
    """The phone scrolled to the Clocks card, its top just under the sticky header."""
    page.evaluate("""() => {
        const top = document.querySelector('header.top').getBoundingClientRect().height;
        const card = document.getElementById('clocks-card').getBoundingClientRect().top;
        window.scrollBy(0, card - top - 8);
    }""")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    return path


def shoot(out: Path, only: tuple[str, ...] = ()) -> list[Path]:
    """Every stage's pictures (or only those named) into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="dipclock-pages-") as work, chromium() as browser:
        for name, setup in STAGES:
            if only and name not in only:
                continue
            live = LiveHub(Path(work) / name, https=True).start()  # as a hall's hub
            try:
                td = live.td()
                now = to_moment(httpx.get(live.url + "/api/time", verify=live.verify).json()["t1"])
                setup(td, live, now)
                for kind, size in (("phone", None), ("desktop", {"width": 1280, "height": 900})):
                    page = _dashboard(browser, live.url, size)
                    path = out / f"dashboard-{name}-{kind}.png"
                    page.screenshot(path=str(path), full_page=kind == "desktop")
                    written.append(path)
                    if (name, kind) == ("negotiating", "phone"):
                        written.append(_clocks_card(page, out / "clocks.png"))
                    page.context.close()
                if name == "lunch":  # a French and a German TD's phone (docs/languages.md)
                    for lang in ("fr", "de"):
                        page = _dashboard(browser, live.url, None, f"{lang}-{lang.upper()}")
                        path = out / f"dashboard-{name}-phone-{lang}.png"
                        page.screenshot(path=str(path))
                        written.append(path)
                        page.context.close()
                hall = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 720})
                hall.goto(live.url + "/hall")
                _drawn(hall)
                path = out / f"hall-{name}.png"
                hall.screenshot(path=str(path))
                written.append(path)
                hall.close()
            finally:
                live.stop()
        if not only or "seating" in only:
            written += seating(out, browser, Path(work))
        if not only or "roster" in only:
            written += roster(out, browser, Path(work))
    for stage, shown, readme in (("negotiating", "hall-negotiating.png", "hall.png"),
                                 ("lunch", "dashboard-lunch-phone.png", "dashboard-phone.png")):
        if not only or stage in only:
            shutil.copyfile(out / shown, out / readme)
            written.append(out / readme)
    return written


#: the README's seating pictures: a hall of 49 (seven tables), round 2 after round 1
SEATED = [f"{first} {last}" for first, last in zip(
    ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus") * 7,
    [name for name in ("Smith", "Jones", "Dubois", "Weiss", "Rossi", "Petrov", "Yilmaz")
     for _ in range(7)], strict=True)]


def seating(out: Path, browser: Any, work: Path) -> list[Path]:
    """The Seating card with round 2 drafted (``seating-card.png``) and the projector's
    board call of round 1 (``boardcall.png``), from a real hub."""
    live = LiveHub(work / "seating", https=True).start()
    try:
        td = live.td()
        now = to_moment(httpx.get(live.url + "/api/time", verify=live.verify).json()["t1"])
        _round(td, "wdc2019", now + timedelta(minutes=20))
        td.put("/api/td/tables", json={"count": 7}).raise_for_status()
        first = td.post("/api/td/seating/draft", json={"round": 1, "players": SEATED,
                                                       "seed": 11}).json()
        td.put("/api/td/seating/round", json={"round": 1, "tables": first["tables"]}
               ).raise_for_status()
        page = _dashboard(browser, live.url, {"width": 1280, "height": 900})
        page.click("#seat-desk > summary")
        page.wait_for_function("document.getElementById('seat-round').value === '2'")
        page.fill("#seat-seed", "11")
        page.click("#btn-seat-draft")
        page.wait_for_selector("#seat-draft .seat-table")
        page.add_style_tag(content="header.top { position: static; }")  # not over the card
        card = out / "seating-card.png"
        page.locator("#seat-card").screenshot(path=str(card))
        page.context.close()
        hall = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        hall.goto(live.url + "/boardcall")
        hall.wait_for_selector(".call-table")
        call = out / "boardcall.png"
        hall.screenshot(path=str(call))
        hall.close()
        return [card, call]
    finally:
        live.stop()


#: the Roster card's people: twelve pre-registered, two who came without (one a late
#: arrival), one of them asking to sit out, one withdrawn
ROSTER = "given,family,nationality,club,preregistered\n" + "".join(
    f"{first},{last},{country},{club},{pre}\n" for first, last, country, club, pre in (
        ("Ann", "Smith", "GB", "London", "yes"), ("Bob", "Jones", "GB", "", "yes"),
        ("Cécile", "Dubois", "FR", "Paris", "yes"), ("Dan", "Weiss", "DE", "", "yes"),
        ("Eva", "Rossi", "IT", "Roma", "yes"), ("Fyodor", "Petrov", "RU", "", "yes"),
        ("Gül", "Yılmaz", "TR", "", "yes"), ("Hans", "Berg", "DE", "", "yes"),
        ("Inès", "Moreau", "FR", "Lyon", "yes"), ("Jon", "Olsen", "NO", "", "yes"),
        ("Kate", "Brown", "US", "", "yes"), ("Luca", "Bianchi", "IT", "", "yes"),
        ("José", "García", "ES", "Madrid", "no"), ("Zoe", "Late", "GB", "", "no")))


def roster(out: Path, browser: Any, work: Path) -> list[Path]:
    """The Roster card on a 360 px phone, round 1 registered (``roster-card.png``)."""
    live = LiveHub(work / "roster", https=True).start()
    try:
        td = live.td()
        now = to_moment(httpx.get(live.url + "/api/time", verify=live.verify).json()["t1"])
        _round(td, "wdc2019", now + timedelta(minutes=20))
        td.post("/api/td/roster/import", content=ROSTER.encode(),
                headers={"Content-Type": "text/csv"}).raise_for_status()
        ids = {p["name"]: p["id"] for p in td.get("/api/td/roster").json()["people"]}
        td.post("/api/td/register/1/preregistered").raise_for_status()
        for name, status in (("José García", "present"), ("Bob Jones", "sitting_out"),
                             ("Luca Bianchi", "withdrawn")):
            td.put(f"/api/td/register/1/people/{ids[name]}",
                   json={"status": status}).raise_for_status()
        page = _dashboard(browser, live.url, None)
        page.set_viewport_size({"width": 360, "height": 780})
        page.click("#roster-desk > summary")
        page.wait_for_selector("#roster-list li")
        page.add_style_tag(content="header.top { position: static; }")  # not over the card
        card = out / "roster-card.png"
        page.locator("#roster-card").screenshot(path=str(card))
        page.context.close()
        return [card]
    finally:
        live.stop()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/page_screenshots.py OUTDIR", file=sys.stderr)
        return 2
    for path in shoot(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
