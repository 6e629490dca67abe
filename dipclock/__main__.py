"""``python -m dipclock``: the same command as the ``dipclock`` console script."""

from dipclock.launcher.cli import entry

entry()
