from dipclock.cli import entry

entry()
