"""A clock pairs with a real hub over HTTPS, pins its certificate, and pairs again when the
TD revokes it, or when the hub's address has shown another certificate for ``FORGET_AFTER``
(``kiosk.pairing``, ``kiosk.hubclient``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk import pairing
from kiosk.hubclient import FORGET_AFTER, NOT_OUR_HUB, HubClient
from kiosk.outbox import Outbox
from machine.fingerprint import of_pem, short
from server.certificate import ensure, make
from tests.server.live import ThreadHub


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ThreadHub]:
    """A real hub (uvicorn in this process) over HTTPS with the certificate it makes."""
    cert, key, _ = ensure(tmp_path / "hub")
    with ThreadHub(tmp_path / "hub", certificate=cert, private_key=key) as h:
        yield h


def approve(hub: ThreadHub, code: str, table: int) -> dict:
    td = hub.td()
    r = td.post("/api/td/clocks", json={"code": code, "table": table})
    r.raise_for_status()
    return r.json()


def test_a_clock_shows_a_code_and_the_hubs_fingerprint_then_keeps_what_pairing_gave(
        hub: ThreadHub, tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.sqlite")
    asking = pairing.Pairing(hub.url, "card-3", 3, outbox)
    assert asking.step() == pairing.POLL  # asked: the code comes back at once
    shown = asking.shown()
    assert shown.code is not None and len(shown.code) == 7 and shown.problem is None
    assert shown.fingerprint == short(of_pem(hub.certificate))
    asking.step()  # the TD has not approved yet: still the same code
    assert asking.shown().code == shown.code and asking.done is None
    asking.close()
    # the clock restarts while it waits: the same request, the same code
    again = pairing.Pairing(hub.url, "card-3", 3, outbox)
    again.step()
    assert again.shown().code == shown.code
    approve(hub, shown.code, 3)
    assert again.step() == 0.0 and again.done is not None
    done = again.done
    assert (done.table, done.wished, done.certificate) == (3, 3, hub.certificate)
    assert pairing.stored(outbox, 3) == done and outbox.get(pairing.ASKED) is None
    # the token works, for its table, through the pinned certificate
    client = HubClient(hub.url, done.table, done.token, outbox,
                       verify=pairing.pinned(done.certificate))
    try:
        assert client.sync_once() and client.fetch_snapshot() and client.unpaired is None
    finally:
        client.close()
        again.close()
    # the card is moved to another table: it pairs again
    assert pairing.stored(outbox, 4) is None and pairing.stored(outbox, 3) is None
    outbox.close()


def test_a_revoked_clock_stops_and_says_so(hub: ThreadHub, tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.sqlite")
    asking = pairing.Pairing(hub.url, "card-2", 2, outbox)
    asking.step()
    code = asking.shown().code
    assert code is not None
    paired = approve(hub, code, 2)
    asking.step()
    done = asking.done
    assert done is not None
    woken = []
    client = HubClient(hub.url, 2, done.token, outbox, verify=pairing.pinned(done.certificate),
                       wake=lambda: woken.append(1))
    try:
        assert client.sync_once() and client.post_status(0.0, 0.01)
        hub.td().delete(f"/api/td/clocks/{paired['id']}").raise_for_status()
        assert not client.post_status(0.0, 0.01)
        assert client.unpaired == "revoked" and woken
    finally:
        client.close()
        asking.close()
        outbox.close()


def test_a_hub_with_another_certificate_is_not_talked_to_and_forgotten_only_after_a_while(
        hub: ThreadHub, tmp_path: Path) -> None:
    """Another certificate at the hub's address (a freshly flashed hub card, not restored
    yet, or someone between): nothing is sent, the screen says so, the clock keeps its
    pairing and tries again; only after ``FORGET_AFTER`` of it does it pair again."""
    other = make(datetime.now(UTC))[0].decode()  # the hub set up afresh, or someone between
    outbox = Outbox(tmp_path / "o.sqlite")
    now = [100.0]
    woken: list[bool] = []
    client = HubClient(hub.url, 1, "a-token", outbox, verify=pairing.pinned(other),
                       mono=lambda: now[0], wake=lambda: woken.append(True))
    try:
        assert not client.sync_once()  # the request never left: the handshake failed
        assert client.unpaired is None and woken
        assert tuple(map(str, client.alerts())) == (NOT_OUR_HUB,)
        assert not client.connected
        now[0] += FORGET_AFTER - 1
        assert not client.sync_once() and client.unpaired is None
        now[0] += 1
        assert not client.sync_once()
        assert client.unpaired == "certificate"
    finally:
        client.close()
        outbox.close()


def test_a_certificate_changed_while_the_clock_waits_means_asking_again(
        hub: ThreadHub, tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.sqlite")
    other = make(datetime.now(UTC))[0].decode()
    outbox.put(pairing.ASKED, {"token": "an-old-token", "certificate": other})
    asking = pairing.Pairing(hub.url, "card-1", 1, outbox)
    assert asking.step() == 0.0
    assert "certificate changed" in str(asking.shown().problem or "")
    asking.step()  # asks afresh, with the certificate the hub serves now
    assert asking.shown().code is not None
    assert asking.shown().fingerprint == short(of_pem(hub.certificate))
    asking.close()
    outbox.close()


def test_a_hub_that_is_not_there_is_said_on_the_pairing_screen(tmp_path: Path) -> None:
    from tests.server.live import hub_socket

    outbox = Outbox(tmp_path / "o.sqlite")
    with hub_socket() as nobody:  # bound, never listening: refused, and no one else's port
        url = f"https://127.0.0.1:{nobody.getsockname()[1]}"
        asking = pairing.Pairing(url, "card-1", 1, outbox)
        assert asking.step() > 0
    assert str(asking.shown().problem or "").startswith(f"the hub at {url}")
    assert asking.shown().code is None
    asking.close()
    outbox.close()


def test_a_stored_credential_that_is_not_one_is_no_credential(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "o.sqlite")
    outbox.put(pairing.CREDENTIAL, {"hub": "h", "table": "three"})
    assert pairing.stored(outbox, 3) is None
    good = pairing.Credential("h", 3, "t", 3, None)
    outbox.put(pairing.CREDENTIAL, {**vars(good)})
    assert pairing.stored(outbox, 3) == good
    assert replace(good, table=4) != good
    outbox.close()


def test_the_outbox_holding_the_token_is_the_owners_only(tmp_path: Path) -> None:
    Outbox(tmp_path / "o.sqlite").close()
    assert (tmp_path / "o.sqlite").stat().st_mode & 0o777 == 0o600


def hub_with_a_certificate_from(data: Path, start: datetime) -> tuple[Path, Path]:
    """A hub's data dir holding a certificate whose validity starts at ``start`` (``make``
    back-dates by a day), as the hub keeps it: the hub loads it as it found it."""
    from server.certificate import CERTIFICATE, PRIVATE_KEY

    cert_pem, key_pem = make(start + timedelta(days=1))
    data.mkdir(parents=True)
    (data / CERTIFICATE).write_bytes(cert_pem)
    (data / PRIVATE_KEY).write_bytes(key_pem)
    cert, key, made = ensure(data)
    assert not made and cert.read_bytes() == cert_pem
    return cert, key


def wait_for(what: str, probe, timeout: float = 30.0):
    """Poll ``probe`` until it holds; fail after ``timeout`` s, naming what was waited for."""
    deadline = time.monotonic() + timeout
    while not (found := probe()):
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(0.02)
    return found


@pytest.mark.parametrize("days", [2, 30, -(365 * 10 + 12)],
                         ids=["2 days behind", "30 days behind", "expired"])
def test_a_clock_days_behind_the_hubs_certificate_pairs_and_talks_through_the_pin(
        tmp_path: Path, days: int) -> None:
    """A Pi with no battery clock, its card prepared weeks ago, boots ``days`` behind the
    hub's certificate (or long after it expired): the pin is the trust, not the dates.
    Pairing (httpx), sync,
    snapshot, presses (httpx) and the push channel (websockets) all go through; a
    certificate valid now but not the pinned one is still refused."""
    cert, key = hub_with_a_certificate_from(tmp_path / "hub",
                                            datetime.now(UTC) + timedelta(days=days))
    outbox = Outbox(tmp_path / "o.sqlite")
    with ThreadHub(tmp_path / "hub", certificate=cert, private_key=key) as hub:
        asking = pairing.Pairing(hub.url, "card-5", 5, outbox)
        try:
            assert asking.step() == pairing.POLL  # no "the hub's certificate changed" loop
            shown = asking.shown()
            assert shown.problem is None and shown.code is not None
            assert shown.fingerprint == short(of_pem(hub.certificate))
            approve(hub, shown.code, 5)
            asking.step()
        finally:
            asking.close()
        done = asking.done
        assert done is not None and done.certificate == hub.certificate
        client = HubClient(hub.url, 5, done.token, outbox,
                           verify=pairing.pinned(done.certificate))
        try:
            assert client.sync_once() and client.fetch_snapshot() and client.upload_once()
            client.start()
            wait_for("the push channel (websockets) open through the pin",
                     lambda: client.session.ws_open or client.unpaired)
            assert client.session.ws_open and client.unpaired is None
        finally:
            client.close()
        # the pin still refuses any other certificate, one valid today included
        other = make(datetime.now(UTC))[0].decode()
        stranger = HubClient(hub.url, 5, done.token, outbox, verify=pairing.pinned(other))
        try:
            assert not stranger.sync_once() and tuple(map(str, stranger.alerts())) == (NOT_OUR_HUB,)
        finally:
            stranger.close()
    outbox.close()
