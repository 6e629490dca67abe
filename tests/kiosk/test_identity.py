"""A hall of cloned cards: table, hub and key from the boot partition file or the hostname."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from kiosk.options import build_parser, read_settings, settings_from, watched_files
from kiosk.startup import own_outbox
from machine.identity import (
    IdentityError,
    Refusal,
    board_serial,
    hub_url,
    line_words,
    parse_boot_file,
    parse_boot_lines,
    read_boot,
    read_boot_file,
    refusal_notes,
    table_from_hostname,
)

F = Path("/boot/firmware/dipclock.txt")


def test_a_laptops_file_is_read_as_meant() -> None:
    # a BOM, CRLF, quotes, spaces, ':' for '=', upper case, comments
    text = ('\ufeff# table 7, hall B\r\nTABLE = " 7"\r\n'
            "  hub: http://10.0.0.1:8000/   # the hub\r\nkey = 'abc-DEF_123'\r\n\r\n")
    got = parse_boot_file(text, F)
    assert (got.table, got.hub, got.key) == (7, "http://10.0.0.1:8000", "abc-DEF_123")
    assert got.settings() == {"table": 7, "hub": "http://10.0.0.1:8000", "key": "abc-DEF_123"}


def test_the_cards_own_settings_are_read_as_a_laptop_wrote_them() -> None:
    text = ('ROLE = Hub\r\nwifi_name = "Hall B # upstairs"\r\n'
            "wifi_password = 'pass #word1'  # quoted: the # is the password's\r\n"
            "wifi_country = gb\r\ntimezone: Europe/Vienna\r\nsize = 1280x720\r\n"
            "ssh_key = ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB td@laptop\r\n"
            "td_password = correct horse\r\n")
    got = parse_boot_file(text, F)
    assert (got.role, got.wifi_name, got.wifi_password, got.wifi_country, got.timezone) == (
        "hub", "Hall B # upstairs", "pass #word1", "GB", "Europe/Vienna")
    assert got.ssh_key == "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB td@laptop"
    assert got.td_password == "correct horse"
    assert got.settings() == {"size": "1280x720"}  # what the kiosk takes of it
    plain = parse_boot_file("table = 4\n", F)
    assert (plain.role, plain.wifi_name, plain.timezone) == ("table", None, None)
    # an open network: a name and no password; a 64-digit hex key is a WPA key too
    assert parse_boot_file("wifi_name = Cafe\n", F).wifi_password is None
    assert parse_boot_file(f"wifi_name = Cafe\nwifi_password = {'ab' * 32}\n", F).wifi_password


def test_the_cards_template_says_nothing_until_a_line_is_uncommented() -> None:
    """card/files/boot/dipclock.txt: every setting commented out, each one valid once its #
    is removed (bar the hub-only and kiosk-only ones taken together below)."""
    template = (Path(__file__).resolve().parents[2] / "card/files/boot/dipclock.txt").read_text()
    assert parse_boot_file(template, F).settings() == {}
    settings = [line[2:] for line in template.splitlines()
                if re.match(r"^# [a-z_]+ = ", line)]
    keys = [line.split(" = ")[0] for line in settings]
    assert set(keys) >= {"role", "table", "hub", "wifi_name", "wifi_password", "wifi_country",
                         "timezone", "size", "td_password", "ssh_key"}
    for line in settings:
        key = line.split(" = ")[0]
        if key in {"rotate", "td_password", "ssh_key", "wifi_password"}:
            continue  # rotate: the kiosk's; the others are placeholders the TD fills in
        parse_boot_file(line + "\n", F)
    assert parse_boot_file("role = hub\ntd_password = choose one\n", F).td_password


def test_hub_auto_and_a_bare_address() -> None:
    assert parse_boot_file("hub = AUTO\n", F).hub == "auto"
    assert parse_boot_file("hub = 10.0.0.1:8000\n", F).hub == "https://10.0.0.1:8000"
    assert hub_url("https://hub.local") == "https://hub.local"


MISTAKES = [
    ("table = 7\ntabel = 8\n", "line 2: unknown key 'tabel' (the keys are table, hub, "
                               "rotate, language, role, wifi_name, wifi_password, wifi_country, "
                               "timezone, size, ssh_key and td_password)"),
    ("role = server\n", "line 1: role is table or hub, not 'server'"),
    ("role = hub\ntable = 3\n", "line 2: a hub has no table"),
    ("wifi_password = secret99\n", "line 1: a Wi-Fi password needs its network"),
    ("wifi_name = Hall\nwifi_password = short\n", "line 2: a WPA password has 8 to 63 "
                                                  "characters, not 5"),
    ("wifi_name = " + "x" * 33 + "\n", "line 1: a Wi-Fi name has at most 32 bytes"),
    ("wifi_country = GBR\n", "line 1: wifi_country is a two-letter code"),
    ("timezone = Europe/Londn\n", "line 1: no time zone 'Europe/Londn'"),
    ("timezone = ../../etc/passwd\n", "line 1: no time zone '../../etc/passwd'"),
    ("size = big\n", "line 1: size is like 1920x1080, not 'big'"),
    ("ssh_key = AAAAC3NzaC1lZDI1NTE5\n", "line 1: ssh_key is one public key line"),
    ("role = hub\ntd_password = 1234\n", "line 2: the TD password needs at least 8"),
    ("rotate = 45\n", "line 1: rotate must be 0, 90, 180 or 270 (the picture turned "
                      "clockwise), not '45'"),
    ("rotate = left\n", "line 1: rotate must be 0, 90, 180 or 270"),
    ("table = 7\n\ntable = 8\n", "line 3: table is given twice (first on line 1)"),
    ("table = seven\n", "line 1: table must be a number from 1 to 999, not 'seven'"),
    ("table = 0\n", "line 1: table must be a number"),
    ("table 7\n", "line 1: expected 'name = value'"),
    ("key =\n", "line 1: key has no value"),
    ("hub = http://10.0.0.1:80:80\n", "line 1: 'http://10.0.0.1:80:80' is not a hub address"),
    ("size = 9999x9999\n", "line 1: size is like 1920x1080, not '9999x9999'"),
]


@pytest.mark.parametrize(("text", "message"), MISTAKES)
def test_a_mistake_is_one_line_naming_the_file_the_line_and_the_key(
    text: str, message: str
) -> None:
    with pytest.raises(IdentityError) as caught:
        parse_boot_file(text, F)
    said = str(caught.value)
    assert said.startswith(f"{F} ") and message in said and "\n" not in said


@pytest.mark.parametrize(("text", "message"), MISTAKES)
def test_a_mistake_costs_its_own_line_and_every_other_line_is_taken(
    text: str, message: str
) -> None:
    """One typo must not cost the card its Wi-Fi, its hostname or its role: the lenient
    reading (the card's and the kiosk's) refuses the line alone, with the strict message."""
    key, good = next((k, v) for k, v in (("wifi_country", "gb"), ("size", "1280x720"))
                     if k not in text)
    got = parse_boot_lines(f"{text}{key} = {good}\n", F)
    assert len(got.refused) == 1, got.refused
    said = str(got.refused[0])
    assert said.startswith(f"{F} ") and message in said and "\n" not in said
    assert getattr(got, key) == good.upper() if key == "wifi_country" else good


def test_one_bad_line_among_good_ones_is_refused_alone() -> None:
    text = ("role = hub\nwifi_name = Hall B\nwifi_password = correct horse\n"
            "tabel = 4\nwifi_country = at\ntimezone = Europe/Vienna\n")
    got = parse_boot_lines(text, F)
    assert (got.role, got.wifi_name, got.wifi_password, got.wifi_country, got.timezone) == (
        "hub", "Hall B", "correct horse", "AT", "Europe/Vienna")
    assert got.refused == (Refusal(F, 4, "tabel", "unknown key 'tabel' (the keys are table, "
                                   "hub, rotate, language, role, wifi_name, wifi_password, "
                                   "wifi_country, timezone, size, ssh_key and td_password)"),)
    assert got.refused[0].shown() == ("dipclock.txt line 4 not used: unknown key 'tabel', "
                                      "did you mean table?")
    assert refusal_notes(got.refused) == (
        got.refused[0].shown(),
        "Fix: correct line 4 of dipclock.txt on a laptop (the DIPCLOCK drive)")
    with pytest.raises(IdentityError, match="line 4: unknown key 'tabel'"):
        parse_boot_file(text, F)  # the strict reading is still there for who wants it


def test_of_two_lines_that_disagree_the_one_that_would_mislead_gives_way() -> None:
    # a hub card that started as a table would strand the hall: the table line goes
    got = parse_boot_lines("role = hub\ntable = 3\n", F)
    assert (got.role, got.table) == ("hub", None)
    assert [(r.line, r.key) for r in got.refused] == [(2, "table")]
    assert "a hub has no table" in str(got.refused[0])
    # a password without its network: the password line; its network refused: said so
    got = parse_boot_lines("table = 2\nwifi_password = secret99\n", F)
    assert (got.table, got.wifi_password) == (2, None)
    assert [(r.line, r.key) for r in got.refused] == [(2, "wifi_password")]
    got = parse_boot_lines("wifi_name = " + "x" * 33 + "\nwifi_password = secret99\n", F)
    assert (got.wifi_name, got.wifi_password) == (None, None)
    assert [str(r).split(": ", 1)[1] for r in got.refused] == [
        "a Wi-Fi name has at most 32 bytes",
        "a Wi-Fi password needs its network, and the wifi_name on line 1 was refused"]
    assert line_words(got.refused) == "lines 1 and 2"
    # a bad role is the default role, table; a repeated key keeps its first line
    got = parse_boot_lines("role = server\ntable = 3\ntable = 4\n", F)
    assert (got.role, got.table) == ("table", 3)
    assert [(r.line, r.key) for r in got.refused] == [(1, "role"), (3, "table")]


def test_a_boot_file_that_cannot_be_read_is_one_refusal_not_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "dipclock.txt"
    folder.mkdir()  # read_bytes: IsADirectoryError, as an unreadable file would be
    got = read_boot((folder,))
    assert got is not None and got.settings() == {}
    assert [(r.line, r.key) for r in got.refused] == [(None, None)]
    assert str(got.refused[0]).startswith(f"{folder}: cannot read it")
    assert refusal_notes(got.refused)[-1] == ("Fix: correct dipclock.txt on a laptop "
                                              "(the DIPCLOCK drive)")
    with pytest.raises(IdentityError, match="cannot read it"):
        read_boot_file((folder,))


def test_bookworms_path_first_then_the_older_one(tmp_path: Path) -> None:
    new, old = tmp_path / "firmware" / "dipclock.txt", tmp_path / "dipclock.txt"
    assert read_boot_file((new, old)) is None
    old.write_text("table = 4\n")
    assert read_boot_file((new, old)).table == 4  # type: ignore[union-attr]
    new.parent.mkdir()
    new.write_bytes("table = 5 # caf\xe9\n".encode("latin-1"))  # a Windows editor's file
    assert read_boot_file((new, old)).table == 5  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "table"),
    [("table-07", 7), ("dipclock-table-7", 7), ("TABLE-12.local", 12), ("table3", 3),
     ("raspberrypi", None), ("table-0", None), ("table-1234", None), ("mytable-3", None)],
)
def test_the_hostname_names_the_table(name: str, table: int | None) -> None:
    assert table_from_hostname(name) == table


def _settings(tmp_path: Path, *argv: str, hostname: int | None = None,
              toml: str | None = None, boot: str | None = None):  # noqa: ANN202
    config, boot_file = tmp_path / "kiosk.toml", tmp_path / "dipclock.txt"
    if toml is not None:
        config.write_text(toml)
    if boot is not None:
        boot_file.write_text(boot)
    args = build_parser().parse_args(
        [*(["--config", str(config)] if toml is not None else []),
         "--boot-file", str(boot_file), *argv])
    return read_settings(args, hostname=lambda: hostname)


def test_options_beat_the_boot_file_beats_kiosk_toml_beats_the_hostname(tmp_path: Path) -> None:
    toml = 'table = 2\nhub = "http://10.0.0.2:8000"\nkey = "toml"\nsound = true\n'
    boot = "table = 3\nhub = auto\n"
    s = _settings(tmp_path, hostname=9, toml=toml, boot=boot).settings
    assert (s.table, s.hub, s.key, s.sound) == (3, "auto", "toml", True)
    assert s.finds_hub
    s = _settings(tmp_path, "--table", "4", "--hub", "http://10.0.0.4:8000", hostname=9,
                  toml=toml, boot=boot).settings
    assert (s.table, s.hub, s.finds_hub) == (4, "http://10.0.0.4:8000", False)
    (tmp_path / "dipclock.txt").unlink()
    s = _settings(tmp_path, hostname=9, toml="sound = true\n").settings
    assert s.table == 9
    s = _settings(tmp_path, hostname=None, toml="sound = true\n").settings
    assert s.table is None


def test_rotate_comes_from_the_boot_file_kiosk_toml_or_the_command_line(tmp_path: Path) -> None:
    """How each table's TV hangs differs between cloned cards: dipclock.txt says it too."""
    assert parse_boot_file("rotate = 90\n", F).settings() == {"rotate": 90}
    assert _settings(tmp_path, toml="").settings.rotate == 0
    assert _settings(tmp_path, toml="rotate = 180\n").settings.rotate == 180
    boot = "rotate = '270'\n"
    assert _settings(tmp_path, toml="rotate = 180\n", boot=boot).settings.rotate == 270
    assert _settings(tmp_path, "--rotate", "90", toml="rotate = 180\n",
                     boot="rotate = 270\n").settings.rotate == 90


def test_a_rotation_that_is_no_quarter_turn_is_refused(tmp_path: Path) -> None:
    from dipclock.arguments import UsageError
    from kiosk.config import ConfigError

    with pytest.raises(ConfigError, match=r"kiosk.toml: rotate: Input should be 0, 90, 180 or 270"):
        _settings(tmp_path, toml="rotate = 45\n")
    with pytest.raises(UsageError, match="--rotate: invalid choice: 45"):
        _settings(tmp_path, "--rotate", "45", toml="")


def test_a_key_without_an_address_finds_the_hub(tmp_path: Path) -> None:
    s = _settings(tmp_path, boot="table = 3\nkey = K\n").settings
    assert s.hub is None and s.finds_hub


def test_every_file_read_or_looked_for_is_watched(tmp_path: Path) -> None:
    loaded = _settings(tmp_path, toml="table = 2\n")
    args = build_parser().parse_args(["--config", str(tmp_path / "kiosk.toml"),
                                      "--boot-file", str(tmp_path / "dipclock.txt")])
    assert watched_files(args) == [tmp_path / "kiosk.toml", tmp_path / "dipclock.txt"]
    assert loaded.config == tmp_path / "kiosk.toml"
    assert watched_files(build_parser().parse_args([]))[1:] == [
        Path("/boot/firmware/dipclock.txt"), Path("/boot/dipclock.txt")]


def test_settings_from_reads_the_boot_file_too(tmp_path: Path) -> None:
    f = tmp_path / "dipclock.txt"
    f.write_text("table = 11\n")
    assert settings_from(build_parser().parse_args(["--boot-file", str(f)])).table == 11


def test_the_board_serial_comes_from_the_device_tree_or_cpuinfo(tmp_path: Path) -> None:
    dt = tmp_path / "serial-number"
    cpuinfo = tmp_path / "cpuinfo"
    dt.write_bytes(b"10000000a1b2c3d4\0")
    cpuinfo.write_text("processor\t: 0\nSerial\t\t: 00000000feedbeef\nModel\t: Pi 4\n")
    assert board_serial([dt], cpuinfo) == "10000000a1b2c3d4"
    assert board_serial([tmp_path / "missing"], cpuinfo) == "00000000feedbeef"
    cpuinfo.write_text("processor\t: 0\nSerial\t\t: 0000000000000000\n")  # a PC's or a VM's
    assert board_serial([tmp_path / "missing"], cpuinfo) is None
    assert board_serial([tmp_path / "missing"], tmp_path / "no-cpuinfo") is None


def test_a_cloned_cards_outbox_is_moved_aside_and_nothing_of_it_is_sent(tmp_path: Path) -> None:
    path = tmp_path / "outbox.sqlite"
    first = own_outbox(path, "serial-A")  # the image's Pi ran a round before the card was cloned
    first.record("I", "press", datetime(2026, 5, 2, 10, 20), "r1")
    first.put("kiosk_id", "id-of-A")
    first.close()

    again = own_outbox(path, "serial-A")  # the same Pi restarting keeps everything
    assert len(again.presses()) == 1 and again.get("kiosk_id") == "id-of-A"
    again.close()

    clone = own_outbox(path, "serial-B")  # the card in another Pi
    assert clone.presses() == [] and clone.unsent() == []
    assert clone.get("kiosk_id") is None and clone.get("board") == "serial-B"
    clone.close()
    kept = own_outbox(tmp_path / "outbox.sqlite.from-serial-A", None)
    assert [p.power for p in kept.presses()] == ["I"]  # moved aside, not lost
    kept.close()

    pc = own_outbox(tmp_path / "pc.sqlite", None)  # no serial: nothing to tell, nothing moved
    pc.record("A", "press", datetime(2026, 5, 2, 10, 21), "r1")
    pc.close()
    assert len(own_outbox(tmp_path / "pc.sqlite", None).presses()) == 1
