"""The card's own settings file, ``dipclock.txt``, in the venue's language: one source.

A TD edits ``dipclock.txt`` on a laptop (the card's DIPCLOCK drive), reading its notes; a
French venue's TD reads them in French. Each note below is one catalogue string (domain
``dipclock``, ``words(...)`` where it is said), so the file is ``render(words)`` in any
language the catalogues have. The committed ``card/files/boot/dipclock.txt`` is the English
render (``tests/kiosk/test_cardfile.py`` compares them, so the two never drift), and the
card's build writes the file in ``CARD_LANGUAGE`` (``make card CARD_LANGUAGE=fr``;
``card.build.boot_files``) with its ``language = fr`` line in use, so the cards of that
venue speak French from their first boot (``kiosk.config.spoken``).

Only the notes and the example values meant for a person ("the Wi-Fi password") are
translated: the keys are the same in every language (``machine.identity`` reads them).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from dipclock.i18n import ENGLISH, N_, Words

#: The file's lines are at most this wide: a laptop's editor shows them whole.
WIDTH = 89


@dataclass(frozen=True)
class Note:
    """A paragraph of the file's notes, wrapped as ``# ...`` lines."""

    text: str


@dataclass(frozen=True)
class Heading:
    """``# ---- What this card is -----``: a section's title, ruled to the file's width."""

    text: str


@dataclass(frozen=True)
class Setting:
    """``# key = value``: an example setting, commented out; ``said``: its value is words a
    person reads ("the Wi-Fi password"), translated; else typed as it is."""

    key: str
    value: str
    said: bool = False


#: ``#`` alone: a pause between two notes of the file's opening
GAP = Note("")
#: an empty line: between two settings' sections
BLANK = None

Part = Note | Heading | Setting | None

PARTS: tuple[Part, ...] = (
    Note(N_("dipclock: this card's settings.")),
    GAP,
    Note(N_("Edit this file on any computer: the card shows up as a drive called DIPCLOCK. "
            "Save it, put the card in the Pi and switch it on. The card reads it again at "
            "every start.")),
    GAP,
    Note(N_("A line starting with # is a note. To use a setting, remove the # in front of it "
            "and write your value after the =. Put a value in \"quotes\" if it holds a #.")),
    Note(N_("A mistake costs only its own line: the card uses every other line, and the "
            "screen names the line not used and why. Raspberry Pi Imager's own settings (its "
            "OS customisation: Wi-Fi, hostname, SSH key, user) are not used: write them "
            "here.")),
    BLANK,
    Heading(N_("What this card is")),
    Note(N_("table: the clock on a table (what every card is unless told); hub: the hall's "
            "hub and the Tournament Director's dashboard (one card in the hall).")),
    Setting("role", "table"),
    BLANK,
    Note(N_("The table's number: the table the TD is asked to approve this clock for. "
            "Without it the clock shows a short code, and the TD picks its table on the "
            "dashboard (under Clocks).")),
    Setting("table", "7"),
    BLANK,
    Note(N_("Where the hub is: auto finds it on the hall's network; or its address, as the "
            "hub printed it, like https://192.168.1.10:8000")),
    Setting("hub", "auto"),
    BLANK,
    Heading(N_("The hall's Wi-Fi (none needed with a network cable)")),
    Setting("wifi_name", "Diplomacy Hall"),
    Setting("wifi_password", "\"{password}\"", said=True),
    Note(N_("The country the hall is in (two letters: GB, DE, FR, US, ...): the radio's "
            "channels.")),
    Setting("wifi_country", "GB"),
    BLANK,
    Heading(N_("The screen, its language and the time")),
    Note(N_("The language of the screens (en, fr, de, it or nl) until the hub has said the "
            "event's: the event's language wins once the hub has said it. Without it, the "
            "language of the last event this card served, else English.")),
    Setting("language", "{language}"),
    Note(N_("The venue's time zone (the table clock shows the hall's time): Europe/London, "
            "Europe/Berlin, America/New_York, ...")),
    Setting("timezone", "Europe/London"),
    Note(N_("The picture's size; without it, the screen's own.")),
    Setting("size", "1920x1080"),
    Note(N_("A screen mounted on its side or upside down: 90, 180 or 270.")),
    Setting("rotate", "0"),
    BLANK,
    Heading(N_("The hub only")),
    Note(N_("The TD's password for the dashboard (8 characters or more), taken at the hub's "
            "first start: the hub keeps only a hash of it, and takes this line off the card "
            "afterwards.")),
    Setting("td_password", "{choose}", said=True),
    BLANK,
    Heading(N_("Logging in (for whoever looks after the cards)")),
    Note(N_("An SSH public key, the one line of your id_ed25519.pub: then "
            "`ssh root@dipclock-table-7` (or the card's address). Without it nobody can log "
            "in: the card has no password.")),
    Setting("ssh_key", "ssh-ed25519 AAAA... you@laptop"),
)

#: The words in the example values (``Setting.said``)
VALUES = {"password": N_("the Wi-Fi password"), "choose": N_("choose one")}


def render(words: Words = ENGLISH) -> str:
    """The whole file in ``words``' language. Its ``language`` line names that language and
    is in use for any but English (a card built for a French venue speaks French before
    its hub answers); in English it stays a note, as every other example does."""
    lines: list[str] = []
    for part in PARTS:
        if part is None:
            lines.append("")
        elif isinstance(part, Heading):
            lines.append(f"# ---- {words(part.text)} ".ljust(WIDTH, "-"))
        elif isinstance(part, Note):
            lines += _note(words(part.text) if part.text else "")
        else:
            lines.append(_setting(part, words))
    return "\n".join(lines) + "\n"


def _note(text: str) -> list[str]:
    if not text:
        return ["#"]
    # a command in `backticks` is typed as it is: never broken across two lines; nor is
    # French's space before : ; ? ! (a line starting with ":" reads as a typo)
    kept = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", NBSP), text)
    kept = re.sub(r" (?=[:;?!](?:\s|$))", NBSP, kept)
    return [line.replace(NBSP, " ") for line in textwrap.wrap(
        kept, WIDTH, initial_indent="# ", subsequent_indent="# ", break_long_words=False,
        break_on_hyphens=False)]


NBSP = "\u00a0"  # textwrap breaks at ASCII spaces only


def _setting(part: Setting, words: Words) -> str:
    if part.key == "language":
        line = f"language = {words.lang}"
        return line if words.lang != "en" else f"# {line}"
    value = part.value
    if part.said:
        value = value.format(**{k: words(v) for k, v in VALUES.items()})
    return f"# {part.key} = {value}"


__all__ = ["PARTS", "WIDTH", "render"]
