"""The button-box protocol: the pure parser, line assembly, and the reader on pyserial loop://."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator

import pytest
import serial
from hypothesis import given
from hypothesis import strategies as st

from hardware import ButtonEvent, ButtonsClosed, SerialButtonBox, parse_line
from hardware import serialbox as sb
from hardware.serialbox import (
    GARBLED_LOG_LIMIT,
    MAX_LINE,
    BoxHold,
    BoxPress,
    Garbled,
    Heartbeat,
    Hello,
    LineAssembler,
    event_for,
)

# ---- parse_line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"HELLO dipclock-box 1\n", Hello(1)),
        (b"K\n", Heartbeat()),
        (b"P A 240\n", BoxPress("A", 240)),
        (b"P T 0\r\n", BoxPress("T", 0)),  # Arduino println's \r\n is fine
        (b"P R 2999", BoxPress("R", 2999)),  # terminator optional
        (b"P E 60000\n", BoxPress("E", 60000)),
        (b"H G\n", BoxHold("G")),
        (b"H I\r\n", BoxHold("I")),
    ],
)
def test_good_lines(line: bytes, expected: object) -> None:
    assert parse_line(line) == expected


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"\n", "empty"),
        (b"\x00\xff\xfe\x80garbage\n", "ASCII"),
        (b"P X 100\n", "unknown power"),
        (b"P a 100\n", "unknown power"),  # strict: upper case only
        (b"H AE\n", "unknown power"),
        (b"P A\n", "press needs"),  # half a line
        (b"P\n", "press needs"),
        (b"P A 100 7\n", "press needs"),
        (b"P A -1\n", "duration"),
        (b"P A 1e3\n", "duration"),
        (b"P A 60001\n", "duration"),
        (b"P A 999999999999\n", "duration"),
        (b"P  A 100\n", "exactly one space"),
        (b" K\n", "exactly one space"),
        (b"K \n", "exactly one space"),
        (b"K 1\n", "no fields"),
        (b"H\n", "hold needs"),
        (b"HELLO other-box 1\n", "hello needs"),
        (b"HELLO dipclock-box\n", "hello needs"),
        (b"HELLO dipclock-box 99999\n", "out of range"),
        (b"p A 100\n", "unknown message"),
        (b"X" * (MAX_LINE + 1) + b"\n", "longer than"),
        (b"P A 100\n\n", "ASCII"),  # two terminators: the line holds a control byte
    ],
)
def test_garbled_lines_say_why(line: bytes, reason: str) -> None:
    result = parse_line(line)
    assert isinstance(result, Garbled)
    assert reason in result.reason
    assert result.line == line


@given(st.binary(max_size=200))
def test_parse_line_never_raises_and_always_answers(data: bytes) -> None:
    result = parse_line(data)
    assert isinstance(result, Hello | Heartbeat | BoxPress | BoxHold | Garbled)
    if isinstance(result, Garbled):
        assert result.reason


@given(st.sampled_from("AEFGIRT"), st.integers(0, 60_000), st.sampled_from([b"\n", b"\r\n", b""]))
def test_every_valid_press_parses(power: str, ms: int, end: bytes) -> None:
    assert parse_line(f"P {power} {ms}".encode() + end) == BoxPress(power, ms)


@given(st.binary(max_size=60))
def test_anything_that_parses_is_exactly_the_grammar(data: bytes) -> None:
    result = parse_line(data)
    body = data.removesuffix(b"\n").removesuffix(b"\r")
    if isinstance(result, BoxPress):
        assert int(body.split(b" ")[2]) == result.ms  # leading zeros are the only leeway
        assert body.startswith(f"P {result.power} ".encode())
    elif isinstance(result, BoxHold):
        assert body == f"H {result.power}".encode()
    elif isinstance(result, Heartbeat):
        assert body == b"K"
    elif isinstance(result, Hello):
        assert body.startswith(b"HELLO dipclock-box ")


def test_press_is_stamped_when_the_button_went_down() -> None:
    assert event_for(BoxPress("A", 250), 100.0) == ButtonEvent("A", "press", 99.75, "serial")
    assert event_for(BoxHold("E"), 100.0) == ButtonEvent("E", "hold", 100.0, "serial")
    assert event_for(Heartbeat(), 100.0) is None


# ---- LineAssembler --------------------------------------------------------------------------

good_line = st.one_of(
    st.builds(
        lambda p, ms: f"P {p} {ms}".encode(), st.sampled_from("AEFGIRT"), st.integers(0, 2999)
    ),
    st.builds(lambda p: f"H {p}".encode(), st.sampled_from("AEFGIRT")),
    st.just(b"K"),
)


@given(st.lists(good_line, max_size=20), st.lists(st.integers(1, 30), max_size=30))
def test_lines_survive_any_chunking(lines: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(line + b"\n" for line in lines)
    assembler, got, pos = LineAssembler(), [], 0
    for cut in [*cuts, len(stream)]:
        got += assembler.feed(stream[pos : pos + cut])
        pos += cut
    got += assembler.feed(stream[pos:])
    assert got == lines


@given(st.binary(max_size=500).map(lambda b: b.replace(b"\n", b"")), good_line, st.integers(1, 64))
def test_junk_never_swallows_the_next_good_line(junk: bytes, line: bytes, chunk: int) -> None:
    stream = junk + b"\n" + line + b"\n"
    assembler, got = LineAssembler(), []
    for i in range(0, len(stream), chunk):
        got += assembler.feed(stream[i : i + chunk])
    assert got[-1] == line
    assert len(got) == 2  # the junk is one item (a raw line or one "too long" report)


def test_overlong_line_is_reported_once() -> None:
    assembler = LineAssembler()
    got = []
    for _ in range(100):
        got += assembler.feed(b"X" * 50)
    got += assembler.feed(b"\nK\n")
    assert len(got) == 2
    assert isinstance(got[0], Garbled) and "longer" in got[0].reason
    assert got[1] == b"K"


def test_flush_drops_an_unfinished_line() -> None:
    assembler = LineAssembler()
    assert assembler.feed(b"P A 1") == []
    dropped = assembler.flush()
    assert isinstance(dropped, Garbled) and dropped.line == b"P A 1"
    assert assembler.feed(b"K\n") == [b"K"]
    assert assembler.flush() is None


# ---- SerialButtonBox on loop:// -------------------------------------------------------------


@pytest.fixture
def box(events, clock, caplog) -> Iterator[SerialButtonBox]:
    caplog.set_level(logging.DEBUG, logger="hardware.serialbox")
    b = SerialButtonBox("loop://", events, clock=clock)
    yield b
    b.close()


def send(box: SerialButtonBox, data: bytes) -> None:
    assert box.port is not None
    box.port.write(data)


def warnings(caplog) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name == "hardware.serialbox"
    ]


def test_press_and_hold_lines_become_events(box, events, clock) -> None:
    send(box, b"HELLO dipclock-box 1\nK\nP A 250\nH E\n")
    assert events.get(timeout=2) == ButtonEvent("A", "press", clock() - 0.25, "serial")
    assert events.get(timeout=2) == ButtonEvent("E", "hold", clock(), "serial")
    assert box.version == 1
    assert box.last_heard == clock()
    assert box.connected


def test_each_line_is_stamped_on_arrival(box, events, clock, wait_for) -> None:
    send(box, b"H A\n")
    first = events.get(timeout=2)
    clock.advance(7.0)
    send(box, b"H A\n")
    assert events.get(timeout=2).at == first.at + 7.0


@pytest.mark.parametrize(
    "junk",
    [
        b"\x00\xff\xfe\x80\x81garbage\n",  # binary / wrong baud rate
        b"P X 100\n",  # unknown power
        b"P A\n",  # half a line
        b"BANANA\n",  # unknown message
        b"Z" * 10_000 + b"\n",  # very long line (bigger than loop://'s 4 KiB buffer)
    ],
)
def test_garbled_line_is_logged_once_and_the_next_line_arrives(
    box, events, clock, caplog, junk: bytes
) -> None:
    writer = threading.Thread(target=send, args=(box, junk + b"P G 100\n"))
    writer.start()  # a very long write blocks until the reader has drained it
    assert events.get(timeout=2) == ButtonEvent("G", "press", clock() - 0.1, "serial")
    writer.join(timeout=2)
    assert len(warnings(caplog)) == 1
    assert "garbled" in warnings(caplog)[0]
    assert events.empty()


def test_line_cut_off_by_silence_is_dropped(box, events, clock, caplog, wait_for) -> None:
    send(box, b"P A 1")  # the box reset mid-line: the rest never comes
    wait_for(lambda: any("incomplete" in w for w in warnings(caplog)), what="incomplete warning")
    send(box, b"H T\n")
    assert events.get(timeout=2) == ButtonEvent("T", "hold", clock(), "serial")


def test_a_flood_of_junk_is_not_a_flood_of_warnings(box, events, caplog) -> None:
    send(box, b"junk\n" * (GARBLED_LOG_LIMIT + 30) + b"H A\n")
    assert events.get(timeout=2).power == "A"
    assert len(warnings(caplog)) == GARBLED_LOG_LIMIT + 1  # each up to the limit, then a notice
    assert "further ones" in warnings(caplog)[-1]


def test_newer_protocol_version_is_warned_about(box, events, caplog) -> None:
    send(box, b"HELLO dipclock-box 2\nH A\n")
    assert events.get(timeout=2).power == "A"
    assert box.version == 2
    assert any("protocol 2" in w for w in warnings(caplog))


def test_silent_box_is_warned_about_once(box, events, clock, caplog, wait_for) -> None:
    clock.advance(6.0)
    wait_for(lambda: any("silent" in w for w in warnings(caplog)), what="silence warning")
    send(box, b"K\n")
    wait_for(lambda: "talking again" in caplog.text, what="recovery notice")
    assert sum("silent" in w for w in warnings(caplog)) == 1


def test_unplugged_port_is_reopened(box, events, clock, caplog, wait_for) -> None:
    old = box.port
    assert old is not None
    old.close()  # what a read sees after the USB cable is pulled
    wait_for(lambda: box.port is not None and box.port is not old, what="reconnect")
    assert any("lost button box" in w for w in warnings(caplog))
    send(box, b"P F 100\n")
    assert events.get(timeout=2) == ButtonEvent("F", "press", clock() - 0.1, "serial")


def test_the_box_going_and_coming_back_is_told_and_a_failing_listener_stops_nothing(
        events, clock, caplog, wait_for) -> None:
    told: list[bool] = []

    def listener(connected: bool) -> None:
        told.append(connected)
        raise RuntimeError("a listener's bug")

    box = SerialButtonBox("loop://", events, clock=clock, on_change=listener)
    try:
        old = box.port
        assert old is not None and told == []  # opened at construction: nothing changed
        old.close()  # the cable pulled; loop:// opens again at once, as a box plugged back
        wait_for(lambda: told == [False, True], what="gone, then back")
        assert "a listener's bug" in caplog.text
        send(box, b"P G 0\n")
        assert events.get(timeout=2) == ButtonEvent("G", "press", clock(), "serial")
    finally:
        box.close()
    assert told == [False, True]  # closing is not the box going away


def test_missing_port_is_retried_with_backoff(events, clock, caplog, monkeypatch, wait_for):
    caplog.set_level(logging.DEBUG, logger="hardware.serialbox")
    real, attempts = serial.serial_for_url, []

    def flaky(url: str, **kwargs):
        attempts.append(url)
        if len(attempts) <= 4:
            raise serial.SerialException("[Errno 2] could not open port /dev/ttyACM0")
        return real(url, **kwargs)

    monkeypatch.setattr(sb.serial, "serial_for_url", flaky)
    box = SerialButtonBox("loop://", events, clock=clock, retry_seconds=0.01)
    try:
        assert not box.connected
        wait_for(lambda: box.connected, what="connect after retries")
        assert len(attempts) == 5
        assert len(warnings(caplog)) == 1  # one warning per outage; retries log at DEBUG
        send(box, b"H R\n")
        assert events.get(timeout=2).power == "R"
    finally:
        box.close()


def test_malformed_url_fails_at_construction(events) -> None:
    with pytest.raises(ValueError):
        SerialButtonBox("nosuchscheme://x", events)


def test_close_stops_the_reader(events) -> None:
    box = SerialButtonBox("loop://", events)
    name = "serialbox loop://"
    assert any(t.name == name for t in threading.enumerate())
    box.close()
    assert not any(t.name == name for t in threading.enumerate())
    assert not box.connected


def test_a_with_block_stops_the_reader_and_closes_the_port(events, clock) -> None:
    with SerialButtonBox("loop://", events, clock=clock) as box:
        port = box.port
        assert port is not None and box.connected and not box.closed
        port.write(b"P A 100\n")
        assert events.get(timeout=2) == ButtonEvent("A", "press", clock() - 0.1, "serial")
    assert box.closed and not box.connected and not port.is_open
    assert not any(t.name == "serialbox loop://" for t in threading.enumerate())
    box.close()  # again: nothing
    with pytest.raises(ButtonsClosed, match="serial buttons are closed"):
        box.port  # noqa: B018 - the use that must fail
