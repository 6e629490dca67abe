"""``dipclock roster import|list|export`` on a hub's data folder (issue 36): the hub's own
store, the core's checks; a refused line stores nothing and exits 2 listing each refusal on
a line of its own, unless ``--keep-good``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dipclock.launcher.cli import main
from dipclock.roster import COLUMNS
from server.settings import Settings
from server.store import Store

HEADER = ",".join(COLUMNS)
ROSTER = (f"{HEADER}\n"
          "José,García,1,,12,,ES,Paris,yes,jg@x.es,Madrid\n"
          "John,Smith,1,,,,GB,,no,,\n"
          "John,Smith,2,,,,GB,,no,,\n")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A hub's data folder, its store made as the hub makes it."""
    folder = tmp_path / "data"
    folder.mkdir()
    Store(Settings(data_dir=folder).db_path).close()
    return folder


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def csv_file(tmp_path: Path, text: str | bytes, name: str = "roster.csv") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


def test_import_list_and_export_round_trip(capsys, tmp_path, data):
    code, out, err = run(capsys, "roster", "import", csv_file(tmp_path, ROSTER),
                         "--data", str(data))
    assert (code, out, err) == (0, "roster import: 3 added, 0 updated\n", "")
    code, out, _ = run(capsys, "roster", "list", "--data", str(data))
    assert code == 0
    assert out.splitlines() == [
        "Name            Nat        WDD  Pre  Club",
        "José García     ES          12  yes  Paris",
        "John Smith      GB           -  no",
        "John Smith (2)  GB           -  no",
        "3 people, 1 pre-registered"]
    code, out, _ = run(capsys, "roster", "list", "--data", str(data), "--json")
    listed = json.loads(out)
    assert listed[0] == {
        "id": 1, "name": "José García", "given_name": "José", "family_name": "García",
        "homonym": 1, "note": "", "wdd": 12, "wdr": None, "nationality": "ES",
        "club": "Paris", "preregistered": True, "email": "jg@x.es", "location": "Madrid"}
    code, out, _ = run(capsys, "roster", "export", "--data", str(data))
    assert (code, out) == (0, ROSTER)
    target = tmp_path / "out.csv"
    code, out, _ = run(capsys, "roster", "export", "--data", str(data), "--out", str(target))
    assert code == 0 and out == f"3 people written to {target}\n"
    assert target.read_bytes() == ROSTER.encode()


def test_a_refused_line_stores_nothing_and_exits_2_listing_each(capsys, tmp_path, data):
    path = csv_file(tmp_path, ROSTER + "John,Smith,,,,,GB,,,,\nAnn,Lee,,,,,XX,,,,\n")
    code, out, err = run(capsys, "roster", "import", path, "--data", str(data))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"dipclock: error: {path}: line 5: John Smith is already on line 3: two people of "
        "one name are told apart by a homonym number (2, 3...) or a note",
        f"dipclock: error: {path}: line 6: nationality: 'XX' is not a country code (ISO "
        "3166-1, two letters: FR, GB, US...)",
        "dipclock: error: 2 line(s) refused, nothing stored: fix the file, or give "
        "--keep-good to store the 3 good line(s)"]
    assert run(capsys, "roster", "export", "--data", str(data))[1] == HEADER + "\n"
    code, out, err = run(capsys, "roster", "import", path, "--data", str(data), "--keep-good")
    assert code == 0 and out == "roster import: 3 added, 0 updated, 2 lines refused\n"
    assert [line[:40] for line in err.splitlines()] == [
        f"dipclock: note: {path}: line 5: John"[:40], f"dipclock: note: {path}: line 6: nati"[:40]]
    assert run(capsys, "roster", "export", "--data", str(data))[1] == ROSTER


def test_replace_and_a_windows_1252_file(capsys, tmp_path, data):
    run(capsys, "roster", "import", csv_file(tmp_path, ROSTER), "--data", str(data))
    path = csv_file(tmp_path, "Given;Family;Ville\nJosé;García;Lyon\nÉmile;Zola;Paris\n"
                    .encode("cp1252"))
    code, out, err = run(capsys, "roster", "import", path, "--data", str(data), "--replace")
    assert code == 0 and out == "roster import: 1 added, 1 updated, 2 removed\n"
    assert err.splitlines() == [
        f"dipclock: note: {path}: the file is not UTF-8: read as Windows-1252 (Excel's CSV "
        "in Western Europe); check the accents, or save it as \"CSV UTF-8\"",
        f"dipclock: note: {path}: column 'Ville' is not one the roster keeps: ignored"]
    code, out, _ = run(capsys, "roster", "list", "--data", str(data))
    assert out.splitlines()[1:-1] == ["José García  -            -  no",
                                      "Émile Zola   -            -  no"]


@pytest.mark.parametrize(("argv", "said"), [
    (["roster"], "the following arguments are required: import|list|export"),
    (["roster", "list"], "the following arguments are required: --data"),
    (["roster", "list", "--data", "{tmp}/nowhere"],
     "--data {tmp}/nowhere: no hub's data there (hub.sqlite3): give the folder `dipclock "
     "hub --data` uses, or start the hub on it once"),
    (["roster", "import", "{tmp}/missing.csv", "--data", "{data}"],
     "{tmp}/missing.csv: cannot read it (No such file or directory)"),
    (["roster", "import", "{tmp}/bad.csv", "--data", "{data}"],
     "{tmp}/bad.csv: line 1: the first line names the columns, and names no given name "
     "column"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, data, argv, said):
    csv_file(tmp_path, "name,country\nAnn Lee,FR\n", "bad.csv")
    filled = [a.format(tmp=tmp_path, data=data) for a in argv]
    code, out, err = run(capsys, *filled)
    assert (code, out) == (2, "")
    assert err.startswith("dipclock: error: " + said.format(tmp=tmp_path, data=data))
    assert len(err.splitlines()) == 1


def test_a_data_folder_that_is_no_hub_s_store_is_one_line(capsys, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "hub.sqlite3").write_bytes(b"not a database at all" * 100)
    code, _, err = run(capsys, "roster", "list", "--data", str(folder))
    assert code == 2 and err.startswith(f"dipclock: error: --data {folder}: cannot open the "
                                        "hub's store")
