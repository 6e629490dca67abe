"""The launcher: the ``dipclock`` command and its subcommands, apart from the pure core.

``dipclock/`` is the pure core (no clock, no file, no socket; ``tests/core/test_purity.py``)
plus ``eventfiles``, its one reader of files. This package is the shell around all of it:
``cli`` routes ``dipclock <command>`` (and ``python -m dipclock``) to the core's own commands
or to ``kiosk``, ``server`` and ``machine``; ``demo`` starts a hub and a kiosk together. It
may import anything; nothing but the launcher imports it, so there is no cycle through it.
"""
