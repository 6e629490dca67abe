"""A replaced hub wins the hall back (issue 35, item 5): the hub backup (``server.backup``),
saved by the TD, restored on a freshly started hub, which then is the old hub: its id, its
certificate (the one every clock pinned), its clocks' tokens and its round.

On real uvicorns over HTTPS (``tests.server.live``) for the identity and the credential
checks before the body; on the ``hub`` fixture for the files a restore refuses.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sqlite3
import ssl
import time
import zipfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from dipclock.sync import to_moment
from kiosk.pairing import pinned
from machine.fingerprint import of_pem
from machine.passwords import hash_password
from server import backup
from server.app import create_app
from server.settings import Settings
from tests.server.conftest import PASSWORD, Hub
from tests.server.live import LiveHub
from tests.server.rawhttp import headers_only
from tests.server.test_live import set_up

#: a bound on a hang only: each answer here comes at once or the hub is broken
PATIENCE = 20.0


@pytest.fixture
def old(tmp_path: Path) -> Iterator[LiveHub]:
    hub = LiveHub(tmp_path / "old", https=True).start()
    yield hub
    hub.stop()


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[LiveHub]:
    hub = LiveHub(tmp_path / "fresh", https=True).start()
    yield hub
    hub.stop()


def test_a_fresh_hub_restored_from_the_backup_is_the_old_hub(old: LiveHub, fresh: LiveHub):
    """Backup, restore on a fresh hub in one request, then: the fresh hub serves the old
    certificate (a clock's pin holds), has the old id, accepts the old clock's token for its
    table and holds the old round's deadline; the TD stays signed in."""
    td = old.td()
    now = to_moment(old.get("/api/time").json()["t1"])
    set_up(td, (now - timedelta(minutes=5)).replace(microsecond=0))
    token = LiveHub.token(td, 3)
    snapshot = old.get("/api/tables/3/snapshot",
                       headers={"Authorization": f"Bearer {token}"}).json()
    old_id = td.get("/api/td/backup/status").json()["hub_id"]
    saved = td.get("/api/td/backup")
    assert saved.status_code == 200, saved.text
    assert saved.headers["content-type"] == "application/zip"
    assert old_id in saved.headers["content-disposition"]
    assert of_pem(old.certificate) != of_pem(fresh.certificate)
    old.stop()  # the old hub card is dead

    new_td = fresh.td()
    assert new_td.get("/api/td/backup/status").json()["hub_id"] != old_id
    r = new_td.post("/api/td/restore", content=saved.content,
                    headers={"Content-Type": "application/zip"})
    assert r.status_code == 200, r.text
    said = r.json()
    assert said["hub_id"] == old_id and said["fingerprint"] == of_pem(old.certificate)
    assert said["clocks"] == 1 and said["rounds"] == 1
    assert (fresh.data / said["aside"] / "hub.sqlite3").is_file()  # the replaced one, kept

    # a new connection to the fresh hub: a clock that pinned the OLD certificate takes it
    old_pin = pinned(old.certificate)
    got = httpx.get(f"{fresh.url}/api/tables/3/snapshot",
                    headers={"Authorization": f"Bearer {token}"}, verify=old_pin,
                    timeout=PATIENCE)
    assert got.status_code == 200, got.text
    assert got.json()["hub"] == snapshot["hub"] == old_id
    assert got.json()["schedule"] == snapshot["schedule"] is not None  # the round's deadlines
    with pytest.raises(httpx.ConnectError):  # the fresh hub's own certificate is gone
        httpx.get(f"{fresh.url}/api/time", verify=pinned(fresh.certificate), timeout=PATIENCE)
    # the TD is still signed in, on the old certificate now
    with httpx.Client(base_url=fresh.url, cookies=new_td.cookies, verify=old_pin,
                      timeout=PATIENCE) as again:
        status = again.get("/api/td/backup/status")
        assert status.status_code == 200 and status.json()["hub_id"] == old_id
        state = again.get("/api/td/state").json()
        assert state["clocks"]["fingerprint"] == of_pem(old.certificate)
    # and the restored hub keeps it across a restart (the files are in its data folder)
    fresh.stop()
    fresh.verify = old_pin
    fresh.start()
    got = httpx.get(f"{fresh.url}/api/tables/3/snapshot",
                    headers={"Authorization": f"Bearer {token}"}, verify=old_pin,
                    timeout=PATIENCE)
    assert got.status_code == 200 and got.json()["hub"] == old_id


def _headers_only(hub: LiveHub, path: str, length: int) -> tuple[int, dict[str, str]]:
    """Send a POST's headers over TLS, announcing ``length`` bytes, and no body: the status
    and JSON of the answer (a hub that read the body first would answer nothing)."""
    ctx = pinned(hub.certificate)
    assert isinstance(ctx, ssl.SSLContext)
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{hub.port}",
             "Content-Type: application/zip", f"Content-Length: {length}"]
    with socket.create_connection(("127.0.0.1", hub.port), timeout=PATIENCE) as raw, \
            ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s:
        return headers_only(s, lines, f"POST {path}", PATIENCE)


def test_an_anonymous_restore_is_refused_before_its_body_is_read(fresh: LiveHub):
    assert _headers_only(fresh, "/api/td/restore", 10_000_000) == (
        401, {"detail": "sign in as the TD first"})


# --- the files a restore refuses ---------------------------------------------------------


@pytest.fixture
def made(hub: Hub, td: dict[str, str]) -> bytes:
    """A good backup of ``hub`` (a round set up, a clock paired)."""
    hub.token(2)
    r = hub.client.get("/api/td/backup")
    assert r.status_code == 200, r.text
    return r.content


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


def _with_manifest(data: bytes, **changes: object) -> bytes:
    members = _members(data)
    manifest = json.loads(members["manifest.json"]) | changes
    return _zip(members | {"manifest.json": json.dumps(manifest).encode()})


def _damaged_database(data: bytes) -> bytes:
    """The backup with a database SQLite finds damaged, its checksum made to match (so the
    integrity check is what refuses it)."""
    members = _members(data)
    db = bytearray(members["hub.sqlite3"])
    page = 4096
    db[page + 16: page + 2000] = bytes(range(256)) * 7 + bytes(192)  # page 2's cells: garbage
    manifest = json.loads(members["manifest.json"])
    manifest["members"]["hub.sqlite3"] = backup._sha256(bytes(db))
    return _zip(members | {"hub.sqlite3": bytes(db),
                           "manifest.json": json.dumps(manifest).encode()})


def _newer_schema(data: bytes) -> bytes:
    members = _members(data)
    con = sqlite3.connect(":memory:")
    con.deserialize(members["hub.sqlite3"])
    con.execute("PRAGMA user_version = 9999")
    db = con.serialize()
    con.close()
    manifest = json.loads(members["manifest.json"])
    manifest["members"]["hub.sqlite3"] = backup._sha256(db)
    return _zip(members | {"hub.sqlite3": db, "manifest.json": json.dumps(manifest).encode()})


BAD = {
    "not a zip": (lambda d: b"hello, this is a shopping list\n", "not a dipclock hub backup"),
    "truncated": (lambda d: d[: len(d) // 2], "not a dipclock hub backup"),
    "a foreign zip": (lambda d: _zip({"photo.jpg": b"\xff\xd8\xff"}),
                      "not a dipclock hub backup"),
    "another format": (lambda d: _with_manifest(d, format="something else"),
                       "not a dipclock hub backup"),
    "a newer format": (lambda d: _with_manifest(d, version=2, dipclock="9.0"),
                       "made by a newer dipclock (9.0): update this hub first"),
    "a member changed": (lambda d: _zip(_members(d) | {"hub.sqlite3": b"x"}),
                         "hub.sqlite3 does not match its checksum"),
    "a member it does not list": (lambda d: _zip(_members(d) | {"run-me.sh": b"rm -rf /"}),
                                  "run-me.sh is not one of its files"),
    "a member missing": (lambda d: _zip({k: v for k, v in _members(d).items()
                                         if k != "hub.sqlite3"}),
                         "hub.sqlite3 cannot be read"),
    "a damaged database": (_damaged_database, "damaged"),
    "a newer database": (_newer_schema, "newer dipclock (database version 9999)"),
    "another hub's id": (lambda d: _with_manifest(d, hub_id="0123456789abcdef"),
                         "of another hub"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_file_that_is_not_a_good_backup_is_refused_in_one_line(
        hub: Hub, made: bytes, case: str):
    spoil, words = BAD[case]
    csrf = hub.sign_in()
    before = hub.client.get("/api/td/backup/status").json()["hub_id"]
    r = hub.client.post("/api/td/restore?replace=true", content=spoil(made), headers=csrf)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and words in detail and "\n" not in detail
    assert "Traceback" not in r.text
    assert hub.client.get("/api/td/backup/status").json()["hub_id"] == before  # unchanged
    assert not list(hub.data_dir.glob(".restore-*"))  # nothing unpacked is left behind


def test_a_restore_over_a_hub_in_use_asks_a_second_confirm(hub: Hub, td: dict[str, str],
                                                           tmp_path: Path):
    """A hub with its own round and clocks: refused (409) unless the TD confirms replacing
    them; then replaced, its own files kept aside."""
    other = Hub(tmp_path / "other", hub.password_hash, hub.clock)
    try:
        other_td = other.sign_in()
        other.set_up(other_td, tables=2)
        other.token(1)
        saved = other.client.get("/api/td/backup").content
        other_id = other.client.get("/api/td/backup/status").json()["hub_id"]
    finally:
        other.close()
    hub.token(4)
    r = hub.client.post("/api/td/restore", content=saved, headers=td)
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == (
        "this hub already has 1 paired clock and 1 round: restoring the backup replaces "
        "them (they are kept aside). Confirm again to replace them.")
    r = hub.client.post("/api/td/restore?replace=true", content=saved, headers=td)
    assert r.status_code == 200, r.text
    assert r.json()["hub_id"] == other_id
    assert hub.client.get("/api/td/backup/status").json()["hub_id"] == other_id
    assert any(p.name.startswith("replaced-") for p in hub.data_dir.iterdir())


def test_the_dashboard_reminds_to_save_the_backup_after_pairing(hub: Hub, td: dict[str, str]):
    status = hub.client.get("/api/td/backup/status").json()
    assert status["downloaded_ago_s"] is None and status["remind"] is True
    hub.client.get("/api/td/backup")
    status = hub.client.get("/api/td/backup/status").json()
    assert status["downloaded_ago_s"] == 0 and status["remind"] is False
    r = hub.client.post("/api/pair", json={"kiosk": "k", "token_hash": "a" * 64, "table": 1})
    hub.client.post("/api/td/clocks", json={"code": r.json()["code"], "table": 1}, headers=td)
    assert hub.client.get("/api/td/backup/status").json()["remind"] is True


def test_only_the_td_gets_the_backup(hub: Hub):
    r = hub.client.get("/api/td/backup")
    assert r.status_code == 401 and r.json() == {"detail": "sign in as the TD first"}


# --- the backup the hub keeps in its data folder ---------------------------------------------


def test_the_kept_backup_is_replaced_whole_or_not_at_all(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    """A write that fails midway (the disk full, the power cut before the rename) leaves
    the last backup as it was, and no temporary file."""
    path = tmp_path / backup.BACKUP_NAME
    backup.write_atomically(path, b"the last good backup")
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the TLS key

    def fails(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fails)
    with pytest.raises(OSError):
        backup.write_atomically(path, b"a new backup, cut short")
    monkeypatch.undo()
    assert path.read_bytes() == b"the last good backup"
    assert [p.name for p in tmp_path.iterdir()] == [backup.BACKUP_NAME]


def test_the_hub_keeps_a_backup_in_its_data_folder_after_each_change(tmp_path: Path):
    """Written one ``backup_seconds`` after start and after each TD change, a good
    backup each time (the store's state of that moment, checked as a restore checks it)."""
    data = tmp_path / "data"
    settings = Settings(data_dir=data, td_password_hash=hash_password(PASSWORD),
                        backup_seconds=0.05)
    kept = data / backup.BACKUP_NAME

    def wait_for(what: str, test: object) -> None:
        deadline = time.monotonic() + PATIENCE
        while not test():  # type: ignore[operator]
            if time.monotonic() > deadline:
                pytest.fail(f"no kept backup {what} within {PATIENCE:g} s")
            time.sleep(0.02)

    def rounds() -> int:
        checked = backup.check(kept.read_bytes(), tmp_path)
        checked.discard()
        return checked.rounds

    with TestClient(create_app(settings)) as client:
        wait_for("at start", kept.exists)
        assert rounds() == 0
        csrf = {"X-CSRF-Token": client.post("/api/login",
                                            json={"password": PASSWORD}).json()["csrf"]}
        for method, path, body in (("PUT", "/api/td/event", {"builtin": "wdc2006"}),
                                   ("PUT", "/api/td/round",
                                    {"number": 1, "start": "2024-05-04T09:00:00"})):
            assert client.request(method, path, json=body, headers=csrf).status_code == 200
        wait_for("holding round 1", lambda: rounds() == 1)
    assert not list(data.glob(".*.tmp"))


class _Announced:
    """``server.mdns.Announcement`` as a test sees it: which ids are on the air."""

    on_air: list[str] = []

    def __init__(self, hub_id: str, scheme: str, host: str, port: int) -> None:
        self.hub_id = hub_id

    async def start(self) -> bool:
        _Announced.on_air.append(self.hub_id)
        return True

    async def stop(self) -> None:
        _Announced.on_air.remove(self.hub_id)


def test_the_restored_hub_announces_the_old_id(hub: Hub, made: bytes, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch):
    """What a paired clock browses for (mDNS TXT ``id``): the old hub's, in place of the
    fresh hub's own."""
    import server.app
    import server.mdns

    old_id = hub.client.get("/api/td/backup/status").json()["hub_id"]
    monkeypatch.setattr(server.app, "Announcement", _Announced)
    monkeypatch.setattr(server.mdns, "Announcement", _Announced)
    settings = Settings(data_dir=tmp_path / "fresh", td_password_hash=hub.password_hash,
                        mdns=True)
    with TestClient(create_app(settings)) as fresh:
        assert len(_Announced.on_air) == 1 and _Announced.on_air[0] != old_id
        fresh_id = _Announced.on_air[0]
        csrf = {"X-CSRF-Token": fresh.post("/api/login",
                                           json={"password": PASSWORD}).json()["csrf"]}
        r = fresh.post("/api/td/restore", content=made, headers=csrf)
        assert r.status_code == 200, r.text
        assert _Announced.on_air == [old_id] != [fresh_id]
    assert _Announced.on_air == []  # the restored one is the one stopped at the end
