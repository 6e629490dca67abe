"""``dipclock hub``'s first start: a password from somewhere, never a default."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time

import httpx
import pytest

from server.cli import main
from server.passwords import verify_password
from tests.server.conftest import PASSWORD
from tests.server.live import ROOT, free_port


def test_a_short_password_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DIPCLOCK_TD_PASSWORD", raising=False)
    pw = tmp_path / "pw"
    pw.write_text("short\n")
    assert main(["--data", str(tmp_path / "d"), "--td-password-file", str(pw)]) == 2
    assert capsys.readouterr().err == (
        f"dipclock hub: error: the TD password needs at least 8 characters (from {pw})\n"
    )


def test_the_password_file_is_hashed_once_and_the_env_is_ignored_later(tmp_path, monkeypatch):
    from server import cli

    monkeypatch.delenv("DIPCLOCK_TD_PASSWORD", raising=False)
    pw = tmp_path / "pw"
    pw.write_text("first password\n")
    args = cli._parser().parse_args(["--data", str(tmp_path / "d"), "--td-password-file", str(pw)])
    cli.prepare(args)
    monkeypatch.setenv("DIPCLOCK_TD_PASSWORD", "another password")
    cli.prepare(args)  # a second start: the stored password is unchanged
    db = sqlite3.connect(tmp_path / "d" / "hub.sqlite3")
    stored = db.execute("SELECT value FROM meta WHERE key = 'td_password_hash'").fetchone()[0]
    db.close()
    assert verify_password("first password", stored)
    assert not verify_password("another password", stored)


def test_a_bad_port_exits_2(tmp_path, capsys):
    assert main(["--data", str(tmp_path), "--port", "0"]) == 2
    assert "--port 0" in capsys.readouterr().err


class Waiting:
    """The wait for NTP with a fake kernel and a fake clock: no test sleeps."""

    def __init__(self, answers: list[bool | None]) -> None:
        self.answers, self.t, self.slept, self.said = answers, 0.0, [], []

    def synced(self) -> bool | None:
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds

    def run(self, limit: float) -> bool | None:
        from server.cli import wait_for_sync

        return wait_for_sync(limit, synced=self.synced, mono=lambda: self.t, sleep=self.sleep,
                             say=self.said.append)


def test_the_hub_waits_for_ntp_says_so_once_and_how_it_ended():
    w = Waiting([False, False, False, True])
    assert w.run(90) is True
    assert w.slept == [1.0, 1.0, 1.0]
    assert w.said == ["Waiting up to 90 s for the system clock to synchronise (NTP) ...",
                      "System clock synchronised after 3 s."]


def test_with_no_time_server_the_hub_starts_anyway_after_the_wait():
    w = Waiting([False])
    assert w.run(2.5) is False
    assert sum(w.slept) == 2.5 and len(w.said) == 2
    assert w.said[1].startswith("The system clock is still not synchronised after 2.5 s: "
                                "starting anyway.")


def test_no_wait_when_told_or_synchronised_or_nobody_can_tell():
    for answers, limit in (([False], 0), ([True], 90), ([None], 90)):
        w = Waiting(answers)
        assert w.run(limit) is answers[0]
        assert w.slept == [] and w.said == []


def test_a_bad_wait_exits_2(tmp_path, capsys):
    assert main(["--data", str(tmp_path), "--wait-for-sync", "-1"]) == 2
    assert "--wait-for-sync -1: give 0 to 86400 seconds" in capsys.readouterr().err
    assert main(["--data", str(tmp_path), "--wait-for-sync", "soon"]) == 2
    assert "argument --wait-for-sync: invalid float value: 'soon'" in capsys.readouterr().err


def test_a_restart_after_the_td_set_the_time_does_not_wait_again(tmp_path):
    import json

    from server.cli import td_set_this_boot
    from server.store import Store

    store = Store(tmp_path / "hub.sqlite3")
    assert not td_set_this_boot(tmp_path, "boot-1")
    store.set_meta_once("clock_correction", json.dumps({"boot": "boot-1", "correction": 60}))
    store.close()
    assert td_set_this_boot(tmp_path, "boot-1")
    assert not td_set_this_boot(tmp_path, "boot-2") and not td_set_this_boot(tmp_path, None)


# --- where a real hub listens -------------------------------------------------------------

def _hub_on(tmp_path, *host: str):
    """A real ``dipclock hub`` on a free port with the given --host (none: the default)."""
    port = free_port()
    log = tmp_path / "hub.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "dipclock", "hub", "--data", str(tmp_path / "hub"),
             "--port", str(port), "--no-mdns", "--wait-for-sync", "0", *host],
            cwd=ROOT, env=os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD}, stdout=out,
            stderr=subprocess.STDOUT)
    ends = time.monotonic() + 60  # a bound on a hang, not a timing margin
    while time.monotonic() < ends and proc.poll() is None:
        try:
            httpx.get(f"https://127.0.0.1:{port}/api/time", timeout=2, verify=False)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    return proc, port, log


def _answers(address: str, port: int) -> bool:
    try:
        # which addresses it answers on: the certificate is another test's
        return httpx.get(f"https://{address}:{port}/api/time", timeout=5,
                         verify=False).status_code == 200
    except httpx.TransportError:
        return False


def test_a_hub_listens_on_every_address_by_default_and_says_so(tmp_path):
    """A hall's kiosks reach the hub over the LAN: every address unless --host narrows it.
    127.0.0.2 stands for another address of this machine (a socket bound to 127.0.0.1
    refuses it; one bound to 0.0.0.0 answers)."""
    proc, port, log = _hub_on(tmp_path)
    try:
        assert _answers("127.0.0.2", port), log.read_text()
        assert (f"Listening:  every address of this machine (0.0.0.0), port {port}; "
                "--host 127.0.0.1 for this machine only") in log.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_host_keeps_the_hub_to_one_address_and_says_so(tmp_path):
    proc, port, log = _hub_on(tmp_path, "--host", "127.0.0.1")
    try:
        assert _answers("127.0.0.1", port), log.read_text()
        assert not _answers("127.0.0.2", port)
        assert f"Listening:  127.0.0.1 only, port {port}" in log.read_text()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_help_says_the_default_is_every_address(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default 0.0.0.0: every address of this machine" in text
    assert "127.0.0.1: this machine only" in text
