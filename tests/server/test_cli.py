"""``dipclock hub``'s first start: a password from somewhere, never a default."""

from __future__ import annotations

import sqlite3

from server.cli import main
from server.passwords import verify_password


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
    key = cli.prepare(args)
    monkeypatch.setenv("DIPCLOCK_TD_PASSWORD", "another password")
    assert cli.prepare(args) == key  # same key, and the stored password is unchanged
    db = sqlite3.connect(tmp_path / "d" / "hub.sqlite3")
    stored = db.execute("SELECT value FROM meta WHERE key = 'td_password_hash'").fetchone()[0]
    db.close()
    assert verify_password("first password", stored)
    assert not verify_password("another password", stored)


def test_a_bad_port_exits_2(tmp_path, capsys):
    assert main(["--data", str(tmp_path), "--port", "0"]) == 2
    assert "--port 0" in capsys.readouterr().err
