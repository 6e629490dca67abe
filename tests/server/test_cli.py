"""``dipclock hub``'s first start: a password from somewhere, never a default."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import time

import httpx
import pytest

from machine.passwords import verify_password
from server.cli import main
from tests.server.conftest import PASSWORD
from tests.server.live import ROOT, handing_over, hub_socket


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
    assert main(["--data", str(tmp_path), "--port", "65536"]) == 2
    assert capsys.readouterr().err == (
        "dipclock hub: error: --port 65536: must be 0-65535 (0: a free one)\n")
    assert main(["--data", str(tmp_path), "--port", "-1"]) == 2
    assert "--port -1: must be 0-65535" in capsys.readouterr().err


def test_the_hubs_errors_are_said_in_its_language(tmp_path, monkeypatch, capsys):
    """``dipclock hub --lang`` (else LANG) says its errors in that language, an option
    argparse refuses before ``--lang`` is read included."""
    assert main(["--data", str(tmp_path), "--port", "65536", "--lang", "de"]) == 2
    assert capsys.readouterr().err == (
        "dipclock hub: Fehler: --port 65536: muss 0–65535 sein (0: ein freier)\n")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    assert main(["--data", str(tmp_path), "--wait-for-sync", "-1"]) == 2
    assert capsys.readouterr().err == (
        "dipclock hub : erreur : --wait-for-sync -1 : donnez de 0 à 86400 secondes\n")
    assert main(["--data", str(tmp_path), "--lang", "it", "--bogus"]) == 2
    assert capsys.readouterr().err == (
        "dipclock hub: errore: argomenti non riconosciuti: --bogus\n")


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
    assert w.said == ["Waiting up to 90 s for the system clock to synchronise (NTP); the "
                      "addresses above answer once it has, or when the wait ends ...",
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


def test_a_restart_in_the_same_boot_does_not_wait_for_ntp_again(tmp_path):
    import json

    from server.cli import kept_this_boot
    from server.store import Store

    store = Store(tmp_path / "hub.sqlite3")
    assert kept_this_boot(tmp_path, "boot-1") is None
    store.set_meta("hub_time_anchor", json.dumps(
        {"boot": "boot-1", "minus_mono": 1.7e9, "standing": "set by the TD"}))
    store.close()
    assert kept_this_boot(tmp_path, "boot-1") == "set by the TD"
    assert kept_this_boot(tmp_path, "boot-2") is None and kept_this_boot(tmp_path, None) is None


# --- where a real hub listens -------------------------------------------------------------

def _printed_port(proc: subprocess.Popen[str], log) -> int:
    """The port in the hub's ``Listening:`` line, once it has printed it."""
    ends = time.monotonic() + 60  # a bound on a hang, not a timing margin
    while time.monotonic() < ends and proc.poll() is None:
        said = re.search(r"^Listening: .*, port (\d+)", log.read_text(), re.M)
        if said:
            return int(said[1])
        time.sleep(0.05)
    raise AssertionError(f"the hub printed no Listening line: {log.read_text()}")


def _answering(proc: subprocess.Popen[str], port: int, log) -> None:
    ends = time.monotonic() + 60  # a bound on a hang, not a timing margin
    while time.monotonic() < ends and proc.poll() is None:
        try:
            httpx.get(f"https://127.0.0.1:{port}/api/time", timeout=2, verify=False)
            return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError(f"the hub did not answer on port {port}: {log.read_text()}")


def _hub(tmp_path, *options: str, sock: socket.socket | None = None):
    """``dipclock hub`` with ``options``, or handed ``sock`` (``--fd``); and its log."""
    log = tmp_path / "hub.log"
    command = [sys.executable, "-m", "dipclock", "hub", "--data", str(tmp_path / "hub"),
               "--no-mdns", "--wait-for-sync", "0", *options]
    with log.open("w") as out:
        popen = {"cwd": ROOT, "env": os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD},
                 "stdout": out, "stderr": subprocess.STDOUT, "text": True}
        proc = (subprocess.Popen(command, **popen) if sock is None
                else handing_over(sock, command, **popen))
    return proc, log


def _hub_on(tmp_path, *host: str):
    """A real ``dipclock hub`` with the given --host (none: the default) on ``--port 0``: a
    free port the system picks, which the hub prints."""
    proc, log = _hub(tmp_path, "--port", "0", *host)
    port = _printed_port(proc, log)
    _answering(proc, port, log)
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


def test_port_0_is_a_free_port_and_every_line_gives_it(tmp_path):
    proc, port, log = _hub_on(tmp_path, "--host", "127.0.0.1")
    try:
        assert port != 0 and _answers("127.0.0.1", port), log.read_text()
        printed = log.read_text()
        assert f"Dashboard:  https://127.0.0.1:{port}/dashboard" in printed
        assert f"Hall clock: https://127.0.0.1:{port}/hall" in printed
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as other:  # another program listening there, all the test long
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        r = subprocess.run(
            [sys.executable, "-m", "dipclock", "hub", "--data", str(tmp_path / "hub"),
             "--host", "127.0.0.1", "--port", str(port), "--no-mdns", "--wait-for-sync", "0"],
            cwd=ROOT, env=os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD},
            capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr == (
        f"dipclock hub: error: port {port} on 127.0.0.1 is taken (another program, perhaps "
        "another hub, listens there): choose another with --port N\n")
    assert r.stdout == ""  # nothing said about where it listens: it does not


def test_fd_serves_the_socket_handed_over_and_says_its_address(tmp_path):
    sock = hub_socket()  # bound here, not listening: the hub listens on it
    port = sock.getsockname()[1]
    proc, log = _hub(tmp_path, sock=sock)
    try:
        _answering(proc, port, log)
        assert _answers("127.0.0.1", port), log.read_text()
        printed = log.read_text()
        assert f"Listening:  127.0.0.1 only, port {port}" in printed
        assert f"Dashboard:  https://127.0.0.1:{port}/dashboard" in printed
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert not _answers("127.0.0.1", port)  # nobody else kept the socket: refused now


def test_fd_takes_no_port_or_host_and_must_be_a_socket(tmp_path, capsys):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        fd = str(sock.fileno())
        assert main(["--data", str(tmp_path), "--fd", fd, "--port", "0"]) == 2
        assert capsys.readouterr().err == (
            "dipclock hub: error: --fd: the socket handed over has its own address; "
            "give no --host or --port with it\n")
        assert main(["--data", str(tmp_path), "--fd", fd, "--host", "127.0.0.1"]) == 2
        assert "give no --host or --port" in capsys.readouterr().err
    with (tmp_path / "a-file").open("w") as f:
        assert main(["--data", str(tmp_path), "--fd", str(f.fileno())]) == 2
        assert capsys.readouterr().err.startswith(
            f"dipclock hub: error: --fd {f.fileno()}: not an open socket (")


def test_the_help_says_fd_is_a_socket_handed_over(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--fd N serve the TCP socket open as file descriptor N" in text
    assert "0: a free one the system picks" in text


def test_the_help_says_the_default_is_every_address(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default 0.0.0.0: every address of this machine" in text
    assert "127.0.0.1: this machine only" in text


#: ``python -c UNSYNCED hub ...``: ``dipclock hub`` on a machine whose kernel says the system
#: clock is not synchronised (``machine.timesync.clock_synchronised``, read in the hub's own
#: process), whatever this machine's clock says
UNSYNCED = ("import machine.timesync as t; t.clock_synchronised = lambda *a, **k: False; "
            "from dipclock.launcher.cli import entry; entry()")


def test_the_addresses_are_printed_before_the_wait_for_ntp(tmp_path):
    """With ``--port 0`` only the printed lines give the port: they come before the wait
    (here an hour long), and say the hub answers once it is over."""
    log = tmp_path / "hub.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", UNSYNCED, "hub", "--data", str(tmp_path / "hub"),
             "--host", "127.0.0.1", "--port", "0", "--wait-for-sync", "3600"],
            cwd=ROOT, env=os.environ | {"DIPCLOCK_TD_PASSWORD": PASSWORD,
                                        "PYTHONUNBUFFERED": "1"},
            stdout=out, stderr=subprocess.STDOUT, text=True)
    try:
        port = _printed_port(proc, log)
        ends = time.monotonic() + 60  # a bound on a hang, not a timing margin
        while "Waiting up to" not in log.read_text() and time.monotonic() < ends:
            time.sleep(0.05)
        printed = log.read_text()
        starts = ("Certificate: ", "             the TD's phone", "Listening:  127.0.0.1",
                  "Dashboard:  ", "Hall clock: ", "Clocks:     ", "Not announced on the LAN",
                  "Waiting up to 3600 s")
        lines = printed.splitlines()
        assert len(lines) == len(starts) and all(
            line.startswith(start) for line, start in zip(lines, starts, strict=True)), printed
        assert f"Dashboard:  https://127.0.0.1:{port}/dashboard" in printed
        assert ("Waiting up to 3600 s for the system clock to synchronise (NTP); the addresses "
                "above answer once it has, or when the wait ends ...") in printed
        assert "Hub clock:" not in printed and proc.poll() is None  # still waiting
        assert not _answers("127.0.0.1", port)  # bound, not yet serving: refused
    finally:
        proc.terminate()
        proc.wait(timeout=20)
