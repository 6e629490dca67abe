"""A hall message: one line the TD puts on every table's clock and on the hall's projector
("Round 2 board call on the projector", "Lunch in the bar until 14:00").

What a message is and when it shows, decided once here: the hub checks the TD's text with
it, stores and sends the message, and the hub, every kiosk and the hall page hide it at
``until`` by their own reading of hub time, so a table cut off from the hub still takes
"Lunch until 14:00" down on time. Pure: the moment is always a parameter.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

from dipclock.errors import DipclockError

#: The longest message, in characters: two lines on a 7-inch table screen, read from a
#: seat across the table.
MAX_LENGTH = 120
#: The longest a message may be set to last, in minutes (a long lunch, a day's session).
MAX_MINUTES = 720


class MessageError(DipclockError, ValueError):
    """A hall message the TD must retype; a ``ValueError`` too, so a pydantic model using
    the checks below says it as that field's one line."""


def clean_text(raw: str) -> str:
    """The message as shown: stripped, one line of 1 to ``MAX_LENGTH`` printable
    characters (a control character would draw as a box, a line break would split the
    banner)."""
    text = raw.strip()
    if not text:
        raise MessageError(f"a hall message needs some text (1 to {MAX_LENGTH} characters)")
    if any(c in "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029" for c in text):
        raise MessageError("a hall message is one line: no line breaks")
    if len(text) > MAX_LENGTH:
        raise MessageError(
            f"a hall message is at most {MAX_LENGTH} characters; this one has {len(text)}")
    odd = next((c for c in text if not c.isprintable()), None)
    if odd is not None:
        name = unicodedata.name(odd, "a control character")
        raise MessageError(f"a hall message cannot show U+{ord(odd):04X} ({name.lower()})")
    return text


def check_minutes(minutes: int) -> int:
    """How long a message lasts: 1 to ``MAX_MINUTES`` whole minutes."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise MessageError(f"a hall message lasts 1 to {MAX_MINUTES} minutes "
                           f"({MAX_MINUTES // 60} h), not {minutes}")
    return minutes


def _naive(moment: datetime) -> datetime:
    if moment.tzinfo is not None:
        raise MessageError("a hall message's moments are naive UTC, without a zone")
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
