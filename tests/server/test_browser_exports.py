"""The Event files card on the TD's phone (issue 36, "Out of the hub"), on real hubs: the TD
saves the WDD's files and the event archive from the dashboard of the hub the event was
played on, and on another hub chooses the archive and confirms: that hub carries the event
on, its standings the first hub's."""

from __future__ import annotations

import zipfile
from pathlib import Path

from dipclock.sync import to_seconds
from machine.passwords import hash_password
from server import archive
from tests.chromium import TdPhone
from tests.doubles import FakeClock
from tests.server.conftest import PASSWORD, START, Hub
from tests.server.live import LiveHub
from tests.server.test_archive import play


def test_the_td_saves_the_event_files_and_carries_the_event_to_another_hub(
        browser, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    played = tmp_path / "played"
    hub = Hub(played, hash_password(PASSWORD), FakeClock(to_seconds(START)))
    try:
        play(hub)
    finally:
        hub.close()
    first = LiveHub(played).start()
    second = LiveHub(tmp_path / "second").start()
    try:
        phone = TdPhone(browser, first.url, PASSWORD)
        page = phone.page
        with page.expect_download() as saving:
            page.click("#btn-wdd")
        wdd = tmp_path / saving.value.suggested_filename
        saving.value.save_as(wdd)
        with zipfile.ZipFile(wdd) as z:
            assert sorted(z.namelist()) == ["boards.csv", "classification.csv"]
        with page.expect_download() as saving:
            page.click("#btn-archive")
        saved = tmp_path / saving.value.suggested_filename
        saving.value.save_as(saved)
        assert saved.name.startswith("dipclock-event-")
        page.context.close()

        other = TdPhone(browser, second.url, PASSWORD)
        other.page.set_input_files("#archive-file", saved)
        expect(other.page.locator("#archive-done")).to_contain_text(
            "2 rounds, 14 people on the roster", timeout=20000)
        assert len(other.asked) == 1 and other.asked[0].startswith(
            f"Carry on the event saved in {saved.name} on this hub?"), other.asked
        assert other.errors == []
        td1, td2 = first.td(), second.td()
        assert td2.get("/api/td/standings?round=2").json() == \
            td1.get("/api/td/standings?round=2").json()
        again = td2.get("/api/td/export/archive").content
        assert archive.canonical(again) == archive.canonical(saved.read_bytes())
    finally:
        second.stop()
        first.stop()
