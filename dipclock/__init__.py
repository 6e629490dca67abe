"""dipclock: the deadline clock for face-to-face Diplomacy tournaments.

The pure core (events, timeline, penalties, late, sync, powers) takes the time as an
argument and does no I/O; ``cli`` and ``eventfiles`` are the thin shell around it.
"""

__version__ = "0.2.0"
