#!/usr/bin/env python3
"""`make debs`: the operating system's packages the installer asks apt for, as a folder a Pi
installs from with no internet (`systemd/install.sh kiosk --debs DIR`).

    python3 scripts/debs.py [--suite trixie|bookworm] [--arch arm64|armhf|amd64] [--out DIR]

Which packages: the installer's own list (`install.sh ROLE --print-packages`, both roles),
with every package they depend on (not their recommends), as Debian's archive has them for
that suite and architecture: the whole closure, as if nothing were installed, so a card
with less than Raspberry Pi OS Lite still finds all it lacks. apt reads the archive through
an apt configuration of its own in a temporary folder: this machine's apt is left as it was.

The folder is a small apt repository (a `Packages` index beside the .deb files, no
signature: the installer trusts the folder it was handed, as it trusts the wheelhouse) with
`dipclock-debs.json` saying its suite and architecture, which the installer checks against
the machine before it installs anything. The result replaces DIR only once complete.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1]
INSTALL = SRC / "systemd" / "install.sh"
SUITES = ("bookworm", "trixie")
ARCHES = ("arm64", "armhf", "amd64")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
#: Written beside the packages: what they are for (the installer checks it).
MARKER = "dipclock-debs.json"


class DebsError(Exception):
    """One line saying what went wrong and what to do."""


def mirror() -> str:
    """The Debian mirror this machine's apt already uses (the registry it may reach)."""
    found: list[str] = []
    for path in [*Path("/etc/apt/sources.list.d").glob("*.sources"),
                 Path("/etc/apt/sources.list")]:
        if path.exists():
            for line in path.read_text().splitlines():
                if line.startswith(("URIs:", "deb ")):  # not a commented-out one
                    found += re.findall(r"(https?://\S+/debian)(?![-\w])", line)
    if not found:
        raise DebsError("no Debian mirror in this machine's apt sources: add one (or run "
                        "this on a Debian machine)")
    return found[0]


def wanted(arch: str) -> tuple[list[str], list[str]]:
    """The installer's packages for both roles on ``arch``: (required, optional)."""
    required: list[str] = []
    optional: list[str] = []
    for role in ("kiosk", "hub"):
        done = subprocess.run(["sh", str(INSTALL), role, "--print-packages"],
                              capture_output=True, text=True,
                              env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin",
                                   "DIPCLOCK_INSTALL_ARCH": arch})
        if done.returncode != 0:
            raise DebsError(f"install.sh {role} --print-packages failed: {done.stderr.strip()}")
        for line in done.stdout.splitlines():
            kind, _, names = line.partition(":")
            into = required if kind == "required" else optional if kind == "optional" else None
            if into is not None:
                into += [n for n in names.split() if n not in into]
    return required, optional


class Apt:
    """apt for another suite and architecture, in a folder of its own: nothing installed
    (its status is empty), its lists and cache there, this machine's apt untouched."""

    def __init__(self, home: Path, suite: str, arch: str, archive: str) -> None:
        self.home = home
        (home / "lists" / "partial").mkdir(parents=True)
        (home / "cache" / "archives" / "partial").mkdir(parents=True)
        (home / "status").write_text("")
        sources = home / "sources.list"
        sources.write_text(f"deb [arch={arch} signed-by={KEYRING}] {archive} {suite} main\n")
        self.options = [
            "-o", f"Dir::Etc::sourcelist={sources}", "-o", "Dir::Etc::sourceparts=-",
            "-o", f"Dir::State::Lists={home / 'lists'}", "-o", f"Dir::Cache={home / 'cache'}",
            "-o", f"Dir::State::status={home / 'status'}", "-o", f"APT::Architecture={arch}",
            "-o", f"APT::Architectures::={arch}", "-o", "Debug::NoLocking=1",
            "-o", "Acquire::Languages=none",
            # apt fetches as the _apt user where it can, which cannot write in this private
            # folder: this is a download for a folder of files, as the caller
            "-o", "APT::Sandbox::User=root",
        ]

    def run(self, tool: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([tool, *self.options, *args], capture_output=True, text=True)

    def knows(self, package: str) -> bool:
        """A package this suite has (not only a name other packages provide)."""
        shown = self.run("apt-cache", "show", "--no-all-versions", package)
        return shown.returncode == 0 and "Package:" in shown.stdout


def packages_index(folder: Path) -> str:
    """The ``Packages`` file apt reads a folder of .deb files by: each package's control
    fields, its file, size and SHA-256."""
    stanzas = []
    for deb in sorted(folder.glob("*.deb")):
        control = subprocess.run(["dpkg-deb", "-f", str(deb)], capture_output=True,
                                 text=True, check=True).stdout.rstrip("\n")
        digest = hashlib.sha256(deb.read_bytes()).hexdigest()
        stanzas.append(f"{control}\nFilename: ./{deb.name}\nSize: {deb.stat().st_size}\n"
                       f"SHA256: {digest}\n")
    return "\n".join(stanzas)


def build(suite: str, arch: str, out: Path) -> str:
    required, optional = wanted(arch)
    with tempfile.TemporaryDirectory(prefix="dipclock-debs-") as tmp:
        apt = Apt(Path(tmp) / "apt", suite, arch, mirror())
        updated = apt.run("apt-get", "update")
        if updated.returncode != 0:
            raise DebsError(f"apt could not read Debian's {suite} {arch} packages (it needs "
                            f"the archive): {updated.stderr.strip().splitlines()[-1:]}")
        missing = [p for p in required if not apt.knows(p)]
        if missing:
            raise DebsError(f"Debian {suite} has no {', '.join(missing)} for {arch}")
        # each optional entry is a package or alternatives a|b: the first this suite has
        chosen = {choice: next((p for p in choice.split("|") if apt.knows(p)), None)
                  for choice in optional}
        taken = [p for p in chosen.values() if p is not None]
        left = [c.replace("|", " nor ") for c, p in chosen.items() if p is None]
        stage = Path(tempfile.mkdtemp(prefix=f"{out.name}.partial.", dir=out.parent))
        try:
            got = apt.run("apt-get", "install", "--download-only", "-y", "-qq",
                          "--no-install-recommends", "-o", f"Dir::Cache::archives={stage}",
                          *required, *taken)
            if got.returncode != 0:
                raise DebsError(f"apt could not fetch the packages: "
                                f"{(got.stderr or got.stdout).strip().splitlines()[-1:]}")
            for junk in ("lock", "partial"):
                path = stage / junk
                shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
            (stage / "Packages").write_text(packages_index(stage))
            (stage / MARKER).write_text(json.dumps({
                "suite": suite, "arch": arch, "packages": sorted([*required, *taken]),
                "not_in_debian": left}, indent=1) + "\n")
            shutil.rmtree(out, ignore_errors=True)
            stage.rename(out)
            out.chmod(0o755)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
    count = len(list(out.glob("*.deb")))
    size = sum(p.stat().st_size for p in out.glob("*.deb")) / 1e6
    note = f"; not in Debian {suite}: {', '.join(left)}" if left else ""
    return (f"{count} packages ({size:.0f} MB) for Debian {suite} {arch} in {out}{note}; "
            f"on the Pi: sudo sh systemd/install.sh kiosk|hub --debs {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="debs", description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=SUITES, default="trixie",
                        help="trixie: Raspberry Pi OS's default now; bookworm: its Legacy")
    parser.add_argument("--arch", choices=ARCHES, default="arm64")
    parser.add_argument("--out", type=Path, help="default: debs/SUITE-ARCH in the checkout")
    args = parser.parse_args(argv)
    out = (args.out or SRC / "debs" / f"{args.suite}-{args.arch}").resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        print(f"debs: {build(args.suite, args.arch, out)}")
    except DebsError as exc:
        print(f"debs: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
