"""dipclock: the deadline clock for face-to-face Diplomacy tournaments.

Every module here but two is the pure core: it takes the time as an argument and does no
I/O (tests/core/test_purity.py finds them all). The two others: ``eventfiles`` reads an
event's TOML file, and ``launcher`` is the ``dipclock`` command that starts everything
else. docs/architecture.md draws the whole house.
"""

__version__ = "0.2.0"
