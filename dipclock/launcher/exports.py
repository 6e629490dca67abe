"""``dipclock export wdd|archive`` and ``dipclock import archive``: out of a hub's data folder.

``export wdd --data DIR --out DIR``: the World Diplomacy Database's ``classification.csv``
and ``boards.csv`` (``server.exports``, ``dipclock.wdd``). ``export archive --data DIR --out
FILE``: the event archive (``server.archive``), what another hub imports to carry on.
``import archive FILE --data DIR``: the archive's event made this data folder's, checked
whole first; a folder holding another event is replaced only with ``--replace`` (its
database kept aside). Run an import with the hub stopped (a running hub keeps its own
file open); the dashboard's Event files card imports into a running hub.

The server's modules are imported only when one of these runs, as ``dipclock roster``
does: plain ``dipclock plan`` needs none of them. Bad input: exit 2 and one line.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dipclock.arguments import UsageError
from dipclock.i18n import Words, said
from dipclock.launcher.language import Note, add_lang, os_said, words_for
from dipclock.launcher.roster import open_hub_data

_DATA = {"required": True, "type": Path, "metavar": "DIR",
         "help": "the hub's data folder (as `dipclock hub --data` has it)"}


def add_export_parsers(sub: Any) -> None:
    export = sub.add_parser("export", help="the WDD's files or the event archive, from a "
                                           "hub's data folder")
    what = export.add_subparsers(dest="export_command", required=True, metavar="wdd|archive",
                                 parser_class=type(export))
    wdd = what.add_parser("wdd", help="classification.csv and boards.csv for the World "
                                      "Diplomacy Database")
    wdd.add_argument("--data", **_DATA)
    wdd.add_argument("--out", required=True, type=Path, metavar="DIR",
                     help="the folder to write the two files into (made if missing)")
    add_lang(wdd)
    arch = what.add_parser("archive", help="the event archive: everything the hub knows "
                                           "of the event, in one file")
    arch.add_argument("--data", **_DATA)
    arch.add_argument("--out", required=True, type=Path, metavar="FILE",
                      help="the archive file to write (a .zip)")
    add_lang(arch)
    imp = sub.add_parser("import", help="an event archive into a hub's data folder")
    kind = imp.add_subparsers(dest="import_command", required=True, metavar="archive",
                              parser_class=type(imp))
    into = kind.add_parser("archive", help="carry on an event from its archive (stop the "
                                           "hub first)")
    into.add_argument("file", type=Path, metavar="FILE", help="the event archive (.zip)")
    into.add_argument("--data", **_DATA)
    into.add_argument("--replace", action="store_true",
                      help="replace the event the folder holds (its database is kept aside)")
    add_lang(into)


def _write(path: Path, data: bytes, what: str) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise UsageError(said("{option} {file}: cannot write it ({reason})", option=what,
                              file=path, reason=os_said(exc))) from None


def run_export(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """What to print, and notes for stderr; bad input is a ``UsageError`` (exit 2)."""
    if args.export_command == "archive":
        import sqlite3

        from server import archive
        from server.settings import Settings

        open_hub_data(args.data).close()  # there, and brought to this version's schema
        try:
            data = archive.make(Settings(data_dir=args.data).db_path)
        except (sqlite3.Error, OSError) as exc:
            raise UsageError(said("--data {folder}: cannot read the hub's store ({reason})",
                                  folder=args.data, reason=str(exc))) from None
        _write(args.out, data, "--out")
        words = words_for(args)
        return words("event archive written to {file} ({size} KB)", file=args.out,
                     size=len(data) // 1024 + 1), []
    from server.exports import ExportRefused, wdd_export

    store = open_hub_data(args.data)
    try:
        done = wdd_export(store)
    except ExportRefused as exc:
        raise UsageError(exc) from None
    finally:
        store.close()
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(said("--out {folder}: cannot make the folder ({reason})",
                              folder=args.out, reason=os_said(exc))) from None
    for name, data in done.files.items():
        _write(args.out / name, data, "--out")
    words = words_for(args)
    return words("{files} written to {folder}", files=_and(list(done.files), words),
                 folder=args.out), list(done.notes)


def _and(names: list[str], words: Words) -> str:
    """The names as a list is said: ``a.csv and b.csv``, ``a.csv, b.csv and c.csv``."""
    if len(names) < 2:
        return "".join(names)
    return words("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def run_import(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """The archive's event made the data folder's; bad input is a ``UsageError``."""
    from server import archive
    from server.settings import Settings

    store = open_hub_data(args.data)
    try:
        there = archive.holds_event(store)
    finally:
        store.close()
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        raise UsageError(said("{file}: cannot read it ({reason})", file=args.file,
                              reason=os_said(exc))) from None
    if len(data) > archive.MOST_UPLOAD:
        raise UsageError(said("{file}: over {size} MB: not an event archive", file=args.file,
                              size=archive.MOST_UPLOAD // 2**20))
    try:
        checked = archive.check(data, args.data)
    except archive.ArchiveRefused as exc:
        raise UsageError(said("{file}: {reason}", file=args.file, reason=exc)) \
            from None
    try:
        if there is not None and not args.replace:
            raise UsageError(said("--data {folder} holds another event ({event}): give "
                                  "--replace to replace it (its database is kept aside)",
                                  folder=args.data, event=there))
        aside = archive.install(checked, Settings(data_dir=args.data).db_path,
                                datetime.now(UTC))
    except OSError as exc:
        raise UsageError(said("--data {folder}: the archive could not be put in place "
                              "({reason}): the folder is unchanged", folder=args.data,
                              reason=os_said(exc))) from None
    finally:
        checked.discard()
    words = words_for(args)
    rounds = words.plural("{n} round", "{n} rounds", checked.rounds)
    people = words.plural("{n} person", "{n} people", checked.people)
    answer = words("{event} imported: {rounds}, {people} on the roster",
                   event=checked.event or words("the event"), rounds=rounds, people=people)
    notes: list[Note] = ([said("the replaced database is kept in {file}", file=aside)]
                         if there is not None else [])
    return answer, notes


__all__ = ["add_export_parsers", "run_export", "run_import"]
