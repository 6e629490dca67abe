"""``python -m benchmarks.seating`` in small, so the benchmark ``make bench`` runs cannot rot
unseen: its lines and its quality figures (which do not depend on the machine), not its
timings."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter

from benchmarks.hub import ROOT
from benchmarks.seating import dipvis_round
from dipclock.powers import LETTERS
from dipclock.seating import Seat, read_past


def test_the_seating_benchmark_runs_and_prints_its_figures():
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.seating", "--seeds", "1", "--large", "21"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.splitlines()[-1])
    assert set(figures) == {f"{who}_{key}" for who in ("seat", "dipvis") for key in (
        "pairs_met_before_49x4", "powers_repeated_49x4", "seconds_140",
        "seconds_140_median", "pairs_met_before_56x5", "pairs_met_before_63x5")} | {
        "seat_areas_repeated_49x4"}
    assert figures["seat_pairs_met_before_49x4"] == figures["seat_powers_repeated_49x4"] == 0
    assert figures["seat_pairs_met_before_56x5"] == figures["seat_pairs_met_before_63x5"] == 0
    assert figures["dipvis_pairs_met_before_49x4"] > 0
    assert figures["seat_areas_repeated_49x4"] == 21  # wdc2003's areas: what Germany forces


def test_the_dipvis_method_seats_everyone_once_with_each_power_once():
    players = [f"P{n}" for n in range(21)]
    history = [Seat(1, 1 + n // 7, LETTERS[n % 7], p) for n, p in enumerate(players)]
    tables = dipvis_round(players, read_past(history), 2, random.Random(1))
    seated = Counter(p for t in tables for p in t.seats.values())
    assert set(seated.values()) == {1} and len(seated) == 21
    assert all(sorted(t.seats) == sorted(LETTERS) for t in tables)
    # three tables from three: each new table holds at least 5 pairs who met; greedy is 5
    met = read_past(history).met
    assert all(sum(met[(a, b)] for a in t.seats.values() for b in t.seats.values() if a < b)
               >= 5 for t in tables)
