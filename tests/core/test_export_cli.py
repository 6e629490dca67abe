"""``dipclock export wdd|archive`` and ``dipclock import archive`` on a hub's data folder
(issue 36, "The command line"): the same files the hub serves, an archive carried from one
folder to another and back the same, and bad input refused with exit 2 and one line."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from dipclock.launcher.cli import main
from dipclock.sync import to_seconds
from machine.passwords import hash_password
from server import archive
from server.settings import Settings
from server.store import Store
from tests.doubles import FakeClock
from tests.server.conftest import PASSWORD, START, Hub
from tests.server.test_archive import play


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def empty(folder: Path) -> Path:
    """A hub's data folder, its store made as the hub makes it, no event."""
    folder.mkdir()
    Store(Settings(data_dir=folder).db_path).close()
    return folder


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes, bytes]:
    """A data folder with an event played on a hub (then stopped), and the WDD zip and the
    archive that hub served."""
    folder = tmp_path_factory.mktemp("played") / "data"
    hub = Hub(folder, hash_password(PASSWORD), FakeClock(to_seconds(START)))
    try:
        play(hub)
        wdd = hub.client.get("/api/td/export/wdd").content
        made = hub.client.get("/api/td/export/archive").content
    finally:
        hub.close()
    return folder, wdd, made


def test_export_wdd_writes_the_files_the_hub_serves(capsys, tmp_path, played):
    folder, wdd, _ = played
    out = tmp_path / "wdd"
    code, said, err = run(capsys, "export", "wdd", "--data", str(folder), "--out", str(out))
    assert (code, err) == (0, "")
    assert said == f"classification.csv and boards.csv written to {out}\n"
    with zipfile.ZipFile(io.BytesIO(wdd)) as z:
        for name in ("classification.csv", "boards.csv"):
            assert (out / name).read_bytes() == z.read(name)


def test_an_archive_carries_the_event_to_another_folder_and_back_the_same(
        capsys, tmp_path, played):
    folder, _, served = played
    first = tmp_path / "event.zip"
    code, said, _ = run(capsys, "export", "archive", "--data", str(folder), "--out",
                        str(first))
    assert code == 0 and said.startswith(f"event archive written to {first}")
    assert archive.canonical(first.read_bytes()) == archive.canonical(served)
    other = empty(tmp_path / "other")
    code, said, err = run(capsys, "import", "archive", str(first), "--data", str(other))
    assert (code, err) == (0, "")
    assert said == ("WDC XVI at BerliCon III, Berlin 2006 imported: 2 rounds, 14 people on "
                    "the roster\n")
    again = tmp_path / "again.zip"
    assert run(capsys, "export", "archive", "--data", str(other), "--out", str(again))[0] == 0
    assert archive.canonical(again.read_bytes()) == archive.canonical(served)
    # a folder holding an event is replaced only when asked, its database kept aside
    code, _, err = run(capsys, "import", "archive", str(first), "--data", str(other))
    assert code == 2 and err == (
        f"dipclock: error: --data {other} holds another event (2 rounds, 14 people on the "
        "roster, 4 result sheets): give --replace to replace it (its database is kept "
        "aside)\n")
    code, _, err = run(capsys, "import", "archive", str(first), "--data", str(other),
                       "--replace")
    assert code == 0 and err.startswith("dipclock: note: the replaced database is kept in ")


def _manifest(data: bytes, **changes: object) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        members = {n: z.read(n) for n in z.namelist()}
    members["manifest.json"] = json.dumps(json.loads(members["manifest.json"]) | changes
                                          ).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, body in members.items():
            z.writestr(name, body)
    return out.getvalue()


def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, played):
    _, _, served = played
    fresh = empty(tmp_path / "fresh")
    nowhere = tmp_path / "nowhere"
    bad = tmp_path / "bad.zip"
    cases: list[tuple[bytes | None, list[str], str]] = [
        (None, ["export", "wdd", "--data", str(nowhere), "--out", str(tmp_path / "o")],
         f"--data {nowhere}: no hub's data there (hub.sqlite3)"),
        (None, ["export", "archive", "--data", str(nowhere), "--out", str(bad)],
         f"--data {nowhere}: no hub's data there"),
        (None, ["export", "wdd", "--data", str(fresh), "--out", str(tmp_path / "o")],
         "no board's result is confirmed yet"),
        (b"hello", ["import", "archive", str(bad), "--data", str(fresh)],
         f"{bad}: this file is not a dipclock event archive"),
        (_manifest(served, version=7, dipclock="3.0"),
         ["import", "archive", str(bad), "--data", str(fresh)],
         f"{bad}: this event archive was made by a newer dipclock (3.0)"),
        (served[:len(served) // 2] + bytes(len(served) - len(served) // 2),
         ["import", "archive", str(bad), "--data", str(fresh)],
         f"{bad}: this file is not a dipclock event archive"),
        (_manifest(served, members={"meta.json": "0" * 64}),
         ["import", "archive", str(bad), "--data", str(fresh)],
         f"{bad}: this event archive is damaged ("),
        (None, ["import", "archive", str(tmp_path / "missing.zip"), "--data", str(fresh)],
         f"{tmp_path / 'missing.zip'}: cannot read it"),
    ]
    for data, argv, words in cases:
        if data is not None:
            bad.write_bytes(data)
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, ""), argv
        assert err.startswith(f"dipclock: error: {words}") and err.count("\n") == 1, err
    assert not list(fresh.glob(".import-*"))
