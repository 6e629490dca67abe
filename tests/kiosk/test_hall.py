"""A hall in miniature: a real hub announcing itself by mDNS and serving HTTPS, two kiosks given
only the same table number. Each finds the hub and shows a pairing code; the TD approves both
codes for table 3 (over HTTPS, pinned to the certificate the hub printed); each then says
which hub it talks to, and that the other kiosk also claims its table. In a private network
namespace, as test_discovery."""

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
                        # our own namespace; every address (a hub on loopback only is
                        # not announced), reached at 127.0.0.1, its only one
                        "--host", "0.0.0.0", "--port", "8765",
                        "--wait-for-sync", "0"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
printed = ""
for line in hub.stdout:
    printed += line
    if line.startswith("Hub clock:"):  # the last line before it serves
        break
open(f"{tmp}/kiosk.toml", "w").close()
kiosks = [subprocess.Popen(
    [sys.executable, "-m", "dipclock", "kiosk", "--headless", "--run-for", "100",
     "--table", "3", "--boot-file", f"{tmp}/none", "--config", f"{tmp}/kiosk.toml",
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

try:
    asking = [screen_when(i, lambda s: s["big"][:1].isalnum()) for i in (1, 2)]
    codes = [a["big"] for a in asking]
    import httpx
    from kiosk.pairing import pinned
    from machine.fingerprint import of_pem, short
    pem = open(f"{tmp}/hub/hub-cert.pem").read()
    assert f"SHA-256 {of_pem(pem)}" in printed, printed
    td = httpx.Client(base_url="https://127.0.0.1:8765", verify=pinned(pem), timeout=30)
    td.headers["X-CSRF-Token"] = td.post("/api/login", json={
        "password": "a long enough password"}).json()["csrf"]
    waiting = td.get("/api/td/clocks").json()["waiting"]
    for w in waiting:  # what the TD sees: each code, the table it asks for, the same certificate
        td.post("/api/td/clocks", json={"code": w["code"], "table": w["wished"]}).raise_for_status()
    seen = [screen_when(i, lambda s: not s["hub_lost"] and any(a.startswith("Another kiosk")
                                                              for a in s["alerts"]))
            for i in (1, 2)]
finally:  # nothing outlives the test, whatever failed
    for p in kiosks + [hub]:
        p.kill()
print(json.dumps({
    "codes": sorted(codes), "waiting": sorted(
        (w["code"], w["wished"], w["other_certificate"]) for w in waiting),
    "fingerprint": short(of_pem(pem)),
    "asking": [{k: a[k] for k in ("heading", "label", "notes")} for a in asking],
    "screens": [{k: s[k] for k in ("heading", "label", "notes", "alerts", "hub_lost")}
                for s in seen]}))
"""


@needs_netns
def test_two_kiosks_find_the_hub_and_see_each_other_on_table_3(tmp_path: Path) -> None:
    script = tmp_path / "hall.py"
    script.write_text(textwrap.dedent(SCRIPT))
    done = subprocess.run(["unshare", "-n", sys.executable, str(script), str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # each clock's own code, both asking for table 3, both seeing the hub's own certificate
    assert [list(w) for w in out["waiting"]] == [[c, 3, False] for c in out["codes"]]
    assert len(set(out["codes"])) == 2
    for asking in out["asking"]:
        assert asking == {
            "heading": "Table 3?",
            "label": "Pair this clock: the TD enters this code on the dashboard, under Clocks",
            "notes": ["Hub 127.0.0.1:8765, found on the network",
                      f"Hub certificate {out['fingerprint']}"]}
    for screen in out["screens"]:
        assert screen["heading"] == "Table 3"
        assert screen["label"] == "Waiting for the TD to set up the round"
        assert screen["notes"] == ["Hub 127.0.0.1:8765, found on the network"]
        assert screen["alerts"] == ["Another kiosk (127.0.0.1) also says it is table 3"]
        assert screen["hub_lost"] is False
