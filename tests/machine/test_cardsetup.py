"""The card's boot-time setup (machine.cardsetup) on real folders standing for a card's root:
each card makes itself (host keys, hostname), dipclock.txt is the settings, nothing stays
once its line is gone."""

from __future__ import annotations

import configparser
import shutil
import stat
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from machine.cardsetup import (
    HUB_DB,
    KIOSK_TOML,
    NM_PROFILE,
    PASSWORD_HASH,
    RUN,
    apply,
    hostname,
    main,
    wifi_profile,
)
from machine.identity import IMAGER_NOTES, card_notes, parse_boot_file, parse_boot_lines
from machine.passwords import verify_password

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")


def card(tmp_path: Path, name: str, machine_id: str = "0" * 31 + "1") -> Path:
    """A card's root as the image leaves it after systemd's first-boot machine-id."""
    root = tmp_path / name
    (root / "etc").mkdir(parents=True)
    (root / "etc/machine-id").write_text(machine_id + "\n")
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\tdipclock\n")
    zone = root / "usr/share/zoneinfo/Europe/Vienna"
    zone.parent.mkdir(parents=True)
    zone.write_bytes(b"TZif")
    return root


def boot(tmp_path: Path, text: str) -> object:
    path = tmp_path / "dipclock.txt"
    path.write_text(text)
    return parse_boot_file(text, path)


class Calls:
    def __init__(self) -> None:
        self.argv: list[list[str]] = []

    def __call__(self, argv: Sequence[str]) -> None:
        self.argv.append(list(argv))
        if argv[0] == "ssh-keygen":  # the real thing: each card's own keys
            subprocess.run(list(argv), check=True, capture_output=True)


def host_keys(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "etc/ssh").glob("ssh_host_*_key.pub"))}


def test_two_cards_from_one_image_make_keys_and_names_of_their_own(tmp_path: Path) -> None:
    a, b = card(tmp_path, "a", "a" * 32), card(tmp_path, "b", "b" * 32)
    calls = Calls()
    name_a = apply(None, a, calls, serial="10000000d00dfeed")
    name_b = apply(None, b, calls)  # no board serial (a VM): the machine-id's end
    assert (name_a, name_b) == ("dipclock-d00dfeed", "dipclock-bbbbbbbb")
    assert (a / "etc/hostname").read_text() == "dipclock-d00dfeed\n"
    assert "127.0.1.1\tdipclock-d00dfeed" in (a / "etc/hosts").read_text().splitlines()
    assert "127.0.1.1\tdipclock\n" not in (a / "etc/hosts").read_text()
    keys_a, keys_b = host_keys(a), host_keys(b)
    assert "ssh_host_ed25519_key.pub" in keys_a and keys_a.keys() == keys_b.keys()
    assert not set(keys_a.values()) & set(keys_b.values())
    apply(None, a, calls)  # the next boot: the keys stay the card's
    assert host_keys(a) == keys_a


@pytest.mark.parametrize(
    ("text", "serial", "name"),
    [("table = 7\n", None, "dipclock-table-7"), ("role = hub\n", "1234abcd", "dipclock-hub"),
     ("hub = auto\n", "00000000-1234-ABCD", "dipclock-1234abcd")],
)
def test_the_hostname_is_the_table_the_hub_or_the_boards_serial(
        tmp_path: Path, text: str, serial: str | None, name: str) -> None:
    assert hostname(boot(tmp_path, text), serial, "f" * 32) == name  # type: ignore[arg-type]


def test_the_wifi_is_a_networkmanager_profile_that_goes_with_its_line(tmp_path: Path) -> None:
    root = card(tmp_path, "a")
    got = boot(tmp_path, 'wifi_name = Hall B;2\nwifi_password = "pa\\ss #word"\n'
                         "wifi_country = at\n")
    apply(got, root, Calls())  # type: ignore[arg-type]
    profile = root / NM_PROFILE
    assert stat.S_IMODE(profile.stat().st_mode) == 0o600  # NetworkManager reads no other
    keyfile = configparser.RawConfigParser()
    keyfile.read_string(profile.read_text())
    assert bytes(int(b) for b in keyfile["wifi"]["ssid"].rstrip(";").split(";")) == b"Hall B;2"
    assert keyfile["wifi-security"]["key-mgmt"] == "wpa-psk"
    assert keyfile["wifi-security"]["psk"] == "pa\\\\ss #word"  # GLib's escape
    assert keyfile["connection"]["autoconnect-retries"] == "0"  # retry for ever, Wi-Fi late
    assert (root / "run/modprobe.d/dipclock-wifi.conf").read_text() == (
        "options cfg80211 ieee80211_regdom=AT\n")
    # the same network, the same profile; an open network has no security section
    again = wifi_profile(boot(tmp_path, "wifi_name = Hall B;2\n"))  # type: ignore[arg-type]
    assert again is not None and "[wifi-security]" not in again
    assert again.splitlines()[2] == keyfile["connection"]["uuid"].join(("uuid=", ""))
    apply(boot(tmp_path, "table = 3\n"), root, Calls())  # type: ignore[arg-type]
    assert not profile.exists()  # a new venue: the old secret is not kept


def test_a_refused_password_writes_no_open_profile_for_its_network(tmp_path: Path) -> None:
    got = parse_boot_lines("wifi_name = Hall B\nwifi_password = short\n",
                           tmp_path / "dipclock.txt")
    assert [r.key for r in got.refused] == ["wifi_password"]
    assert got.wifi_name == "Hall B"
    assert wifi_profile(got) is None


def test_role_time_zone_and_ssh_key_each_boot(tmp_path: Path) -> None:
    root = card(tmp_path, "a")
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB td@laptop"
    apply(boot(tmp_path, f"role = hub\ntimezone = Europe/Vienna\nssh_key = {key}\n"),  # type: ignore[arg-type]
          root, Calls())
    assert (root / RUN / "role-hub").exists() and not (root / RUN / "role-table").exists()
    assert str((root / "etc/localtime").readlink()) == "/usr/share/zoneinfo/Europe/Vienna"
    assert (root / "etc/timezone").read_text() == "Europe/Vienna\n"
    keys = root / RUN / "ssh/authorized_keys"
    assert keys.read_text() == key + "\n" and stat.S_IMODE(keys.stat().st_mode) == 0o600
    apply(boot(tmp_path, "table = 2\n"), root, Calls())  # type: ignore[arg-type]
    assert (root / RUN / "role-table").exists() and not (root / RUN / "role-hub").exists()
    assert not keys.exists()  # the line removed: nobody logs in


def test_the_halls_kiosk_toml_on_the_boot_partition_is_the_kiosks(tmp_path: Path) -> None:
    root = card(tmp_path, "a")
    got = boot(tmp_path, "table = 2\n")
    apply(got, root, Calls())  # type: ignore[arg-type]
    assert not (root / KIOSK_TOML).exists()  # none on the card: the image's own stays
    (tmp_path / "kiosk.toml").write_text("[buttons]\nserial = \"auto\"\n")
    apply(got, root, Calls())  # type: ignore[arg-type]
    assert (root / KIOSK_TOML).read_text() == "[buttons]\nserial = \"auto\"\n"


def test_the_hubs_password_is_hashed_then_taken_off_the_card(tmp_path: Path) -> None:
    root = card(tmp_path, "hub")
    text = "# the hall's hub\nrole = hub\r\nTD_password = correct horse\r\nhub = auto\n"
    got = boot(tmp_path, text)
    apply(got, root, Calls())  # type: ignore[arg-type]
    hashed = (root / PASSWORD_HASH).read_text().strip()
    assert verify_password("correct horse", hashed)
    assert stat.S_IMODE((root / PASSWORD_HASH).stat().st_mode) == 0o600
    assert (tmp_path / "dipclock.txt").read_bytes() == text.encode()  # kept till the hub has it
    (root / HUB_DB).parent.mkdir(parents=True)
    (root / HUB_DB).write_bytes(b"")  # the hub's first start stored it
    apply(got, root, Calls())  # type: ignore[arg-type]
    left = (tmp_path / "dipclock.txt").read_bytes().decode()
    assert "correct horse" not in left and left.startswith("# the hall's hub\nrole = hub\r\n")
    assert parse_boot_file(left, tmp_path / "dipclock.txt").td_password is None


def setup_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str,
               boot_files: dict[str, str] | None = None) -> Path:
    """``machine.cardsetup`` run as at boot on a card whose boot partition holds ``text``
    as dipclock.txt (and ``boot_files``); the card's root."""
    root = card(tmp_path, "a")
    boot_dir = tmp_path / "firmware"
    boot_dir.mkdir(exist_ok=True)
    (boot_dir / "dipclock.txt").write_text(text)
    for name, content in (boot_files or {}).items():
        (boot_dir / name).write_text(content)
    monkeypatch.setattr("machine.cardsetup._run", Calls())
    assert main(["--root", str(root), "--boot-file", str(boot_dir / "dipclock.txt")]) == 0
    return root


def test_one_wrong_line_is_refused_alone_and_every_other_line_is_applied(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo must not cost a hub card its role, its Wi-Fi and its name (issue 35, item 3)."""
    text = ("role = hub\nwifi_name = Hall B\nwifi_password = correct horse\n"
            "tabel = 4\nwifi_country = at\n")
    root = setup_card(tmp_path, monkeypatch, text)
    assert (root / RUN / "role-hub").exists() and not (root / RUN / "role-table").exists()
    assert (root / "etc/hostname").read_text() == "dipclock-hub\n"
    keyfile = configparser.RawConfigParser()
    keyfile.read_string((root / NM_PROFILE).read_text())
    assert keyfile["wifi-security"]["psk"] == "correct horse"
    assert bytes(int(b) for b in keyfile["wifi"]["ssid"].rstrip(";").split(";")) == b"Hall B"
    assert (root / "run/modprobe.d/dipclock-wifi.conf").exists()
    said = capsys.readouterr().out.splitlines()
    boot_file = tmp_path / "firmware/dipclock.txt"
    assert said[0] == (f"dipclock-card: {boot_file} line 4: unknown key 'tabel' (the keys are "
                       "table, hub, rotate, language, role, wifi_name, wifi_password, "
                       "wifi_country, timezone, size, ssh_key and td_password): this line is not "
                       "used, the others are")
    assert said[1] == ("dipclock-card: to fix it, take the card out, open its DIPCLOCK drive "
                       "on a laptop, correct line 4 of dipclock.txt and put the card back: it "
                       "reads dipclock.txt at every start")
    assert said[2] == "dipclock-card: hub, hostname dipclock-hub, Wi-Fi 'Hall B'"
    # left for the screens: exactly the refused line, then the fix
    assert card_notes(root / RUN) == (
        "dipclock.txt line 4 not used: unknown key 'tabel', did you mean table?",
        "Fix: correct line 4 of dipclock.txt on a laptop (the DIPCLOCK drive)")
    # corrected on a laptop: the next boot leaves no note
    (tmp_path / "firmware/dipclock.txt").write_text(text.replace("tabel = 4\n", ""))
    monkeypatch.setattr("machine.cardsetup._run", Calls())
    main(["--root", str(root), "--boot-file", str(boot_file)])
    assert card_notes(root / RUN) == ()


def test_a_table_line_on_a_hub_card_gives_way_to_the_hub(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = setup_card(tmp_path, monkeypatch, "table = 3\nrole = hub\nwifi_name = Hall\n")
    assert (root / RUN / "role-hub").exists() and not (root / RUN / "role-table").exists()
    assert (root / "etc/hostname").read_text() == "dipclock-hub\n"
    assert (root / NM_PROFILE).exists()
    assert card_notes(root / RUN)[0] == ("dipclock.txt line 1 not used: a hub has no table: "
                                         "remove the table line, or say role = table")
    assert "line 1: a hub has no table" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("files", "found"),
    [({"firstrun.sh": "#!/bin/bash\n", "cmdline.txt": "console=tty1 root=LABEL=dipclock-root "
       "systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot "
       "systemd.unit=kernel-command-line.target\n"}, "firstrun.sh, cmdline.txt"),
     ({"user-data": "#cloud-config\nhostname: table7\n", "network-config": "version: 2\n",
       "meta-data": "instance-id: rpi-imager\n"}, "user-data, network-config, meta-data")],
    ids=["bookworm-firstrun", "trixie-cloud-init"],
)
def test_imagers_settings_are_not_silently_ignored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        files: dict[str, str], found: str) -> None:
    """Imager's customisation on the boot partition: the console and the screens say the
    card ignores it and where its settings belong (issue 35, item 6)."""
    root = setup_card(tmp_path, monkeypatch, "table = 7\n", files)
    out = capsys.readouterr().out
    assert f"Raspberry Pi Imager's customisation found ({found})" in out
    assert "wifi_name, wifi_password, wifi_country, ssh_key, table" in out
    assert card_notes(root / RUN) == IMAGER_NOTES
    assert card_notes(root / RUN, refused=False) == IMAGER_NOTES
    assert (root / "etc/hostname").read_text() == "dipclock-table-7\n"  # dipclock.txt rules
    if "cmdline.txt" in files:  # the next start is an ordinary one: firstrun.sh is not run
        cmdline = (tmp_path / "firmware/cmdline.txt").read_text()
        assert cmdline == "console=tty1 root=LABEL=dipclock-root\n"
        assert "taken off cmdline.txt" in out
    for name in files:  # removed on a laptop: the next boot says nothing
        if name != "cmdline.txt":
            (tmp_path / "firmware" / name).unlink()
    main(["--root", str(root), "--boot-file", str(tmp_path / "firmware/dipclock.txt")])
    assert card_notes(root / RUN) == ()


IMAGER_CMDLINE = ("console=tty1 root=LABEL=dipclock-root systemd.run=/boot/firstrun.sh "
                  "systemd.run_success_action=reboot systemd.unit=kernel-command-line.target")
GENERATOR = Path("/lib/systemd/system-generators/systemd-run-generator")
UNITS = Path(__file__).resolve().parents[2] / "card/files/root/etc/systemd/system"


def _unit(*texts: str) -> dict[str, str]:
    """[Unit] of a unit file and its drop-ins, later files winning, as systemd reads them."""
    out: dict[str, str] = {}
    for text in texts:
        parser = configparser.RawConfigParser(strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(text)
        out |= dict(parser["Unit"]) if parser.has_section("Unit") else {}
    return out


@pytest.mark.skipif(not GENERATOR.exists(), reason="needs systemd-run-generator")
def test_a_card_written_with_imagers_firstrun_still_starts(tmp_path: Path) -> None:
    """Imager's Bookworm customisation boots into kernel-command-line.target to run
    /boot/firstrun.sh, absent on the card: systemd's own unit would power the card off
    (FailureAction=exit). The card's drop-ins skip it and start the card as always."""
    out = [tmp_path / d for d in ("normal", "early", "late")]
    for d in out:
        d.mkdir()
    subprocess.run([str(GENERATOR), *map(str, out)], check=True,
                   env={"SYSTEMD_PROC_CMDLINE": IMAGER_CMDLINE})
    service = (out[0] / "kernel-command-line.service").read_text()
    target = (out[0] / "kernel-command-line.target").read_text()
    assert _unit(service)["FailureAction"] == "exit"  # what the card had to answer
    own = _unit(service, (UNITS / "kernel-command-line.service.d/dipclock-card.conf").read_text())
    assert (own["SuccessAction"], own["FailureAction"]) == ("none", "none")
    skipped = Path(own["ConditionPathExists"])
    assert skipped.parent == Path("/") / RUN and skipped.name not in {"refused", "imager"}
    wants = _unit(target, (UNITS / "kernel-command-line.target.d/dipclock-card.conf").read_text())
    assert "multi-user.target" in wants["Wants"].split()
