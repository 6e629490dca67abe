"""`make wheelhouse`: a venue with no internet still gets a working kiosk.

Building the wheelhouse needs the package index (PyPI, as in CI); installing from it must not:
pip runs with no index, none of this machine's pip settings, and a proxy that refuses every
connection, so anything it tried to fetch would fail the install.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "wheelhouse.sh"
DEAD_PROXY = "http://127.0.0.1:9"  # the discard port: nothing listens, every connection refused


def offline_env() -> dict[str, str]:
    """This machine's environment minus its pip settings (extra indexes, find-links) and the
    checkout on sys.path, so only the wheelhouse can supply a package."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PIP_") and k != "PYTHONPATH" and "proxy" not in k.lower()}
    return env | {"PIP_CONFIG_FILE": os.devnull, "http_proxy": DEAD_PROXY,
                  "https_proxy": DEAD_PROXY, "HTTP_PROXY": DEAD_PROXY, "HTTPS_PROXY": DEAD_PROXY}


def run(*argv: str | Path, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, **kw)


def test_a_kiosk_installs_from_the_wheelhouse_with_no_network(tmp_path):
    wheelhouse = tmp_path / "wheelhouse"
    this_python = f"{sys.version_info.major}.{sys.version_info.minor}"  # Bookworm: 3.11
    built = run("bash", SCRIPT, "--out", wheelhouse, "--python", this_python,
                env=os.environ | {"PYTHON": sys.executable})
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = sorted(p.name for p in wheelhouse.glob("*.whl"))
    assert "dipclock-0.2.0-py3-none-any.whl" in wheels
    assert any(w.startswith("fastapi-") for w in wheels)  # the hub installs from it too
    listed = (wheelhouse / "SHA256SUMS").read_text().split()
    assert sorted(listed[1::2]) == wheels

    venv = tmp_path / "venv"
    assert run(sys.executable, "-m", "venv", venv).returncode == 0
    installed = run(venv / "bin/python", "-m", "pip", "install", "--no-index", "--find-links",
                    wheelhouse, "dipclock[kiosk]", env=offline_env(), cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    plan = run(venv / "bin/dipclock", "plan", "wdc2006", "--start", "2006-08-04T10:00",
               env=offline_env(), cwd=tmp_path)
    assert plan.returncode == 0, plan.stderr
    fall_1909 = [line.split() for line in plan.stdout.splitlines()
                 if line.startswith("Fall 1909")]
    assert fall_1909 == [["Fall", "1909", "15", "min", "14:33", "14:48"]]
    # the catalogues are in the wheel (dipclock.i18n reads the compiled .mo)
    french = run(venv / "bin/dipclock", "plan", "wdc2006", "--start", "2006-08-04T10:00",
                 "--lang", "fr", env=offline_env(), cwd=tmp_path)
    assert french.returncode == 0, french.stderr
    assert "Automne 1909      15 min      14:33      14:48" in french.stdout

    probe = run(venv / "bin/python", "-c",
                "import importlib.util, pygame, dipclock;"
                "print(pygame.IS_CE); print(dipclock.__file__);"
                "print([m for m in ('fastapi', 'uvicorn') if importlib.util.find_spec(m)])",
                env=offline_env() | {"PYGAME_HIDE_SUPPORT_PROMPT": "1"}, cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    is_ce, where, hub_stack = probe.stdout.splitlines()
    assert is_ce == "1"  # pygame-ce, whose SDL has the KMS/DRM driver
    assert where.startswith(str(venv))  # the installed copy, not this checkout
    assert hub_stack == "[]"  # a table gets no hub server stack


def test_an_unknown_architecture_is_refused_in_one_line(tmp_path):
    refused = run("bash", SCRIPT, "--arch", "sparc64", "--out", tmp_path / "wh",
                  env=os.environ | {"PYTHON": sys.executable})
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        "wheelhouse: unknown architecture 'sparc64': use aarch64 (64-bit Pi OS),"
        " armv7l (32-bit Pi OS) or x86_64"]
    assert not (tmp_path / "wh").exists()


def test_a_pi_wheelhouse_serves_bookworm_and_trixie_alike(tmp_path):
    """Raspberry Pi Imager's default OS is Trixie (Python 3.13), Bookworm (3.11) its Legacy:
    one `make wheelhouse ARCH=aarch64` carries the packages built per Python for both."""
    wheelhouse = tmp_path / "aarch64"
    built = run("bash", SCRIPT, "--arch", "aarch64", "--out", wheelhouse,
                env=os.environ | {"PYTHON": sys.executable})
    assert built.returncode == 0, built.stdout + built.stderr
    assert "for CPython 3.11 3.13 in" in built.stdout
    wheels = sorted(p.name for p in wheelhouse.glob("*.whl"))
    for package in ("pygame_ce", "pydantic_core", "uvloop"):
        tags = {w.split("-")[2] for w in wheels if w.startswith(package + "-")}
        assert tags == {"cp311", "cp313"}, (package, tags)
    assert all("aarch64" in w or w.endswith("-none-any.whl") for w in wheels)
