"""The Clocks card on the TD's phone, over HTTPS from a real hub: the certificate to check,
the clocks waiting with their codes, pairing by typing a code or by a tap, revoking."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

import httpx

from dipclock.sync import to_moment
from machine.fingerprint import of_pem
from tests.chromium import SHOTS, acted, signed_in
from tests.server.conftest import PASSWORD
from tests.server.live import LiveHub
from tests.server.test_live import set_up


def shoot(page, name: str) -> None:
    """The Clocks card as the TD scrolls to it: its top just under the page's header."""
    page.locator("#clocks-card").evaluate(
        "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY"
        " - document.querySelector('header').offsetHeight - 8)")
    page.screenshot(path=f"{SHOTS}/{name}")


def ask(live: LiveHub, kiosk: str, table: int | None, fingerprint: str) -> tuple[str, str]:
    """A clock asks to be paired, as ``kiosk.pairing`` does; (its token, its code)."""
    token = secrets.token_urlsafe(32)
    r = live.post("/api/pair", json={
        "kiosk": kiosk, "token_hash": hashlib.sha256(token.encode()).hexdigest(),
        "table": table, "fingerprint": fingerprint})
    r.raise_for_status()
    return token, r.json()["code"]


def test_the_td_pairs_clocks_by_code_or_by_tap_and_revokes_one(browser, tmp_path) -> None:
    from playwright.sync_api import expect

    live = LiveHub(tmp_path / "hub", https=True).start()
    try:
        td = live.td()
        now = to_moment(live.get("/api/time").json()["t1"]).replace(microsecond=0)
        set_up(td, now - timedelta(minutes=3), tables=4)
        ours = of_pem(live.certificate)
        typed, code = ask(live, "5f2e9c10-card", 3, ours)
        tapped, _ = ask(live, "9a81d2c4-card", 2, ours)
        ask(live, "a-stranger", 1, "AB:" * 31 + "AB")  # sees another certificate
        page, asked = signed_in(browser, live.url, PASSWORD)
        expect(page.locator("#fingerprint")).to_have_text(ours)
        expect(page.locator("#plain-http")).to_be_hidden()
        expect(page.locator("#waiting li")).to_have_count(3)
        stranger = page.locator("#waiting li.bad")
        expect(stranger).to_contain_text("another certificate than this hub's")
        expect(stranger.locator("button.go")).to_have_count(0)  # no Pair button for it
        shoot(page, "dipclock-clocks.png")

        # the TD types the code on table 3's screen, as a phone keyboard gives it
        page.fill("#pair-code", code.replace("-", "").lower())
        page.fill("#pair-table", "3")
        page.click("#pair-form button[type=submit]")
        expect(page.locator("#waiting li")).to_have_count(2)
        assert asked[-1] == f"Pair the clock showing {code.replace('-', '')} for table 3?"
        # and taps the request asking for table 2
        page.locator("#waiting li", has_text="asks for table 2").locator("button.go").click()
        expect(page.locator("#clocks-summary")).to_have_text("· 2 paired · 1 waiting")
        for token, table in ((typed, 3), (tapped, 2)):
            r = live.get(f"/api/tables/{table}/snapshot",
                         headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text

        page.click("#clocks-card summary")
        rows = page.locator("#paired li")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("Table 2 · clock 9a81d2c4 · 127.0.0.1")
        page.locator('#paired li[data-table="3"] button').click()
        expect(rows).to_have_count(1)
        assert asked[-1].startswith("Revoke the clock of table 3 (127.0.0.1)?")
        expect(page.locator("#toast")).to_have_text("Done: Revoke the clock of table 3 (127.0.0.1)")
        r = live.get("/api/tables/3/snapshot", headers={"Authorization": f"Bearer {typed}"})
        assert r.status_code == 401
        shoot(page, "dipclock-clocks-paired.png")
        page.context.close()
    finally:
        live.stop()


def test_a_hub_on_plain_http_says_so_on_the_clocks_card(browser, tmp_path) -> None:
    from playwright.sync_api import expect

    live = LiveHub(tmp_path / "hub").start()  # --plain-http
    try:
        assert httpx.get(live.url + "/api/time").status_code == 200
        page, _ = signed_in(browser, live.url, PASSWORD)
        expect(page.locator("#plain-http")).to_be_visible()
        expect(page.locator("#plain-http")).to_contain_text("cross the network in clear")
        expect(page.locator("#fingerprint")).to_have_text("none: plain HTTP")
        page.context.close()
    finally:
        live.stop()


def test_under_a_pairing_flood_a_real_clock_gets_its_code_and_the_td_finds_it_at_once(
        browser, tmp_path) -> None:
    """200 addresses ask for pairing over and over, more than the hall's 500 places; a real
    clock asking then still gets its code. The TD types it, sees that one request, pairs it,
    and refuses the rest in one action."""
    from concurrent.futures import ThreadPoolExecutor

    from playwright.sync_api import expect

    live = LiveHub(tmp_path / "hub", https=True).start()
    try:
        td = live.td()
        ours = of_pem(live.certificate)

        def flood(n: int) -> int:
            transport = httpx.HTTPTransport(local_address=f"127.0.4.{n % 200 + 1}",
                                            verify=live.verify)
            with httpx.Client(transport=transport, timeout=60) as c:
                return c.post(live.url + "/api/pair", json={
                    "kiosk": f"flood-{n}", "token_hash": hashlib.sha256(
                        secrets.token_bytes(16)).hexdigest(),
                    "table": 7, "fingerprint": ours}).status_code

        with ThreadPoolExecutor(16) as pool:
            assert set(pool.map(flood, range(800))) == {201}  # every one gets its code
        assert len(td.get("/api/td/clocks").json()["waiting"]) == 500  # the hall's most
        token, code = ask(live, "real-clock", 7, ours)  # a real clock: its code, at once
        page, asked = signed_in(browser, live.url, PASSWORD)
        expect(page.locator("#waiting li")).to_have_count(8)  # the newest, not 500 rows
        expect(page.locator("#waiting-note")).to_have_text(
            "500 clocks are waiting, from 201 addresses: the newest are shown. Type the code "
            "your clock shows to find it.")
        page.fill("#pair-code", code.replace("-", " ").lower())
        row = page.locator("#waiting li")
        expect(row).to_have_count(1)
        expect(row).to_contain_text(f"{code} · asks for table 7 · 127.0.0.1")
        shoot(page, "dipclock-clocks-flood.png")
        acted(page, f'#waiting li[data-code="{code}"] button.go')
        assert asked[-1] == f"Pair the clock showing {code} for table 7?"
        acted(page, "#btn-refuse-all")  # one action at a time: after the pairing's
        assert asked[-1] == ("Refuse all 499 clocks waiting to be paired? A real clock "
                             "among them shows a new code.")
        expect(page.locator("#clocks-summary")).to_have_text("· 1 paired")
        expect(page.locator("#btn-refuse-all")).to_be_hidden()
        r = live.get("/api/tables/7/snapshot", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        page.context.close()
    finally:
        live.stop()
