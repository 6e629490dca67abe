"""Places on a board, for the systems that pay by place: tied powers share what their
places pay (C-Diplo: "tied places share the bonus points appropriately"; Carnage: "if two or
more players share a rank, they split the points for those positions")."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import groupby


def shared_places(
    order: Sequence[str], key: Callable[[str], object], pays: Sequence[float]
) -> dict[str, float]:
    """Each power's share of ``pays`` (1st place first) when ``order`` is sorted best first
    and powers with equal ``key`` share a place: a group covering places i..j splits the sum
    of those places' pay equally. Places past the end of ``pays`` pay nothing."""
    out: dict[str, float] = {}
    place = 0
    for _, grouped in groupby(order, key=key):
        group = list(grouped)
        covered = pays[place: place + len(group)]
        for p in group:
            out[p] = sum(covered) / len(group)
        place += len(group)
    return out


def by_centres_then_elimination(
    centres: Mapping[str, int], eliminated: Mapping[str, int]
) -> tuple[list[str], Callable[[str], tuple[int, int]]]:
    """Powers best first by centres, the eliminated among themselves by a later elimination,
    with the key that says who shares a place."""

    def key(p: str) -> tuple[int, int]:
        return (centres[p], eliminated.get(p, 0))

    return sorted(centres, key=key, reverse=True), key
