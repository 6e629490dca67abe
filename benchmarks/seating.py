"""``python -m benchmarks.seating``: how well and how fast ``dipclock seat`` seats a hall,
beside the method TDs use today. Figures, not a test.

The halls, each seated round after round as a TD seats them (each round given the rounds
before it):

- 49 players, rounds 1 to 4: the pairs met before and the powers repeated, summed over the
  four rounds (the goal is 0 and 0: the affine plane makes eight clean rounds possible);
- 140 players, round 5 after four seated rounds: the seconds round 5 takes (goal < 10 s);
- wdc2003's 49 players over 4 rounds with its areas of powers (A/I, E/F, R/T, G): the
  players seated in an area they had before, counted once a round (goal 21: Germany is an
  area of one power, so its 28 seats over 4 rounds leave 21 players who never play it and
  repeat an area at least once);
- 56 and 63 players over rounds 1 to 5: the pairs met before, summed (goal 0: the affine
  planes of order 8 and 9, less one and two lines, make 8 and 9 clean rounds possible).

Beside each, in the same run and with the same players and seeds, the Dipvis method as its
users describe it (written here from that description, not from its code): each round
minimises, over every pair of players, the square of how often they have met (a kept-apart
pair counts as 25 meetings), building the boards one by one, the best of ten random
starts; each board's powers are the permutation that gives each player the powers they
have played least. Each figure is the worst of ``--seeds`` seeds. The last line is JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections.abc import Callable

from dipclock.events import BUILTIN
from dipclock.powers import LETTERS
from dipclock.seating import Past, Seat, Table, pair, read_past, seat_round
from dipclock.seating.seat import areas_repeated, pairs_met_before, powers_repeated

#: Dipvis: a kept-apart pair weighs as 25 earlier meetings
APART_AS_MET = 25
#: Dipvis: random starts per round
DIPVIS_STARTS = 10

Seater = Callable[[list[str], Past, int, random.Random], list[Table]]


def dipclock_round(players: list[str], past: Past, number: int,
                   rng: random.Random) -> list[Table]:
    return list(seat_round(players, past, number, rng).tables)


def dipvis_round(players: list[str], past: Past, number: int,
                 rng: random.Random) -> list[Table]:
    """One round by the Dipvis method: boards built one at a time, each next player the
    one who adds least to the board's sum of squared meetings; the best of ten starts."""
    def weight(a: str, b: str) -> int:
        return past.met[pair(a, b)] ** 2

    best: tuple[int, list[list[str]]] | None = None
    for _ in range(DIPVIS_STARTS):
        left = list(players)
        rng.shuffle(left)
        boards: list[list[str]] = []
        while left:
            board = [left.pop(0)]
            while len(board) < len(LETTERS):
                pick = min(left, key=lambda p: sum(weight(p, q) for q in board))
                left.remove(pick)
                board.append(pick)
            boards.append(board)
        cost = sum(weight(a, b) for board in boards for a, b in itertools.combinations(board, 2))
        if best is None or cost < best[0]:
            best = (cost, boards)
    assert best is not None
    return [Table(n, _permuted_powers(board, past))
            for n, board in enumerate(best[1], start=1)]


def _permuted_powers(board: list[str], past: Past) -> dict[str, str]:
    """The permutation of the powers whose players have played them least, summed."""
    def played(order: tuple[str, ...]) -> int:
        return sum(past.times_played(p, power) for p, power in zip(order, LETTERS, strict=True))

    order = min(itertools.permutations(board), key=played)
    return dict(zip(LETTERS, order, strict=True))


def play(seater: Seater, players: list[str], rounds: int, seed: int
         ) -> tuple[int, int, float]:
    """Seat rounds 1..``rounds``: the pairs met before and powers repeated, summed, and the
    seconds the last round took."""
    rng = random.Random(seed)
    history: list[Seat] = []
    met = repeated = 0
    seconds = 0.0
    for r in range(1, rounds + 1):
        past = read_past(history)
        began = time.perf_counter()
        tables = seater(players, past, r, rng)
        seconds = time.perf_counter() - began
        met += pairs_met_before(tables, past)
        repeated += powers_repeated(tables, past)
        history += [Seat(r, t.number, power, p) for t in tables for power, p in t.seats.items()]
    return met, repeated, seconds


def areas_played(players: list[str], rounds: int, seed: int) -> int:
    """Seat rounds 1..``rounds`` under wdc2003's rules: the players seated in an area of
    powers they had before, summed over the rounds."""
    rules = BUILTIN["wdc2003"].standings
    rng = random.Random(seed)
    history: list[Seat] = []
    total = 0
    for r in range(1, rounds + 1):
        past = read_past(history)
        tables = seat_round(players, past, r, rng, rules=rules).tables
        total += areas_repeated(tables, past, rules)
        history += [Seat(r, t.number, power, p) for t in tables for power, p in t.seats.items()]
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--large", type=int, default=140, help="the second hall's players")
    args = ap.parse_args()
    seeds = range(1, args.seeds + 1)
    small = [f"Player {n:02d}" for n in range(49)]
    large = [f"Player {n:03d}" for n in range(args.large)]
    figures: dict[str, float] = {}
    for name, seater in (("dipclock", dipclock_round), ("dipvis", dipvis_round)):
        runs = [play(seater, small, 4, s) for s in seeds]
        timed = [play(seater, large, 5, s) for s in seeds]
        for s, (m, p, _), (lm, lp, sec) in zip(seeds, runs, timed, strict=True):
            print(f"{name:8} seed {s}: 49x4 pairs met before {m:3d}, powers repeated {p:3d}; "
                  f"{len(large)} round 5: {sec:6.2f} s (all 5 rounds: pairs {lm}, "
                  f"powers {lp})")
        prefix = "seat" if name == "dipclock" else "dipvis"
        figures[f"{prefix}_pairs_met_before_49x4"] = max(m for m, _, _ in runs)
        figures[f"{prefix}_powers_repeated_49x4"] = max(p for _, p, _ in runs)
        figures[f"{prefix}_seconds_140"] = round(max(sec for _, _, sec in timed), 2)
        figures[f"{prefix}_seconds_140_median"] = round(
            statistics.median(sec for _, _, sec in timed), 2)
        for n in (56, 63):  # the planes of order 8 and 9 less a line or two (issue 36)
            cut = [play(seater, [f"Player {i:02d}" for i in range(n)], 5, s) for s in seeds]
            for s, (m, p, _) in zip(seeds, cut, strict=True):
                print(f"{name:8} seed {s}: {n}x5 pairs met before {m:3d}, powers repeated "
                      f"{p:3d}")
            figures[f"{prefix}_pairs_met_before_{n}x5"] = max(m for m, _, _ in cut)
    areas = [areas_played(small, 4, s) for s in seeds]
    for s, a in zip(seeds, areas, strict=True):
        print(f"wdc2003  seed {s}: 49x4 areas repeated {a:3d} (goal 21)")
    figures["seat_areas_repeated_49x4"] = max(areas)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
