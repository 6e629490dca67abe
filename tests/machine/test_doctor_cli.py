"""``dipclock doctor`` end to end: the installed command on this very machine (no screen, no
GPIO), its exit status, one line per check and the ``--json`` shape."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.server.live import ROOT


def doctor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PYTHONPATH": str(ROOT), "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "dipclock", "doctor", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=120)


def test_text_and_json_tell_the_same_story_and_the_exit_status_follows_the_failures(
        tmp_path: Path):
    conf = tmp_path / "kiosk.toml"
    conf.write_text(f'table = 3\noutbox = "{tmp_path}/data/outbox.sqlite"\n')
    text = doctor("--config", str(conf), cwd=tmp_path)
    as_json = doctor("--config", str(conf), "--json", cwd=tmp_path)
    report = json.loads(as_json.stdout)
    assert text.stderr == "" and as_json.stderr == ""
    assert set(report) == {"checks", "ok"}
    failed = [c["name"] for c in report["checks"] if c["verdict"] == "fail"]
    assert report["ok"] is (not failed)
    assert text.returncode == as_json.returncode == (1 if failed else 0)
    lines = text.stdout.splitlines()
    assert lines[0].startswith("dipclock doctor 0.2.0 on ")
    assert all(len(line) <= 80 for line in lines)
    heads = [line for line in lines[1:-1] if not line.startswith(" ")]
    assert [(h[:5].strip(), h[5:22].strip()) for h in heads] == [
        (c["verdict"], c["name"]) for c in report["checks"]]
    # This machine: pygame-ce's SDL has kmsdrm, but there is no DRM device.
    verdicts = {c["name"]: c["verdict"] for c in report["checks"]}
    assert verdicts["display driver"] == "ok"
    assert verdicts["kiosk settings"] == "ok"
    assert (verdicts["display device"] == "fail") == (not Path("/dev/dri").exists())


def test_a_settings_file_that_is_not_there_is_a_failed_check_not_a_traceback(tmp_path: Path):
    missing = tmp_path / "nope.toml"
    run = doctor("--config", str(missing), cwd=tmp_path)
    assert run.returncode == 1 and run.stderr == ""
    assert run.stdout.splitlines()[1].startswith("fail kiosk settings")
    assert "Traceback" not in run.stdout
    report = json.loads(doctor("--config", str(missing), "--json", cwd=tmp_path).stdout)
    assert report["checks"][0] == {
        "name": "kiosk settings", "verdict": "fail",
        "detail": f"{missing}: cannot read config: No such file or directory",
        "fix": "correct the file named above, then run the doctor again"}
