"""A hall in miniature: a real hub announcing itself by mDNS, two kiosks given only the key
and the same table number. Each finds the hub, says which hub it talks to, and says the
other kiosk also claims its table. In a private network namespace, as test_discovery."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.kiosk.test_discovery import ROOT, needs_netns

SCRIPT = """
import json, os, subprocess, sys, time
subprocess.run(["ip", "link", "set", "lo", "up", "multicast", "on"], check=True)
tmp = sys.argv[1]
env = {**os.environ, "DIPCLOCK_TD_PASSWORD": "a long enough password", "PYTHONUNBUFFERED": "1"}
hub = subprocess.Popen([sys.executable, "-m", "dipclock", "hub", "--data", f"{tmp}/hub",
                        "--host", "127.0.0.1", "--port", "8765",  # our own namespace
                        "--wait-for-sync", "0"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
key = None
for line in hub.stdout:
    if line.startswith("Kiosk key:"):
        key = line.split(":", 1)[1].strip()
        break
open(f"{tmp}/kiosk.toml", "w").close()
kiosks = [subprocess.Popen(
    [sys.executable, "-m", "dipclock", "kiosk", "--headless", "--run-for", "100",
     f"--key={key}", "--table", "3", "--boot-file", f"{tmp}/none", "--config", f"{tmp}/kiosk.toml",
     "--outbox", f"{tmp}/outbox{i}.sqlite", "--status-file", f"{tmp}/screen{i}.json"],
    stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/kiosk{i}.log", "w"), env=env)
    for i in (1, 2)]

def screen_when(i, test):
    end, screen = time.monotonic() + 60, None
    while time.monotonic() < end:
        try:
            screen = json.loads(open(f"{tmp}/screen{i}.json").read())
        except (OSError, ValueError):
            screen = None
        if screen is not None and test(screen):
            break
        time.sleep(0.05)
    return screen

seen = [screen_when(i, lambda s: not s["hub_lost"] and any(a.startswith("Another kiosk")
                                                          for a in s["alerts"]))
        for i in (1, 2)]
for p in kiosks + [hub]:
    p.kill()
print(json.dumps([{k: s[k] for k in ("heading", "label", "notes", "alerts", "hub_lost")}
                  for s in seen]))
"""


@needs_netns
def test_two_kiosks_find_the_hub_and_see_each_other_on_table_3(tmp_path: Path) -> None:
    script = tmp_path / "hall.py"
    script.write_text(textwrap.dedent(SCRIPT))
    done = subprocess.run(["unshare", "-n", sys.executable, str(script), str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    screens = json.loads(done.stdout.strip().splitlines()[-1])
    for screen in screens:
        assert screen["heading"] == "Table 3"
        assert screen["label"] == "Waiting for the TD to set up the round"
        assert screen["notes"] == ["Hub 127.0.0.1:8765, found on the network"]
        assert screen["alerts"] == ["Another kiosk (127.0.0.1) also says it is table 3"]
        assert screen["hub_lost"] is False
