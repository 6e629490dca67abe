"""The store raises storage errors, never HTTP ones (issue 34, item 11): a change it will
not make raises ``StoreConflict`` (and its kinds ``Stale``, ``SheetChanged``), which the
hub's shell answers as the 409 it always was, with the same ``detail``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from server.refusal import Refused
from server.store import MIGRATIONS, RoundRow, SheetChanged, Stale, Store, StoreConflict
from tests.server.conftest import START

NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("kind", [StoreConflict, Stale, SheetChanged])
def test_the_stores_refusals_are_storage_errors_not_http_ones(kind):
    assert issubclass(kind, StoreConflict) and not issubclass(kind, Refused)
    assert not hasattr(kind("x") if kind is not Stale else kind([]), "status")


def test_a_conflict_in_the_store_raises_its_own_error_with_the_tds_line(tmp_path):
    store = Store(tmp_path / "hub.db")
    try:
        with pytest.raises(StoreConflict) as nothing:
            store.undo_round(NOW, "undo")
        assert not isinstance(nothing.value, Refused)
        assert nothing.value.message == "no change to the rounds to undo"
        store.set_round(RoundRow(1, NOW, None, None, "Round 1"), NOW, "round 1")
        store.set_call(1, NOW + timedelta(hours=3), NOW, "call")
        with pytest.raises(StoreConflict) as record:
            store.set_round(RoundRow(1, NOW + timedelta(minutes=5), None, None, "Round 1"),
                            NOW, "moved")
        assert record.value.message == ("round 1 is a record (called): its event, start and "
                                         "schedule do not change unless you reopen it")
        with pytest.raises(StoreConflict) as seating:
            store.replace_round_seating(1, [], NOW, "seating")
        assert seating.value.message.startswith("round 1 has been played (called)")
        head = store.audit_head()
        store.set_call(1, None, NOW, "uncall")
        with pytest.raises(Stale):
            store.set_call(1, NOW, NOW, "call again", base=head)
        assert len(MIGRATIONS) == store._one("PRAGMA user_version")[0]  # type: ignore[index]
    finally:
        store.close()


def test_the_shell_answers_a_store_conflict_as_the_same_409(hub, td):
    """The store's error through a route: status and ``detail`` as they were (a plain
    conflict's exact line: ``test_record_sheets_only``)."""
    hub.set_up(td)
    round_1 = {"number": 1, "start": START.isoformat()}
    assert hub.client.put("/api/td/round", json=round_1, headers=td).status_code == 200
    moved = {"number": 1, "start": (START + timedelta(minutes=30)).isoformat()}
    r = hub.client.put("/api/td/round", json=moved, headers=td | {"X-Dipclock-Base": "1"})
    assert r.status_code == 409, r.text
    assert r.json()["detail"].startswith("Not done: this changed meanwhile: ")
