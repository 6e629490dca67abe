"""Rounds scored under different systems: standings that add them say so.

A round scored under ManorCon (a draw shares 100) and one under Super Pastis (a top scores
over 70) add up to a total no rule text defines. The standings are made all the same (the
TD may have chosen it: a new event for the last round), but the table says which systems it
mixes, from each ``GameScore.system``.
"""

from __future__ import annotations

from collections.abc import Iterable

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.scoring.systems import SYSTEMS
from dipclock.sentences import clauses, plural
from dipclock.standings.model import GameScore


def mixed_systems(scores: Iterable[GameScore]) -> dict[str, tuple[int, ...]]:
    """Each scoring system's rounds, where the scores name more than one system; {} where
    they name one or none (a score without a system mixes nothing)."""
    rounds: dict[str, set[int]] = {}
    for s in scores:
        if s.system is not None:
            rounds.setdefault(s.system, set()).add(s.round)
    if len(rounds) < 2:
        return {}
    return {system: tuple(sorted(r)) for system, r in
            sorted(rounds.items(), key=lambda item: (min(item[1]), item[0]))}


def mixed_note(scores: Iterable[GameScore]) -> Said | None:
    """What every page and file showing these standings says of them where they mix
    systems (None where they do not): one sentence, for the command line and the hub, said
    in each reader's language."""
    mixed = mixed_systems(scores)
    if not mixed:
        return None
    parts = [plural("{system} (round {rounds})", "{system} (rounds {rounds})", len(rounds),
                    system=SYSTEMS[system].name, rounds=", ".join(map(str, rounds)))
             for system, rounds in mixed.items()]
    return said("the totals add games scored under different systems: {systems}",
                systems=clauses(*parts))


def mixed_text(scores: Iterable[GameScore], words: Words = ENGLISH) -> str:
    """``mixed_note`` in ``words``' language ("" where the scores mix no systems)."""
    note = mixed_note(scores)
    return note.in_(words) if note is not None else ""
