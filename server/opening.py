"""``open_hub``: the hub's state built from its store, as a start builds it and as a restore
from a backup builds it again (``server.routers.backup``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from dipclock.errors import DipclockError
from machine.timesync import clock_synchronised
from server.clock import Clock, Listening, standing_of
from server.context import Hub
from server.hubtime import restore
from server.pairing import Clocks
from server.push import Fanout
from server.ratelimit import FailureLimit
from server.regulars import Regulars
from server.resultsdesk import sheet_secret
from server.settings import Settings
from server.store import Store


class SetupError(DipclockError):
    """The data dir cannot serve yet (no TD password): one line for the operator."""


def open_hub(
    settings: Settings,
    clock: Clock,
    store: Store,
    synced: Callable[[], bool | None] = clock_synchronised,
    boot: str | None = None,
    fingerprint: str | None = None,
    regulars: Regulars | None = None,
) -> Hub:
    """Credentials come from the store; the first start stores the settings' password hash.
    ``fingerprint``: the SHA-256 of the certificate served (None: plain HTTP);
    ``regulars``: the one the connections' guard reads (``server.serve.config``).

    The clock was just anchored on the wall clock: its standing is what the kernel says of
    that clock now, unless the TD set the hub's time earlier in this boot (``hubtime``).
    """
    stored = store.meta("td_password_hash")
    if stored is None:
        if settings.td_password_hash is None:
            raise SetupError("no TD password is set for this data dir")
        stored = store.set_meta_once("td_password_hash", settings.td_password_hash)
    # A hub started on an empty data dir counts seq from 1 again; kiosks see the new id
    # and take its snapshots instead of waiting for seq to pass the old hub's.
    hub_id = store.set_meta_once("hub_id", secrets.token_hex(8))
    sheet_secret(store)  # made now, not at a first snapshot when the disk may be full
    hub = Hub(
        settings=settings,
        store=store,
        clock=clock,
        fanout=Fanout(settings.send_timeout),
        logins=FailureLimit(settings.login_failures, settings.login_window),
        password_hash=stored,
        clocks=Clocks.load(store),
        fingerprint=fingerprint,
        hub_id=hub_id,
        restored=store.meta("restored"),
        synced=synced,
        clock_standing=standing_of(synced()),
        boot=boot,
        # hub time provisional: ``server.kepttime``; its last record read before any write
        kept=Listening(started=clock.mono(), last_seen=store.last_hub_time()),
        clock_epoch=store.clock_epoch(),
        regulars=Regulars() if regulars is None else regulars,
    )
    for paired in hub.clocks.by_hash.values():  # the hall's clocks, known from the start
        hub.regulars.saw(paired.address)
    restore(hub)
    return hub
