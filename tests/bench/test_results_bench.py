"""``python -m benchmarks.results`` in small, so the benchmark ``make bench`` runs cannot rot
unseen. Its lines, not its timings."""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks.hub import ROOT


def test_the_results_benchmark_runs_and_prints_its_figures():
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.results", "--tables", "3", "--rounds", "2",
         "--times", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["sheets"] == 6
    assert set(figures) == {"sheets", "round_sheets_ms", "standings_ms", "results_csv_ms"}
