"""``hub = "auto"`` end to end: a real hub announcing itself by mDNS, the doctor finding the
hub its clock is paired with, and no other.

Multicast does not reach this machine's shared loopback, and a test must not talk to the real
network, so the hub and the doctor run in a network namespace of their own (``unshare -n``,
root): a loopback with multicast on and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.live import ROOT

needs_netns = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None,
    reason="a private network namespace needs root, unshare and ip",
)

SCRIPT = """
import json, subprocess, sys
from pathlib import Path
subprocess.run(["ip", "link", "set", "lo", "up", "multicast", "on"], check=True)
from dataclasses import replace
from tests.machine.conftest import keep, set_up_round
from tests.server.live import LiveHub

tmp = Path(sys.argv[1])
hub = LiveHub(tmp / "hub" / "data", extra=("--wait-for-sync", "0"), quiet=False,
              https=True, host="0.0.0.0").start()
try:
    paired = set_up_round(hub, table=2)
    out = {"url": hub.url}
    for name, cred in (("ours", paired), ("other", replace(paired, hub="another-halls-hub"))):
        keep(tmp / name / "outbox.sqlite", cred)
        conf = tmp / f"{name}.toml"
        conf.write_text(f'table = 2\\nhub = "auto"\\n'
                        f'outbox = "{tmp}/{name}/outbox.sqlite"\\n')
        run = subprocess.run([sys.executable, "-m", "dipclock", "doctor", "--config", str(conf),
                              "--json"], capture_output=True, text=True, timeout=120)
        out[name] = {"status": run.returncode, "stderr": run.stderr,
                     "checks": json.loads(run.stdout)["checks"]}
finally:
    hub.stop()
print(json.dumps(out))
"""


@needs_netns
def test_the_doctor_finds_the_hub_its_clock_is_paired_with_by_mdns_and_no_other(
        tmp_path: Path):
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(["unshare", "-n", sys.executable, "-c", SCRIPT, str(tmp_path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    ours = {c["name"]: c for c in out["ours"]["checks"]}
    assert ours["hub"]["verdict"] == "ok"
    assert ours["hub"]["detail"] == f"{out['url']} answers (found on the network)"
    assert ours["pairing"]["detail"] == "paired for table 2 (round set up)"
    other = {c["name"]: c for c in out["other"]["checks"]}
    assert other["hub"]["verdict"] == "fail"
    assert "the hub this clock is paired with does not announce itself" in other["hub"]["detail"]
    assert "pairing" not in other
    assert out["ours"]["stderr"] == out["other"]["stderr"] == ""
