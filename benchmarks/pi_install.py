"""``make bench-pi``: the Pi install end to end, as far as this machine allows. Figures, not a test.

An arm64 Debian Bookworm root (``../shared/tools/arm64-root``: debootstrap, every program run
under proot + qemu-aarch64-static, as this machine has no binfmt_misc) stands in for a Pi with
64-bit Raspberry Pi OS Lite. The steps, each timed:

1. ``root_build``: build the root once (about 5 minutes) at ``PI_ROOT``; later runs reuse it.
2. ``root_copy``: copy it to a scratch root beside it, so every run installs on a clean card.
3. ``wheelhouse``: ``scripts/wheelhouse.sh --arch aarch64`` into the scratch root's /root/wh
   (CPython 3.11 and 3.13: Bookworm's and Trixie's).
4. ``debs``: ``scripts/debs.py --suite bookworm --arch arm64`` into /root/debs: the operating
   system's packages the installer asks apt for, with all they depend on.
5. ``install``: the checkout copied to /root/dipclock, then, inside the root, with every
   connection refused (proxies pointing at a closed port: the venue with no internet),
   ``sh systemd/install.sh kiosk --wheelhouse /root/wh --debs /root/debs``: apt installs the
   OS packages the root lacks (the Mesa, EGL and GBM libraries) from the folder alone, pip
   installs from the wheelhouse.
6. ``install_again``: the venv removed and the installer run again, still offline: an upgrade
   at the venue.
7. ``kmsdrm``: the installed pygame-ce's SDL lists the KMS/DRM video driver (machine.sdl).
8. ``first_frame``: the installed ``dipclock kiosk --headless`` started for a round starting now;
   the time until its ``--status-file`` appears, i.e. until it has drawn its first frame.

proot 5.1.0 (Debian Bookworm's) predates the system calls statx (Linux 4.11) and faccessat2
(5.8): it hands their paths to this machine untranslated, so inside the root ``ls`` finds no
file, pip takes the venv for read-only and apt cannot read its keyrings. Every command in the
root therefore runs with those two calls answered ENOSYS (libseccomp, through ``card.proot``,
which the card's build shares), as an older kernel would; glibc and qemu then use fstatat and
faccessat, which proot translates.

The last line printed is one JSON object with every figure, ``ok``, and on failure the step
that failed; the full output of every command is in ``<scratch root>.log``.
Environment: ``ARM64_ROOT_TOOL`` (the tool), ``PI_ROOT`` (the cached root, default
``${TMPDIR:-/tmp}/dipclock-arm64-root``), ``PYTHON`` (builds the wheelhouse).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from card.proot import (
    NEWER_THAN_PROOT,
    SCMP_ACT_ALLOW,
    SCMP_ACT_ERRNO,
    SCMP_FLTATR_ACT_BADARCH,
    seccomp,
)

ROOT = Path(__file__).resolve().parents[1]
TOOL = Path(os.environ.get("ARM64_ROOT_TOOL", ROOT.parent / "shared" / "tools" / "arm64-root"))
BASE = Path(os.environ.get("PI_ROOT",
                           Path(os.environ.get("TMPDIR", "/tmp")) / "dipclock-arm64-root"))
RUN = BASE.with_name(BASE.name + "-run")
LOG = RUN.with_name(RUN.name + ".log")
VENV = "/opt/dipclock/venv"
REFUSED = "http://127.0.0.1:9"  # the discard port: nothing listens, every connection refused
KIOSK_SECONDS = 5.0
CHECKOUT_JUNK = (".git", ".venv", "wheelhouse", "__pycache__", "*.egg-info", "build",
                 ".pytest_cache", ".hypothesis", ".ruff_cache", "out")

T = TypeVar("T")

def as_older_kernel() -> None:
    """In the child before exec: the calls proot cannot translate answer ENOSYS (see above)."""
    lib = seccomp()
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    ok = ctx and lib.seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW) == 0
    for name in NEWER_THAN_PROOT:
        number = lib.seccomp_syscall_resolve_name(name.encode())
        ok = ok and lib.seccomp_rule_add(ctx, SCMP_ACT_ERRNO | errno.ENOSYS, number, 0) == 0
    if not (ok and lib.seccomp_load(ctx) == 0):
        raise OSError("libseccomp could not load the filter")


class StepFailed(Exception):
    """One step did not do what a Pi needs; the message says what it printed."""


def note(line: str) -> None:
    print(f"bench-pi: {line}", file=sys.stderr, flush=True)


def run(argv: list[str | Path], timeout: float, env: dict[str, str] | None = None,
        in_root: bool = False) -> str:
    """Run a command, its output appended to the log; StepFailed with its last lines if it fails.
    ``in_root``: it runs proot, so as_older_kernel."""
    args = [str(a) for a in argv]
    with LOG.open("a") as log:
        log.write(f"\n$ {' '.join(args)}\n")
    # its own session, so an overrun ends proot and qemu with it, not just the bash in front
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          stdin=subprocess.DEVNULL, env=env, start_new_session=True,
                          preexec_fn=as_older_kernel if in_root else None) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise StepFailed(f"{' '.join(args[:6])}: no answer after {timeout:.0f} s") from exc
    with LOG.open("a") as log:
        log.write(out + err)
    if proc.returncode != 0:
        tail = " | ".join((out + err).strip().splitlines()[-4:])
        raise StepFailed(f"exit {proc.returncode}: {tail}")
    return out


def inside(*argv: str, timeout: float = 1800) -> str:
    """Run a command inside the scratch root, as root, as a Pi would."""
    return run(["bash", TOOL, RUN, "--", *argv], timeout, in_root=True)


def build_root() -> bool:
    """The cached root, built on first use; True when it was already there."""
    if (BASE / "usr/bin/python3").exists():
        return True
    note(f"building an arm64 Debian root at {BASE} (about 5 minutes, once)")
    run(["bash", TOOL, BASE], timeout=3600, in_root=True)
    return False


def copy_root() -> None:
    if RUN.exists():
        shutil.rmtree(RUN)
    run(["cp", "-a", BASE, RUN], timeout=600)


def wheelhouse() -> int:
    env = os.environ | {"PYTHON": os.environ.get("PYTHON", sys.executable)}
    run(["bash", ROOT / "scripts/wheelhouse.sh", "--arch", "aarch64", "--out", RUN / "root/wh"],
        timeout=1800, env=env)
    return len(list((RUN / "root/wh").glob("*.whl")))


def debs() -> int:
    run([sys.executable, ROOT / "scripts/debs.py", "--suite", "bookworm", "--arch", "arm64",
         "--out", RUN / "root/debs"], timeout=1800)
    return len(list((RUN / "root/debs").glob("*.deb")))


def offline(*argv: str) -> str:
    """A command in the root with every connection refused: nothing comes from a network."""
    refuse = [f"{name}={REFUSED}" for name in ("http_proxy", "https_proxy", "HTTP_PROXY",
                                              "HTTPS_PROXY")]
    return inside("env", *refuse, *argv)


def install() -> list[str]:
    """The installer, offline; the OS packages it took from the folder."""
    shutil.copytree(ROOT, RUN / "root/dipclock", ignore=shutil.ignore_patterns(*CHECKOUT_JUNK))
    missing = [p for p in ("libgbm1", "libegl1", "libgl1-mesa-dri")
               if "install ok installed" not in inside(
                   "sh", "-c", f"dpkg-query -W -f='${{Status}}' {p} 2>/dev/null || true")]
    plan = offline("sh", "/root/dipclock/systemd/install.sh", "kiosk", "--wheelhouse",
                   "/root/wh", "--debs", "/root/debs")
    if missing and "installed from /root/debs, with no network" not in plan:
        raise StepFailed(f"the root lacked {', '.join(missing)}, but the installer took "
                         "no packages from the folder")
    return missing


def install_again() -> None:
    inside("rm", "-rf", VENV)
    offline("sh", "/root/dipclock/systemd/install.sh", "kiosk", "--wheelhouse", "/root/wh",
            "--debs", "/root/debs")


def installed() -> dict[str, Any]:
    """What went into the venv: the hub's stack must not, apt's lgpio must be visible."""
    listing = json.loads(inside(f"{VENV}/bin/python", "-m", "pip", "list", "--format=json"))
    names = {p["name"].lower(): p["version"] for p in listing}
    config = (RUN / VENV.lstrip("/") / "pyvenv.cfg").read_text()
    return {"dipclock": names.get("dipclock"), "pygame_ce": names.get("pygame-ce"),
            "hub_stack": sorted({"fastapi", "uvicorn"} & names.keys()),
            "system_site_packages": "include-system-site-packages = true" in config}


# machine.sdl finds the SDL pygame loaded in /proc/self/maps, which reads empty under proot +
# qemu; there, it is given the libSDL2 file the pygame-ce wheel installed.
KMSDRM_PROBE = """
import os, pygame
from pathlib import Path
from machine.sdl import has_kmsdrm
try:
    print("maps", has_kmsdrm())
except OSError:
    libs = Path(pygame.__file__).parent.parent / "pygame_ce.libs"
    print("file", has_kmsdrm(next(libs.glob("libSDL2-2*.so*"))))
"""


def kmsdrm() -> str:
    """How the installed SDL was found ("maps" or "file"); StepFailed if it lacks kmsdrm."""
    out = inside(f"{VENV}/bin/python", "-c", KMSDRM_PROBE, timeout=600)
    found, has = (out.strip().splitlines() or [""])[-1].partition(" ")[::2]
    if has != "True":
        raise StepFailed(f"the installed SDL has no kmsdrm driver: {out.strip()}")
    return found


def first_frame() -> dict[str, Any]:
    """Start the installed kiosk; seconds until it has drawn a frame, and what the frame shows."""
    status = RUN / "tmp/status.json"
    status.unlink(missing_ok=True)
    start = datetime.now().strftime("%Y-%m-%dT%H:%M")  # the root's clock is this machine's
    argv = ["bash", str(TOOL), str(RUN), "--", f"{VENV}/bin/dipclock", "kiosk", "--headless",
            "--event", "wdc2006", "--start", start, "--run-for", str(KIOSK_SECONDS),
            "--status-file", "/tmp/status.json", "--outbox", "/tmp/o.sqlite"]
    began = time.monotonic()
    with LOG.open("a") as log:
        log.write(f"\n$ {' '.join(argv)}\n")
        log.flush()
        kiosk = subprocess.Popen(argv, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                 start_new_session=True, preexec_fn=as_older_kernel)
        seen = None
        while kiosk.poll() is None and time.monotonic() - began < 900:
            if seen is None and status.exists():
                seen = time.monotonic() - began
            time.sleep(0.05)  # a benchmark's poll, not a test's wait
        if kiosk.poll() is None:
            os.killpg(kiosk.pid, signal.SIGKILL)
        code = kiosk.wait()
    total = time.monotonic() - began
    if code != 0 or not status.exists():
        raise StepFailed(f"the kiosk exited {code} with{'' if status.exists() else ' no'} "
                         f"status file (see {LOG})")
    shown = json.loads(status.read_text())
    if seen is None:  # the frame came in the last poll before exit
        seen = total
    return {"first_frame_s": round(seen, 1), "kiosk_run_s": round(total, 1),
            "frame": {k: shown.get(k) for k in ("heading", "stage", "phase_code", "big", "alerts",
                                                "written")}}


def timed(figures: dict[str, Any], name: str, step: Callable[[], T]) -> T:
    note(f"{name}...")
    began = time.monotonic()
    result = step()
    figures[f"{name}_s"] = round(time.monotonic() - began, 1)
    return result


def main() -> int:
    figures: dict[str, Any] = {"ok": False, "root": str(RUN), "log": str(LOG)}
    if not TOOL.exists():
        figures["failed"] = f"no arm64-root tool at {TOOL} (set ARM64_ROOT_TOOL)"
        print(json.dumps(figures))
        return 1
    try:
        seccomp()
    except OSError:
        figures["failed"] = "no libseccomp.so.2 here (Debian: apt-get install libseccomp2)"
        print(json.dumps(figures))
        return 1
    RUN.parent.mkdir(parents=True, exist_ok=True)
    LOG.write_text("")
    step = "root_build"
    try:
        figures["root_reused"] = timed(figures, step, build_root)
        step = "root_copy"
        timed(figures, step, copy_root)
        step = "wheelhouse"
        figures["wheels"] = timed(figures, step, wheelhouse)
        step = "debs"
        figures["debs"] = timed(figures, step, debs)
        step = "install"
        figures["os_packages_from_the_folder"] = timed(figures, step, install)
        step = "install_again"
        timed(figures, step, install_again)
        figures["installed"] = installed()
        step = "kmsdrm"
        figures["kmsdrm"] = True
        figures["kmsdrm_sdl_found_by"] = timed(figures, step, kmsdrm)
        step = "first_frame"
        note("first_frame...")
        figures |= first_frame()
        figures["ok"] = (figures["installed"]["hub_stack"] == []
                         and figures["frame"]["written"] is not None)
    except (StepFailed, OSError) as exc:
        figures["failed"] = f"{step}: {exc}"
    print(json.dumps(figures))
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
