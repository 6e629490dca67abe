"""Putting names in order by keys, and numbering the places with shared ranks (1, 2, 2, 4)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence


def by_name(names: Iterable[str]) -> list[str]:
    """Names in a fixed order (case-blind): players level on everything are listed so."""
    return sorted(names, key=lambda n: (n.casefold(), n))


def group_by(names: Iterable[str], key: Callable[[str], tuple[float, ...]]) -> list[list[str]]:
    """``names`` best (highest key) first, as groups of equal keys."""
    groups: list[list[str]] = []
    last: tuple[float, ...] | None = None
    for name in sorted(by_name(names), key=key, reverse=True):  # stable: names stay sorted
        k = key(name)
        if groups and k == last:
            groups[-1].append(name)
        else:
            groups.append([name])
        last = k
    return groups


def ranks(groups: Sequence[Sequence[str]]) -> list[tuple[int, str, bool]]:
    """(rank, name, shared) for groups in order: a group shares the rank of its first place,
    and the next group's rank counts everyone above it (1, 2, 2, 4)."""
    out: list[tuple[int, str, bool]] = []
    for group in groups:
        rank = len(out) + 1
        out.extend((rank, name, len(group) > 1) for name in group)
    return out
