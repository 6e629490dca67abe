"""A hall message: one line the TD puts on every table's clock and on the hall's projector
("Round 2 board call on the projector", "Lunch in the bar until 14:00").

What a message is and when it shows, decided once here: the hub checks the TD's text with
it, stores and sends the message, and the hub, every kiosk and the hall page hide it at
``until`` by their own reading of hub time, so a table cut off from the hub still takes
"Lunch until 14:00" down on time. Pure: the moment is always a parameter.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timedelta
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

from dipclock.errors import DipclockError
from dipclock.i18n import Said, said

#: The longest message, in characters: two lines on a 7-inch table screen, read from a
#: seat across the table.
MAX_LENGTH = 120
#: The longest a message may be set to last, in minutes (a long lunch, a day's session).
MAX_MINUTES = 720


class MessageError(DipclockError, ValueError):
    """A hall message the TD must retype; a ``ValueError`` too, so a pydantic model using
    the checks below says it as that field's one line."""


#: Characters that draw nothing: Unicode's Default_Ignorable_Code_Point (zero-width spaces
#: and joiners, bidi marks, variation selectors, fillers, tags; DerivedCoreProperties.txt)
#: and the blank braille pattern. A message of these and spaces is a blank banner.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")
#: Zero-width joiner and non-joiner: part of the grapheme they join (a family emoji, a
#: profession with a skin tone, a Persian or Indic word), between two visible characters.
_JOINERS = "\u200c\u200d"
#: A subdivision flag (England, Scotland, Wales): a black flag, tag letters, a cancel tag.
_TAG_SEQUENCE = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def _visible(c: str) -> bool:
    """A character that puts ink on the screen by itself: a letter, digit, punctuation or
    symbol (an emoji, a skin tone, half a flag), not one of the ``_INVISIBLE``."""
    return unicodedata.category(c)[0] in "LNPS" and not _INVISIBLE.match(c)


def _base(text: str, i: int) -> str | None:
    """The character a joiner at ``i`` follows, past the marks and variation selectors
    drawn on it ("❤️‍🔥" is a heart, VS16, a joiner, a fire)."""
    while i > 0 and unicodedata.category(text[i - 1]) in ("Mn", "Mc", "Me"):
        i -= 1
    return text[i - 1] if i > 0 else None


def _in_a_grapheme(text: str) -> set[int]:
    """Where ``text`` has a format character that is part of what is drawn: a joiner
    between two visible characters, the tags of a subdivision flag."""
    kept = {i for m in _TAG_SEQUENCE.finditer(text) for i in range(m.start() + 1, m.end())}
    for i, c in enumerate(text):
        if c in _JOINERS:
            before, after = _base(text, i), text[i + 1:i + 2]
            if before is not None and _visible(before) and after and _visible(after):
                kept.add(i)
    return kept


def clean_text(raw: str) -> str:
    """The message as shown: stripped, one line of 1 to ``MAX_LENGTH`` printable
    characters with something to see (a control character would draw as a box, a line
    break would split the banner, a message of invisible characters is a blank banner with
    a chime). A joiner inside an emoji or a word is part of it and kept."""
    text = raw.strip()
    if not text:
        raise MessageError(said("a hall message needs some text (1 to {most} characters)",
                                most=MAX_LENGTH))
    if any(c in "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029" for c in text):
        raise MessageError(said("a hall message is one line: no line breaks"))
    if len(text) > MAX_LENGTH:
        raise MessageError(said("a hall message is at most {most} characters; this one has "
                                "{n}", most=MAX_LENGTH, n=len(text)))
    control = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        raise MessageError(_cannot_show(control))
    if not any(_visible(c) for c in text):
        raise MessageError(said("the message has nothing to show: it is only spaces and "
                                "invisible characters"))
    kept = _in_a_grapheme(text)
    odd = next((c for i, c in enumerate(text) if not c.isprintable() and i not in kept), None)
    if odd is not None:
        raise MessageError(_cannot_show(odd))
    return text


def _cannot_show(c: str) -> Said:
    code = f"U+{ord(c):04X}"
    name = unicodedata.name(c, "")
    if not name:
        return said("a hall message cannot show {code} (a control character)", code=code)
    # Unicode's own name of the character, as its tables give it
    return said("a hall message cannot show {code} ({name})", code=code, name=name.lower())


def check_minutes(minutes: int) -> int:
    """How long a message lasts: 1 to ``MAX_MINUTES`` whole minutes."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise MessageError(said("a hall message lasts 1 to {most} minutes ({hours} h), not "
                                "{minutes}", most=MAX_MINUTES, hours=MAX_MINUTES // 60,
                                minutes=minutes))
    return minutes


def _naive(moment: datetime) -> datetime:
    if moment.tzinfo is not None:
        raise MessageError(said("a hall message's moments are naive UTC, without a zone"))
    return moment


MessageText = Annotated[str, AfterValidator(clean_text)]
NaiveMoment = Annotated[datetime, AfterValidator(_naive)]


class HallMessage(BaseModel):
    """The TD's message as the hub stores and sends it.

    ``since``: when the TD set it (naive UTC), which tells one message from the next (a
    clock chimes once for each, even for the same words set again); ``until``: the
    moment it goes by itself, naive UTC (None: shown until the TD clears it).
    Unknown keys are ignored, so a kiosk takes a newer hub's message.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    text: MessageText
    since: NaiveMoment
    until: NaiveMoment | None = None


def new(text: str, now: datetime, minutes: int | None = None) -> HallMessage:
    """The message the TD sets at ``now``, lasting ``minutes`` (None: until cleared);
    ``MessageError`` with one line when the text or the minutes will not do."""
    until = None if minutes is None else now + timedelta(minutes=check_minutes(minutes))
    return HallMessage(text=clean_text(text), since=_naive(now), until=until)


def shown(message: HallMessage | None, now: datetime) -> HallMessage | None:
    """The message if it shows at ``now``: from the moment it is set while ``now`` is
    before ``until`` (at ``until`` itself it is gone), or until cleared without one."""
    if message is None or (message.until is not None and now >= message.until):
        return None
    return message


def seconds_left(message: HallMessage | None, now: datetime) -> float | None:
    """Seconds until a shown message goes by itself (None: it does not, or is not shown):
    a screen that redraws only on change wakes then."""
    if shown(message, now) is None or message is None or message.until is None:
        return None
    return (message.until - now).total_seconds()
