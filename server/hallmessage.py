"""The TD's hall message on the hub: the request that sets it, the one stored row, and the
message as the dashboard and the hall page read it.

The rules (what a message is, when it shows) are ``dipclock.hallmessage``; this module only
stores a message, reads it back at the hub's time and words it on the venue's clock.
"""

from __future__ import annotations

import logging
from datetime import datetime, tzinfo
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Strict, ValidationError

from dipclock.hallmessage import HallMessage, check_minutes, clean_text, shown
from dipclock.i18n import Said, said
from dipclock.screen import clock_text
from dipclock.sync import to_seconds
from server.responses import MessageJson
from server.store import Store
from server.views import iso

log = logging.getLogger("uvicorn.error")


class MessageIn(BaseModel):
    """``PUT /api/td/message``: the text (one line, 1 to 120 characters with something to
    show, stripped: ``dipclock.hallmessage.clean_text``) and, if it is to go by itself,
    after how many whole minutes (1 to 720). Strict: a number for the text, or text, a
    fraction or true for the minutes, is a 422."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    text: Annotated[str, Strict(), AfterValidator(clean_text)]
    minutes: Annotated[int, Strict(), AfterValidator(check_minutes)] | None = None


def stored(store: Store) -> HallMessage | None:
    """The last message the TD set, shown or run out (None: cleared, or never set). A row
    the model refuses (written by hand) is logged and taken as no message: it must not
    stop every snapshot."""
    text = store.hall_message()
    if text is None:
        return None
    try:
        return HallMessage.model_validate_json(text)
    except ValidationError as exc:
        log.warning("the stored hall message is not one (%s): none is shown",
                    exc.errors()[0].get("msg", "invalid"))
        return None


def showing(store: Store, now: datetime) -> HallMessage | None:
    """The message shown at ``now`` (hub time): ``dipclock.hallmessage.shown``."""
    return shown(stored(store), now)


def as_json(message: HallMessage | None, tz: tzinfo) -> MessageJson | None:
    if message is None:
        return None
    return MessageJson(text=message.text, since=iso(message.since, tz) or "",
                       until=iso(message.until, tz),
                       ends=to_seconds(message.until) if message.until else None)


def set_line(message: HallMessage, before: HallMessage | None, tz: tzinfo) -> Said:
    """The log's line: ``hall message "Lunch in the bar" until 13:59:41`` (a sentence:
    ``server.logline``)."""
    line = said("hall message \"{text}\" until {time}", text=message.text,
                time=clock_text(message.until, tz)) if message.until else \
        said("hall message \"{text}\" until cleared", text=message.text)
    if before is not None:
        line = said("{change} (replaces \"{text}\")", change=line, text=before.text)
    return line


def clear_line(before: HallMessage) -> Said:
    return said("hall message cleared: \"{text}\"", text=before.text)
