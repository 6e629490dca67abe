"""The card image's settings, applied from ``dipclock.txt`` at every boot (docs/card.md).

``dipclock-card-setup.service`` runs ``python -m machine.cardsetup`` as root before the
network, SSH and dipclock start. What it writes lives where the next boot writes it again
(``/run``, or the overlay over the read-only root), so editing ``dipclock.txt`` on a laptop
and booting is the whole of changing a card: a new venue's Wi-Fi, another table, a hub.

* the role: ``/run/dipclock-card/role-table`` or ``role-hub``, which the two services'
  drop-ins name in ``ConditionPathExists=``;
* the hostname: ``dipclock-hub``, ``dipclock-table-7``, or ``dipclock-`` and the end of the
  board's serial number (the machine-id where there is none), so no two cards share one;
* the Wi-Fi: a NetworkManager profile in ``/run/NetworkManager/system-connections`` (mode
  600; gone when the line is), and the country for the radio;
* the time zone, an SSH key the TD may log in with (``/run/dipclock-card/ssh``), the hub's
  TD password hashed for its first start (the plaintext is taken off the card once the
  hub's database holds it);
* the card's own SSH host keys, made on its first boot (``ssh-keygen -A``: only those
  missing), while the root is still writable (``card/files/initramfs``);
* the hall's ``kiosk.toml`` (the buttons, the screen), when the boot partition has one beside
  ``dipclock.txt``: copied to ``/etc/dipclock/kiosk.toml``, where the kiosk reads it.

A mistake in ``dipclock.txt`` costs its own line only: every other line is applied, and each
refused line is said on the console and left in ``/run/dipclock-card/refused`` (the line,
then the fix), where the hub card's screen reads it (``machine.identity.card_notes``); the
kiosk reads the same file and shows the same lines on the table's screen. Raspberry Pi
Imager's customisation (``firstrun.sh``, cloud-init's ``user-data``) is not read: when the
boot partition has it, the console and ``/run/dipclock-card/imager`` say where its settings
belong instead (``machine.identity.IMAGER_NOTES``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from machine.identity import (
    BOOT_FILES,
    IMAGER_NOTES,
    BootFile,
    board_serial,
    imager_files,
    read_boot,
    refusal_fix,
    refusal_notes,
)

RUN = Path("run/dipclock-card")
NM_PROFILE = Path("run/NetworkManager/system-connections/dipclock-wifi.nmconnection")
HUB_DB = Path("var/lib/dipclock/hub/hub.sqlite3")
PASSWORD_HASH = Path("etc/dipclock/td-password.hash")
KIOSK_TOML = Path("etc/dipclock/kiosk.toml")
#: where NetworkManager's profile namespace starts: the same Wi-Fi name, the same profile id
_NM_NAMESPACE = uuid.UUID("6c4f1f8e-2f0e-4b57-9a4e-0d1c0c4b7a31")

Runner = Callable[[Sequence[str]], None]


def _run(argv: Sequence[str]) -> None:
    """A command the setup needs; a failure is said and the setup goes on."""
    try:
        subprocess.run(list(argv), check=True, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", None) or str(exc)
        say(f"{argv[0]}: {detail.strip().splitlines()[-1] if detail.strip() else exc}")


def say(line: str) -> None:
    print(f"dipclock-card: {line}", flush=True)


def hostname(boot: BootFile | None, serial: str | None, machine_id: str) -> str:
    """``dipclock-hub``, ``dipclock-table-7`` (what ``table_from_hostname`` reads back), or
    ``dipclock-`` and the last 8 characters of the board's serial (else the machine-id)."""
    if boot is not None and boot.role == "hub":
        return "dipclock-hub"
    if boot is not None and boot.table is not None:
        return f"dipclock-table-{boot.table}"
    own = "".join(c for c in (serial or machine_id).lower() if c.isalnum())
    return f"dipclock-{own[-8:] or 'card'}"


def _keyfile(text: str) -> str:
    """A value as GLib's key files (NetworkManager's) read it back unchanged."""
    text = text.replace("\\", "\\\\")
    return "\\s" + text[1:] if text.startswith(" ") else text


def wifi_profile(boot: BootFile) -> str | None:
    """The NetworkManager keyfile of ``wifi_name`` (WPA-PSK, or open without a password).
    None when the password's line was refused: an open profile could never join the
    secured network the laptop meant, and the refusal on the screen says which line."""
    if boot.wifi_name is None or any(r.key == "wifi_password" for r in boot.refused):
        return None
    ssid = ";".join(str(b) for b in boot.wifi_name.encode()) + ";"  # bytes: nothing to escape
    lines = ["[connection]", "id=dipclock-wifi",
             f"uuid={uuid.uuid5(_NM_NAMESPACE, boot.wifi_name)}", "type=wifi",
             "autoconnect=true", "autoconnect-retries=0", "",
             "[wifi]", "mode=infrastructure", f"ssid={ssid}", ""]
    if boot.wifi_password is not None:
        lines += ["[wifi-security]", "key-mgmt=wpa-psk", f"psk={_keyfile(boot.wifi_password)}",
                  ""]
    lines += ["[ipv4]", "method=auto", "", "[ipv6]", "method=auto", ""]
    return "\n".join(lines)


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(text)
    tmp.chmod(mode)
    tmp.replace(path)


def set_hostname(root: Path, name: str, run: Runner) -> None:
    _write(root / "etc/hostname", name + "\n")
    hosts = root / "etc/hosts"
    try:
        lines = [line for line in hosts.read_text().splitlines()
                 if not line.startswith("127.0.1.1")]
    except FileNotFoundError:
        lines = ["127.0.0.1\tlocalhost"]
    _write(hosts, "\n".join([*lines, f"127.0.1.1\t{name}"]) + "\n")
    if root == Path("/"):
        run(["hostname", name])


def set_timezone(root: Path, zone: str) -> None:
    if not (root / "usr/share/zoneinfo" / zone).is_file():
        say(f"timezone {zone}: not in this card's zone data; the clock stays on UTC")
        return
    link = root / "etc/localtime"
    tmp = link.with_name("localtime.new")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(Path("/usr/share/zoneinfo") / zone)
    tmp.replace(link)
    _write(root / "etc/timezone", zone + "\n")


def forget_password(boot_file: Path, run: Runner, root: Path) -> bool:
    """Take the plaintext ``td_password`` off the boot partition (the hub's database holds
    its hash now): the line becomes a comment saying so. True if the file changed."""
    text = boot_file.read_bytes().decode("utf-8", errors="replace")  # its CRLFs too
    out, changed = [], False
    for line in text.splitlines(keepends=True):
        key = line.strip().removeprefix("\ufeff").split("=", 1)[0].split(":", 1)[0]
        if key.strip().lower() == "td_password":
            out.append("# td_password: taken by the hub at its first start (it keeps only "
                       "a hash); set a new one on the dashboard\n")
            changed = True
        else:
            out.append(line)
    if changed:
        mounted = root == Path("/")
        if mounted:
            run(["mount", "-o", "remount,rw", str(boot_file.parent)])
        try:
            _write(boot_file, "".join(out), boot_file.stat().st_mode & 0o777)
        finally:
            if mounted:
                run(["mount", "-o", "remount,ro", str(boot_file.parent)])
    return changed


#: The words Imager's customisation adds to ``cmdline.txt`` to run its ``firstrun.sh``: the
#: card skips that script (kernel-command-line.service.d in card/files/root), and takes the
#: words off so that its next start is an ordinary one.
_IMAGER_WORDS = re.compile(r"^(systemd\.run(_success_action|_failure_action)?=.*"
                           r"|systemd\.unit=kernel-command-line\.target)$")


def drop_imager_cmdline(cmdline: Path, run: Runner, root: Path) -> bool:
    """Take Imager's ``systemd.run=...`` words off the boot partition's ``cmdline.txt``,
    keeping every other word; True if the file changed."""
    try:
        text = cmdline.read_text()
    except OSError:
        return False
    words = text.split()
    kept = [w for w in words if not _IMAGER_WORDS.match(w)]
    if kept == words:
        return False
    mounted = root == Path("/")
    if mounted:
        run(["mount", "-o", "remount,rw", str(cmdline.parent)])
    try:
        _write(cmdline, " ".join(kept) + "\n", cmdline.stat().st_mode & 0o777)
    finally:
        if mounted:
            run(["mount", "-o", "remount,ro", str(cmdline.parent)])
    return True


def apply(boot: BootFile | None, root: Path = Path("/"), run: Runner | None = None,
          serial: str | None = None) -> str:
    """Everything above, under ``root``; returns the hostname it set."""
    run = run or _run
    role = boot.role if boot is not None else "table"
    run_dir = root / RUN
    run_dir.mkdir(parents=True, exist_ok=True)
    for other in ("table", "hub"):
        (run_dir / f"role-{other}").unlink(missing_ok=True)
    (run_dir / f"role-{role}").touch()
    (root / "etc/ssh").mkdir(parents=True, exist_ok=True)
    run(["ssh-keygen", "-A", *(["-f", str(root)] if root != Path("/") else [])])
    machine_id = (root / "etc/machine-id").read_text().strip() \
        if (root / "etc/machine-id").exists() else ""
    name = hostname(boot, serial, machine_id)
    set_hostname(root, name, run)

    profile = wifi_profile(boot) if boot is not None else None
    if profile is None:
        (root / NM_PROFILE).unlink(missing_ok=True)
    else:
        _write(root / NM_PROFILE, profile, 0o600)
    if boot is not None and boot.wifi_country:
        _write(root / "run/modprobe.d/dipclock-wifi.conf",
               f"options cfg80211 ieee80211_regdom={boot.wifi_country}\n")
        if root == Path("/"):
            run(["iw", "reg", "set", boot.wifi_country])
    if boot is not None and boot.timezone:
        set_timezone(root, boot.timezone)

    keys = run_dir / "ssh/authorized_keys"
    if boot is not None and boot.ssh_key:
        (run_dir / "ssh").mkdir(mode=0o700, exist_ok=True)
        _write(keys, boot.ssh_key + "\n", 0o600)
    else:
        keys.unlink(missing_ok=True)

    hall = (boot.path if boot is not None else BOOT_FILES[0]).with_name("kiosk.toml")
    if hall.is_file():
        _write(root / KIOSK_TOML, hall.read_bytes().decode("utf-8", "replace"))

    if boot is not None and role == "hub" and boot.td_password:
        if (root / HUB_DB).exists():
            if forget_password(boot.path, run, root):
                say(f"td_password taken off {boot.path}: the hub keeps its hash")
        else:
            from machine.passwords import hash_password

            _write(root / PASSWORD_HASH, hash_password(boot.td_password) + "\n", 0o600)
            if root == Path("/"):
                run(["chown", "dipclock:dipclock", str(root / PASSWORD_HASH)])
    return name


def leave_notes(boot: BootFile | None, folder: Path, root: Path = Path("/")) -> None:
    """Say each refused line of ``dipclock.txt`` and Imager's settings found in the boot
    partition ``folder`` on the console, and leave them for the screens (``RUN``): one line
    each, gone when the file is right again."""
    refused = boot.refused if boot is not None else ()
    for refusal in refused:
        say(f"{refusal}: this line is not used, the others are")
    if refused:
        say(f"to fix it, {refusal_fix(refused)}")
    run_dir = root / RUN
    _note(run_dir / "refused", refusal_notes(refused))
    imager = imager_files(folder)
    if imager:
        say(f"Raspberry Pi Imager's customisation found ({', '.join(imager)}): "
            f"{IMAGER_NOTES[0]}. {IMAGER_NOTES[1]} {IMAGER_NOTES[2]} (delete "
            f"{', '.join(n for n in imager if n != 'cmdline.txt') or 'them'} from the DIPCLOCK "
            "drive once done, and this note goes)")
    _note(run_dir / "imager", IMAGER_NOTES if imager else ())


def _note(path: Path, lines: Sequence[str]) -> None:
    if lines:
        _write(path, "".join(f"{line}\n" for line in lines))
    else:
        path.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m machine.cardsetup",
                                description="Apply dipclock.txt to this card (at boot).")
    p.add_argument("--root", type=Path, default=Path("/"))
    p.add_argument("--boot-file", type=Path, help="default: /boot/firmware/dipclock.txt")
    args = p.parse_args(argv)
    paths = (args.boot_file,) if args.boot_file else BOOT_FILES
    boot = read_boot(paths)  # a bad line is refused alone: the others are applied
    name = apply(boot, args.root, serial=board_serial())
    folder = (boot.path if boot is not None else paths[0]).parent
    leave_notes(boot, folder, args.root)
    if drop_imager_cmdline(folder / "cmdline.txt", _run, args.root):
        say("Imager's systemd.run words taken off cmdline.txt: its firstrun.sh is not run")
    role = boot.role if boot is not None else "table"
    wifi = f"Wi-Fi {boot.wifi_name!r}" if boot is not None and boot.wifi_name else "no Wi-Fi"
    say(f"{role}, hostname {name}, {wifi}")
    return 0


if __name__ == "__main__":
    os.umask(0o022)
    sys.exit(main())
