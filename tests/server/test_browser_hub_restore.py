"""The hub backup card on the TD's phone (issue 35, item 5), over HTTPS from real hubs: the
TD saves the backup from the old hub's dashboard; on a freshly started hub the TD signs in,
chooses the file and confirms (three actions), and the fresh hub is the old one: every clock
paired with the old hub is accepted, on the certificate it pinned."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx

from dipclock.sync import to_moment
from kiosk.pairing import pinned
from tests.chromium import SHOTS, TdPhone
from tests.server.conftest import PASSWORD
from tests.server.live import LiveHub
from tests.server.test_live import set_up


def test_the_td_saves_the_backup_and_restores_it_on_a_new_hub_in_three_actions(
        browser, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    old = LiveHub(tmp_path / "old", https=True).start()
    fresh = LiveHub(tmp_path / "fresh", https=True).start()
    try:
        td = old.td()
        now = to_moment(old.get("/api/time").json()["t1"]).replace(microsecond=0)
        set_up(td, now - timedelta(minutes=3), tables=4)
        token = LiveHub.token(td, 2)
        old_id = td.get("/api/td/backup/status").json()["hub_id"]

        phone = TdPhone(browser, old.url, PASSWORD)
        page = phone.page
        expect(page.locator("#backup-summary")).to_have_text("· never saved")
        expect(page.locator("#backup-remind")).to_contain_text("No hub backup saved yet")
        with page.expect_download() as saving:
            page.click("#btn-backup")
        saved = tmp_path / saving.value.suggested_filename
        saving.value.save_as(saved)
        assert saved.name.startswith(f"dipclock-hub-backup-{old_id}-")
        expect(page.locator("#backup-summary")).to_have_text("· saved just now")
        expect(page.locator("#backup-remind")).to_be_hidden()
        page.context.close()
        old.stop()  # the old hub card is lost

        new = TdPhone(browser, fresh.url, PASSWORD)  # action 1: sign in on the new hub
        new.page.set_input_files("#restore-file", saved)  # 2: choose the file; 3: confirm
        done = new.page.locator("#restore-done")
        expect(done).to_contain_text(f"hub {old_id}, 1 paired clock, 1 round)")
        expect(new.page.locator("#backup-summary")).to_have_text("· saved just now")
        # the restore is a change since: save a backup of this hub now
        expect(new.page.locator("#backup-remind")).to_contain_text("save it again")
        assert len(new.asked) == 1 and new.asked[0].startswith(
            f"Restore this hub from {saved.name}?"), new.asked
        assert new.errors == []
        new.page.locator("#backup-card").scroll_into_view_if_needed()
        new.page.screenshot(path=f"{SHOTS}/dipclock-hub-restored.png")

        r = httpx.get(f"{fresh.url}/api/tables/2/snapshot",
                      headers={"Authorization": f"Bearer {token}"},
                      verify=pinned(old.certificate), timeout=20)
        assert r.status_code == 200 and r.json()["hub"] == old_id, r.text
    finally:
        fresh.stop()
        old.stop()
