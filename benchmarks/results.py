"""``python -m benchmarks.results``: what the results desk's reads cost at a big event's
end. Figures, not a test.

A store on disk (no server) with 100 tables of wdc2006, four rounds, 700 players seated in
a new order each round and every board's sheet confirmed: 400 sheets, 2,800 game scores.
We time what the TD's Results card asks for on each poll (a round's sheets, and the
standings with the top board's seeding and best countries) and the results CSV, each the
median of ``--times`` calls after a first one. The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from dipclock.events import BUILTIN
from dipclock.powers import LETTERS
from server.resultsdesk import board_of, game_scores, results_csv, round_sheets, standings_view
from server.sheets import Sheet, SheetIn
from server.store import RoundRow, Seat, Store

START = datetime(2026, 5, 1, 9, 0)
#: one board's end, turned a little per table so the standings are not all ties
CENTRES = (7, 6, 6, 5, 4, 4, 2)


def fill(store: Store, tables: int, rounds: int) -> None:
    profile = BUILTIN["wdc2006"]
    store.set_tables(list(range(1, tables + 1)), START, "tables")
    players = [f"Player {n:03d}" for n in range(tables * 7)]
    for r in range(1, rounds + 1):
        store.set_round(RoundRow(r, START + timedelta(hours=6 * r), None, None, f"Round {r}",
                                 profile), START, f"round {r}")
        store.set_seating([Seat(r, t, p, players[((t - 1) * 7 + i + 37 * r) % len(players)])
                           for t in range(1, tables + 1) for i, p in enumerate(LETTERS)],
                          START, "seating")
        for t in range(1, tables + 1):
            turn = (t + r) % 7
            centres = dict(zip(LETTERS, CENTRES[turn:] + CENTRES[:turn], strict=True))
            store.edit_sheet(r, t, 0, entered(Sheet(r, t, SheetIn(centres=centres, year=1909),
                                                    {}, td=True, by_td=True,
                                                    at=START.isoformat())), START)


def entered(sheet: Sheet) -> Callable[[Sheet | None], tuple[Sheet, str]]:
    """The edit that stores ``sheet`` as a board's first (``Store.edit_sheet``)."""
    return lambda _: (sheet, f"round {sheet.round} table {sheet.table} sheet")


def median_ms(work: Callable[[], object], times: int) -> float:
    work()
    took = []
    for _ in range(times):
        t0 = time.perf_counter()
        work()
        took.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(took), 1)


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks.results", description=__doc__)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--times", type=int, default=9)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="dipclock-results-") as d:
        store = Store(Path(d) / "hub.sqlite3")
        try:
            fill(store, args.tables, args.rounds)
            last = args.rounds
            board = board_of(store, last)
            assert board is not None
            figures = {
                "sheets": args.tables * args.rounds,
                "round_sheets_ms": median_ms(lambda: round_sheets(store, board), args.times),
                "standings_ms": median_ms(lambda: standings_view(store, last), args.times),
                "results_csv_ms": median_ms(lambda: results_csv(game_scores(store)),
                                            args.times),
            }
        finally:
            store.close()
    print(f"{figures['sheets']} confirmed sheets: a round's sheets "
          f"{figures['round_sheets_ms']} ms, standings {figures['standings_ms']} ms, "
          f"results CSV {figures['results_csv_ms']} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
