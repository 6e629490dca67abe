"""``dipclock roster import|list|export``: the event's roster on a hub's data folder.

The same store the hub keeps (``server.store``, in ``DIR/hub.sqlite3``), opened as the hub
opens it, so the command may run beside a running hub; the same checks as the hub's
import (``dipclock.roster``). The server's modules (and sqlite3) are imported only when a
roster command runs: plain ``dipclock plan`` needs none of them.

``import`` merges the file into the roster (``--replace``: the roster becomes the file's
people). A refused line stores nothing: exit 2, each refusal on a line of its own, unless
``--keep-good``, which stores the good lines and lists the refused ones as notes.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dipclock.arguments import UsageError
from dipclock.i18n import ENGLISH, Words, said
from dipclock.launcher.language import (
    Note,
    add_lang,
    os_said,
    print_notes,
    say_in,
    words_for,
)
from dipclock.roster import (
    Person,
    RosterFile,
    RosterFileError,
    decode,
    read_roster,
    write_roster,
)

if TYPE_CHECKING:
    from server.store import Store


def add_roster_parser(sub: Any) -> None:
    roster = sub.add_parser("roster", help="the event's people on a hub's data folder")
    how = roster.add_subparsers(dest="roster_command", required=True, metavar="import|list|export",
                                parser_class=type(roster))
    data = {"required": True, "type": Path, "metavar": "DIR",
            "help": "the hub's data folder (as `dipclock hub --data` has it)"}
    imp = how.add_parser("import", help="add a CSV file's people to the roster")
    imp.add_argument("file", type=Path, metavar="FILE",
                     help="given_name,family_name,... with a header line (any order)")
    imp.add_argument("--data", **data)
    imp.add_argument("--replace", action="store_true",
                     help="the roster becomes the file's people (default: merge, by name)")
    imp.add_argument("--keep-good", action="store_true",
                     help="store the good lines even when some are refused")
    add_lang(imp)
    listing = how.add_parser("list", help="print the roster")
    listing.add_argument("--data", **data)
    listing.add_argument("--json", action="store_true", help="print JSON")
    add_lang(listing)
    export = how.add_parser("export", help="the roster as the CSV file import reads")
    export.add_argument("--data", **data)
    export.add_argument("--out", type=Path, metavar="FILE",
                        help="write the file here (default: standard output)")
    add_lang(export)


def run_roster(args: argparse.Namespace) -> tuple[str, list[Note]]:
    """What to print, and notes for stderr; bad input is a ``UsageError`` (exit 2)."""
    store = open_hub_data(args.data)
    try:
        if args.roster_command == "import":
            return _import(store, args)
        people = [p for _, p in store.people()]
        if args.roster_command == "list":
            return (json.dumps([person_json(i, p) for i, p in store.people()], indent=2,
                               ensure_ascii=False)
                    if args.json else list_text(people, words_for(args))), []
        text = write_roster(people)
        if args.out is None:
            return text.rstrip("\n"), []
        try:
            args.out.write_bytes(text.encode("utf-8"))
        except OSError as exc:
            raise UsageError(said("--out {file}: cannot write it ({reason})", file=args.out,
                                  reason=os_said(exc))) from None
        return words_for(args).plural("{n} person written to {file}",
                                      "{n} people written to {file}", len(people),
                                      file=args.out), []
    finally:
        store.close()


def open_hub_data(data: Path) -> Store:
    """The hub's store in its data folder ``data``, for a command run beside it (the
    roster, the exports); a folder without one is a ``UsageError`` naming it."""
    import sqlite3  # here: the front door's other commands load no store (tests/core/test_cli)

    from server.settings import Settings
    from server.store import Store

    path = Settings(data_dir=data).db_path
    if not path.is_file():
        raise UsageError(said("--data {folder}: no hub's data there ({file}): give the "
                              "folder `dipclock hub --data` uses, or start the hub on it once",
                              folder=data, file=path.name))
    try:
        return Store(path)
    except (sqlite3.Error, OSError) as exc:
        raise UsageError(said("--data {folder}: cannot open the hub's store ({reason})",
                              folder=data, reason=str(exc))) from None


def _import(store: Store, args: argparse.Namespace) -> tuple[str, list[Note]]:
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        raise UsageError(said("{file}: cannot read it ({reason})", file=args.file,
                              reason=os_said(exc))) from None
    try:
        text, note = decode(data)
        read = read_roster(text)
    except RosterFileError as exc:
        raise UsageError(said("{file}: {reason}", file=args.file, reason=exc)) \
            from None
    notes: list[Note] = [said("{file}: {note}", file=args.file, note=n)
                         for n in ((note,) if note else ()) + read.notes]
    read = RosterFile(read.people, read.refused)
    import sqlite3

    from server.store import StoreConflict

    try:
        done = store.import_roster(read, datetime.now(UTC).replace(tzinfo=None),
                                   replace=args.replace, keep_good=args.keep_good)
    except StoreConflict as exc:  # a replacement that would remove someone seated
        raise UsageError(exc) from None
    except sqlite3.Error as exc:
        raise UsageError(said("--data {folder}: the hub's store refused ({reason})",
                              folder=args.data, reason=str(exc))) from None
    refused: list[Note] = [said("{file}: {note}", file=args.file, note=r.text())
                           for r in done.combined.refused]
    if refused and not done.stored:
        words = words_for(args)
        print_notes(words, notes)
        for line in refused:  # one a line, then the verdict as the last line
            print(words("dipclock: error: {message}", message=say_in(words, line)),
                  file=sys.stderr)
        raise UsageError(said("{refused} line(s) refused, nothing stored: fix the file, or "
                              "give --keep-good to store the {good} good line(s)",
                              refused=len(refused), good=len(read.people)))
    words = words_for(args)
    answer = done.combined.summary(words) if done.stored else \
        words("roster import: nothing to change")
    return answer, notes + refused


def person_json(person_id: int, p: Person) -> dict[str, object]:
    """A person as the hub's API says it (``server.routers.roster.PersonOut``)."""
    return {"id": person_id, "name": p.name, "given_name": p.given, "family_name": p.family,
            "homonym": p.homonym, "note": p.note, "wdd": p.wdd, "wdr": p.wdr,
            "nationality": p.nationality, "club": p.club, "preregistered": p.preregistered,
            "email": p.email, "location": p.location}


def list_text(people: list[Person], words: Words = ENGLISH) -> str:
    """A line a person: name, nationality, WDD id, club, pre-registered or not."""
    if not people:
        return words("The roster is empty: `dipclock roster import FILE --data DIR` fills it.")
    # i18n: the roster's column heads, short: Nationality, pre-registered
    name, nat, pre, club = words("Name"), words("Nat"), words("Pre"), words("Club")
    yes, no = words("yes"), words("no")
    width = max(len(name), *(len(p.name) for p in people))
    wide = max(3, len(nat))
    flag = max(len(pre), len(yes), len(no))
    lines = [f"{name:<{width}}  {nat:<{wide}}  {'WDD':>9}  {pre:<{flag}}  {club}"]
    lines += [f"{p.name:<{width}}  {p.nationality or '-':<{wide}}  {p.wdd or '-':>9}  "
              f"{yes if p.preregistered else no:<{flag}}  {p.club}".rstrip() for p in people]
    lines.append(words.plural("{n} person, {pre} pre-registered",
                              "{n} people, {pre} pre-registered", len(people),
                              pre=sum(p.preregistered for p in people)))
    return "\n".join(lines)


__all__ = ["add_roster_parser", "open_hub_data", "run_roster"]
