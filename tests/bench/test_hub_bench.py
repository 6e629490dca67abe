"""``python -m benchmarks.hub`` in small: more tables than one address may hold connections
(each table's WebSocket from its own address, as in a hall), so the benchmark that
``make bench`` runs cannot rot unseen. Its lines, not its timings."""

from __future__ import annotations

import subprocess
import sys

from benchmarks.hub import ROOT
from server.settings import Settings


def test_the_hub_benchmark_runs_with_more_tables_than_one_address_may_hold():
    tables = Settings.model_fields["per_address"].default + 6
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.hub", "--tables", str(tables), "--rounds", "2",
         "--presses", "100", "--sync-samples", "10"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"until all {tables} tables have it" in done.stdout
    assert "with 100 presses stored: dashboard state" in done.stdout
    assert "refusing connections" not in done.stderr
