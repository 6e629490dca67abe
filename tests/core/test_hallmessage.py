"""The hall message's rules: what a message is, and whether it shows at a moment."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import BaseModel, ValidationError

from dipclock.errors import DipclockError, describe
from dipclock.hallmessage import (
    MAX_LENGTH,
    HallMessage,
    MessageError,
    MessageText,
    clean_text,
    new,
    seconds_left,
    shown,
)

SET = datetime(2024, 5, 4, 12, 30, 15)


def test_the_text_is_stripped_and_kept_as_typed() -> None:
    assert clean_text("  Lunch in the bar until 14:00  ") == "Lunch in the bar until 14:00"
    assert clean_text("x" * MAX_LENGTH) == "x" * MAX_LENGTH
    assert clean_text("Ronde 2 : appel des tables — salle Köln") == (
        "Ronde 2 : appel des tables — salle Köln")


@pytest.mark.parametrize(("raw", "says"), [
    ("", "needs some text (1 to 120 characters)"),
    ("   \t ", "needs some text"),
    ("x" * (MAX_LENGTH + 1), "at most 120 characters; this one has 121"),
    ("Lunch\nin the bar", "one line: no line breaks"),
    ("Lunch\r\n", "Lunch"),  # stripped: a trailing line break is no second line
    ("Lunch\u2028bar", "one line"),
    ("Tab\there", "cannot show U+0009 (a control character)"),
    ("Bell\x07", "cannot show U+0007"),
    ("zero\u200bwidth", "cannot show U+200B (zero width space)"),
])
def test_a_bad_text_is_one_clear_error(raw: str, says: str) -> None:
    if raw.strip() == says:
        assert clean_text(raw) == says
        return
    with pytest.raises(MessageError) as caught:
        clean_text(raw)
    assert isinstance(caught.value, DipclockError) and says in str(caught.value)
    assert "\n" not in str(caught.value)


#: Invisible characters a message could be made of: each a blank banner with a chime.
INVISIBLE = [
    "\u200b\u200b\u200b",  # zero width spaces
    "\u2060 \u2060",  # word joiners and a space
    "\u200e\u200f\u202a\u202c",  # bidi marks and embeddings
    "\ufe0f\ufe0e\ufe0f",  # variation selectors
    "\u3164\u3164",  # Hangul fillers (letters to Python, drawn as nothing)
    "\u2800\u2800",  # the blank braille pattern
    "\u00a0\u200b\u3000\ufeff",  # a no-break space, an ideographic one, a BOM
    "\u00ad\u034f\u180e",  # a soft hyphen, a grapheme joiner, a Mongolian separator
    "\U000e0067\U000e0062\U000e007f",  # tags without their flag
    "\u200d\u200c",  # joiners joining nothing
    "\u0301\u0308",  # accents on nothing
]


@pytest.mark.parametrize("raw", INVISIBLE)
def test_a_message_of_invisible_characters_has_nothing_to_show(raw: str) -> None:
    with pytest.raises(MessageError) as caught:
        clean_text(raw)
    assert str(caught.value) == ("the message has nothing to show: it is only spaces and "
                                 "invisible characters")


#: Emoji that join several characters into one picture, and scripts whose words need a
#: joiner: each a part of what the TD typed.
JOINED = [
    "Family 👨\u200d👩\u200d👧 table at the bar",  # a family: man, woman, girl
    "👩🏽\u200d🔬 lab coats on",  # a profession with a skin tone
    "Well played ❤️\u200d🔥",  # heart on fire: a variation selector before the joiner
    "🏳️\u200d🌈 🏳️\u200d⚧️",  # the rainbow and transgender flags
    "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f England wins",
    "🇫🇷 🇩🇪 👍🏽 1️⃣",  # country flags, a skin tone, a keycap (no joiner: allowed before)
    "می\u200cخواهم",  # Persian with a zero width non-joiner
    "क्\u200dष",  # Devanagari half form with a joiner
]


@pytest.mark.parametrize("raw", JOINED)
def test_joined_emoji_and_words_are_kept_as_typed(raw: str) -> None:
    assert clean_text(f"  {raw} ") == raw


@pytest.mark.parametrize(("raw", "says"), [
    ("a\u200d", "cannot show U+200D (zero width joiner)"),  # joins nothing after it
    ("\u200d👩 x", "cannot show U+200D"),  # nothing before it
    ("👨 \u200d 👩", "cannot show U+200D"),  # between spaces
    ("👨\u200d\u200d👩", "cannot show U+200D"),  # a joiner joining a joiner
    ("🏴\U000e0067\U000e0062 England", "cannot show U+E0067 (tag latin small letter g)"),
    ("👨\u200d👩\x07", "cannot show U+0007 (a control character)"),  # a bell stays out
    ("\u200b\x1b", "cannot show U+001B (a control character)"),
    ("Lunch\u200b at one", "cannot show U+200B (zero width space)"),
    ("Lunch \u202e at one", "cannot show U+202E (right-to-left override)"),
])
def test_format_characters_outside_a_grapheme_are_refused(raw: str, says: str) -> None:
    with pytest.raises(MessageError, match=re.escape(says)):
        clean_text(raw)


def test_in_a_model_the_error_is_that_fields_one_line() -> None:
    class Body(BaseModel):
        text: MessageText

    with pytest.raises(ValidationError) as caught:
        Body(text="a\nb")
    assert describe(caught.value.errors()) == "text: a hall message is one line: no line breaks"


@pytest.mark.parametrize("minutes", [0, -5, 721, 10_000])
def test_minutes_outside_1_to_720_are_refused(minutes: int) -> None:
    with pytest.raises(MessageError, match=rf"lasts 1 to 720 minutes \(12 h\), not {minutes}"):
        new("Lunch", SET, minutes)


def test_a_message_with_minutes_shows_until_then_and_not_at_that_instant() -> None:
    m = new("Lunch in the bar", SET, 30)
    until = SET + timedelta(minutes=30)
    assert (m.text, m.since, m.until) == ("Lunch in the bar", SET, until)
    assert shown(m, SET) is m
    assert shown(m, until - timedelta(microseconds=1)) is m
    assert shown(m, until) is None  # at ``until`` it is gone
    assert shown(m, until + timedelta(hours=5)) is None
    assert seconds_left(m, until - timedelta(seconds=2.5)) == 2.5
    assert seconds_left(m, until) is None
    assert new("x", SET, 720).until == SET + timedelta(hours=12)
    assert new("x", SET, 1).until == SET + timedelta(minutes=1)


def test_a_message_without_minutes_shows_until_cleared() -> None:
    m = new("Round 2 board call on the projector", SET)
    assert m.until is None
    assert shown(m, SET + timedelta(days=3)) is m
    assert seconds_left(m, SET) is None
    assert shown(None, SET) is None


def test_moments_are_naive_utc() -> None:
    with pytest.raises(MessageError, match="naive UTC"):
        new("Lunch", SET.replace(tzinfo=UTC))
    with pytest.raises(ValidationError):
        HallMessage.model_validate({"text": "x", "since": "2024-05-04T12:30:00+02:00"})


def test_the_wire_form_reads_back_and_a_newer_hubs_keys_are_ignored() -> None:
    m = new("Lunch", SET, 45)
    wire = json.loads(m.model_dump_json())
    assert wire == {"text": "Lunch", "since": "2024-05-04T12:30:15",
                    "until": "2024-05-04T13:15:15"}
    assert HallMessage.model_validate(wire | {"colour": "red"}) == m
    with pytest.raises(ValidationError):  # the same rules on the way in as on the way out
        HallMessage.model_validate(wire | {"text": "a\nb"})


# --- in the snapshot: a newer hub and an older kiosk, and the reverse --------------------

def _snapshot(**more: object) -> dict[str, object]:
    return {"seq": 5, "hub": "9f2c", "table": 3, "event": None, "schedule": None,
            "hub_time": 1234567.5} | more


def test_the_snapshot_carries_the_message_and_an_older_kiosk_ignores_it() -> None:
    from pydantic import ConfigDict, create_model

    from dipclock.snapshot import Snapshot

    m = new("Round 2 board call on the projector", SET, 10)
    wire = json.loads(Snapshot.model_validate(_snapshot(message=m)).model_dump_json())
    assert wire["message"] == {"text": "Round 2 board call on the projector",
                               "since": "2024-05-04T12:30:15", "until": "2024-05-04T12:40:15"}
    assert Snapshot.model_validate(wire).message == m
    # a kiosk of before hall messages: its model without the field, the same config
    older = create_model(  # type: ignore[call-overload]
        "OlderSnapshot", __config__=ConfigDict(frozen=True, extra="ignore"),
        **{k: (f.annotation, f) for k, f in Snapshot.model_fields.items() if k != "message"})
    assert older.model_validate(wire).seq == 5
    assert Snapshot.model_validate(_snapshot()).message is None  # an older hub: none


def test_a_bad_message_in_a_snapshot_is_one_line_naming_it() -> None:
    from dipclock.snapshot import Snapshot, reason

    with pytest.raises(ValidationError) as caught:
        Snapshot.model_validate(_snapshot(message={"text": "", "since": "2024-05-04T12:00"}))
    assert reason(caught.value) == (
        "message.text: a hall message needs some text (1 to 120 characters)")
