"""A replaced hub card wins the tables back by itself (issue 35, item 5), the kiosk's side.

The hub's side (``server.backup``: the backup carries the old hub's id, certificate and
database) is tests/server/test_hub_backup.py. Here real hubs (``tests.server.live``) and a
real ``HubClient``: a freshly flashed hub at the old one's address is "not this clock's hub
yet", not a reason to forget the pairing; once the TD restores the backup on it, the table
takes its snapshots (a lower ``seq``, a new ``restored`` id) and resends the presses the
backup lacks, which the hub keeps once each; and a restored hub at another address is found
by mDNS and followed without the clock stopping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from dipclock.sync import to_moment
from kiosk.hubclient import NOT_OUR_HUB, HubClient
from kiosk.outbox import Outbox
from tests.server.live import LiveHub
from tests.server.test_live import set_up

ROOT = Path(__file__).resolve().parents[2]
#: a bound on a hang only: each answer here comes at once or the hub is broken
PATIENCE = 20.0


def press(client: HubClient, outbox: Outbox, power: str) -> str:
    """A press on the table now, stored in the outbox as the kiosk stores it: its id."""
    rnd = client.current()
    assert rnd is not None and rnd.key is not None
    at = to_moment(client.stamp(time.monotonic()))
    return outbox.record(power, "press", at, rnd.key).id


def held_ids(hub: LiveHub, token: str) -> list[str]:
    """The ids of the presses the hub holds for table 3, as its snapshot lists them."""
    r = hub.get("/api/tables/3/snapshot", headers={"Authorization": f"Bearer {token}"},
                timeout=PATIENCE)
    assert r.status_code == 200, r.text
    return [p["id"] for p in r.json()["presses"]]


def test_a_fresh_hub_card_at_the_old_address_wins_the_table_back_once_restored(
        tmp_path: Path) -> None:
    """The old hub card dies after the TD saved its backup and after more presses; a freshly
    flashed card gets its address. Until the TD restores the backup the table counts on,
    says the hub there is not its own, and keeps its pairing; after it, the table takes the
    restored hub's snapshot (a lower seq than the old hub's last) and every press made
    after the backup reaches the restored hub, once."""
    old = LiveHub(tmp_path / "old", https=True).start()
    outbox = Outbox(tmp_path / "o.sqlite")
    client: HubClient | None = None
    fresh: LiveHub | None = None
    try:
        td = old.td()
        now = to_moment(old.get("/api/time").json()["t1"])
        set_up(td, (now - timedelta(minutes=5)).replace(microsecond=0))
        token = LiveHub.token(td, 3)
        client = HubClient(old.url, 3, token, outbox, verify=old.verify)
        assert client.sync_once() and client.fetch_snapshot()
        saved_before = [press(client, outbox, "E")]
        assert client.upload_once()
        saved = td.get("/api/td/backup")
        assert saved.status_code == 200, saved.text
        after = []
        for power in ("F", "G"):  # two uploads: the old hub's seq runs past the backup's
            after.append(press(client, outbox, power))
            assert client.upload_once() and not outbox.unsent()
        assert client.fetch_snapshot()
        last = client.session.received
        assert last is not None and sorted(held_ids(old, token)) == sorted(saved_before + after)

        old.kill()  # the old hub card dies; a freshly flashed one gets its address
        address = old.socket
        old.socket = None
        fresh = LiveHub(tmp_path / "fresh", https=True)
        assert fresh.socket is not None and address is not None
        fresh.socket.close()
        fresh.socket, fresh.port, fresh.url = address, old.port, old.url
        fresh.start()

        assert not client.sync_once()  # another certificate: nothing is sent to it
        assert client.unpaired is None and tuple(map(str, client.alerts())) == (NOT_OUR_HUB,)
        assert client.current() == last.round  # the table counts on, on what it has

        new_td = fresh.td()
        r = new_td.post("/api/td/restore", content=saved.content,
                        headers={"Content-Type": "application/zip"})
        assert r.status_code == 200, r.text
        fresh.verify = old.verify  # it serves the old certificate now

        assert client.sync_once() and client.alerts() == () and client.unpaired is None
        assert client.fetch_snapshot()
        taken = client.session.received
        assert taken is not None and taken.hub == last.hub and taken.restored is not None
        assert taken.seq < last.seq  # taken all the same: a restored hub
        assert client.upload_once() and not outbox.unsent()
        held = held_ids(fresh, token)
        assert sorted(held) == sorted(saved_before + after), held  # each once
        assert client.upload_once()  # nothing sent twice on a second round trip
        assert sorted(held_ids(fresh, token)) == sorted(held)
        fresh.stop()  # the restored hub keeps its restore's id across a restart: the
        fresh.start()  # table does not take it for another restore and resend again
        r = fresh.get("/api/tables/3/snapshot", headers={"Authorization": f"Bearer {token}"},
                      timeout=PATIENCE)
        assert r.status_code == 200 and r.json()["restored"] == taken.restored
    finally:
        if client is not None:
            client.close()
        outbox.close()
        old.stop()
        if fresh is not None:
            fresh.stop()


needs_netns = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None,
    reason="a private network namespace needs root, unshare and ip",
)

#: Run with ``unshare -n``: a loopback with multicast on and nothing else, where two real
#: hubs announce themselves by mDNS and a real HubClient follows the one it is paired with.
MOVED = """
import json, subprocess, sys, time
from datetime import timedelta
from pathlib import Path
sys.path.insert(0, sys.argv[2])
subprocess.run(["ip", "link", "set", "lo", "up", "multicast", "on"], check=True)
from dipclock.sync import to_moment
from kiosk import hubclient
from kiosk.discovery import HubFinder
from kiosk.hubclient import HubClient
from kiosk.outbox import Outbox
from tests.server.live import LiveHub
from tests.server.test_live import set_up
from tests.waits import wait_for

hubclient.REDISCOVER_AFTER = 1.0  # time as a parameter: 15 s on a table
hubclient.FOLLOW_EVERY = 0.1
tmp = Path(sys.argv[1])
announced = dict(https=True, quiet=False, host="0.0.0.0", extra=("--wait-for-sync", "0"))

def press(client, outbox, power):
    at = to_moment(client.stamp(time.monotonic()))
    return outbox.record(power, "press", at, client.current().key).id

def held(hub, token):
    try:
        r = hub.get("/api/tables/3/snapshot", headers={"Authorization": f"Bearer {token}"},
                    timeout=20)
        return [p["id"] for p in r.json()["presses"]]
    except (OSError, ValueError, KeyError):  # wait_for would take the exception for a yes
        return []

old = LiveHub(tmp / "old", **announced).start()
fresh = None
outbox = Outbox(tmp / "o.sqlite")
stopped = []  # any moment the clock was not counting, or was unpaired
try:
    td = old.td()
    now = to_moment(old.get("/api/time").json()["t1"])
    set_up(td, (now - timedelta(minutes=5)).replace(microsecond=0))
    token = LiveHub.token(td, 3)
    hub_id = td.get("/api/td/backup/status").json()["hub_id"]
    moved = []
    client = HubClient(old.url, 3, token, outbox, verify=old.verify,
                       find=lambda: HubFinder(hub_id), on_move=moved.append)
    client.start()
    wait_for("the clock connected to the old hub", lambda: client.current())
    ids = [press(client, outbox, "E")]
    client.sent()
    wait_for("the first press at the old hub", lambda: set(ids) <= set(held(old, token)))
    saved = td.get("/api/td/backup").content
    ids.append(press(client, outbox, "F"))
    client.sent()
    wait_for("the press after the backup at the old hub, and its answer at the clock",
             lambda: set(ids) <= set(held(old, token)) and not outbox.unsent())
    old.kill()  # the old hub card dies
    fresh = LiveHub(tmp / "fresh", **announced).start()  # another card, another address
    new_td = fresh.td()
    ids.append(press(client, outbox, "G"))  # while no hub answers
    r = new_td.post("/api/td/restore", content=saved, headers={"Content-Type": "application/zip"})
    assert r.status_code == 200, r.text
    fresh.verify = old.verify

    def back():
        if client.unpaired is not None or client.current() is None:
            stopped.append(client.unpaired)
        taken = client.session.received
        return (client.connected and client.base_url == fresh.url
                and taken.restored is not None and sorted(held(fresh, token)) == sorted(ids))
    wait_for("the clock on the restored hub at its new address, with every press", back, 60)
    found = {"moved": moved, "fresh": fresh.url, "old": old.url, "held": held(fresh, token),
             "ids": ids, "stopped": stopped, "unpaired": client.unpaired,
             "restored": client.session.received.restored is not None}
    client.close()
finally:
    outbox.close()
    old.stop()
    if fresh is not None:
        fresh.stop()
print(json.dumps(found))
"""


@needs_netns
def test_a_restored_hub_at_another_address_is_found_and_followed_without_stopping(
        tmp_path: Path) -> None:
    """The old hub card dies; the TD restores its backup on another card, at another
    address. The table, which found the old hub by mDNS, looks for it again by its id,
    moves its session there (same token, same pin) and sends it the presses it lacks,
    while its clock counts on."""
    script = tmp_path / "moved.py"
    script.write_text(textwrap.dedent(MOVED))
    done = subprocess.run(["unshare", "-n", sys.executable, str(script), str(tmp_path),
                           str(ROOT)], cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-4000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["moved"] == [out["fresh"]] and out["fresh"] != out["old"], out
    assert out["stopped"] == [] and out["unpaired"] is None and out["restored"], out
    assert sorted(out["held"]) == sorted(out["ids"]) and len(out["ids"]) == 3, out


def test_a_search_runs_only_while_the_hub_is_away_and_one_at_a_time(tmp_path: Path) -> None:
    """The search for the hub starts after ``REDISCOVER_AFTER`` without it, one at a time,
    and is closed when the hub answers again; found at the address in use, it waits
    ``REDISCOVER_AFTER`` again before another."""
    from kiosk import hubclient

    class Finder:
        def __init__(self) -> None:
            self.url: str | None = None
            self.closed = False

        def found(self) -> str | None:
            return self.url

        def close(self) -> None:
            self.closed = True

    made: list[Finder] = []

    def find() -> Finder:
        made.append(Finder())
        return made[-1]

    now = [10.0]
    down = httpx.MockTransport(lambda request: (_ for _ in ()).throw(
        httpx.ConnectError("hub down", request=request)))
    outbox = Outbox(tmp_path / "o.sqlite")
    client = HubClient("https://10.0.0.1:8000", 3, "t", outbox, mono=lambda: now[0],
                       transport=down, find=find)
    try:
        assert not client.sync_once()
        client.follow_once()
        assert made == []
        now[0] += hubclient.REDISCOVER_AFTER
        client.follow_once()
        client.follow_once()
        assert len(made) == 1  # one search at a time
        made[0].url = "https://10.0.0.1:8000"  # the same address: no move, wait again
        client.follow_once()
        assert made[0].closed and client.base_url == "https://10.0.0.1:8000"
        client.follow_once()
        assert len(made) == 1
        now[0] += hubclient.REDISCOVER_AFTER
        client.follow_once()
        assert len(made) == 2
        with client._lock:  # the hub answers again: the search is closed
            client.session.http_ok = True
        client.follow_once()
        assert made[1].closed
        with client._lock:
            client.session.http_ok = False
        client.lost_since = now[0] - hubclient.REDISCOVER_AFTER
        client._find = lambda: (_ for _ in ()).throw(OSError("no network to browse"))
        client.follow_once()  # said in the log, tried again after another wait
        assert client.lost_since == now[0] and client._finder is None
    finally:
        client.close()
        outbox.close()


def test_the_tables_screen_says_the_hub_there_is_not_its_own_and_keeps_the_pairing(
        tmp_path: Path) -> None:
    """The whole kiosk, paired with another hub than the one now at its typed address (a
    freshly flashed card, not yet restored): it runs its clock, the screen's alert says why
    no hub answers, and the pairing is still there when it stops."""
    from datetime import UTC, datetime

    from kiosk import pairing
    from kiosk.cli import main
    from server.certificate import ensure, make
    from tests.server.live import ThreadHub

    cert, key, _ = ensure(tmp_path / "hub")
    other = make(datetime.now(UTC))[0].decode()  # the certificate of the hub it paired with
    path, status = tmp_path / "outbox.sqlite", tmp_path / "screen.json"
    kept = {"hub": "the-old-hub", "table": 3, "token": "a-token", "wished": 3,
            "certificate": other}
    outbox = Outbox(path)
    outbox.put(pairing.CREDENTIAL, kept)
    outbox.close()
    (tmp_path / "kiosk.toml").write_text("")
    with ThreadHub(tmp_path / "hub", certificate=cert, private_key=key) as hub:
        rc = main(["--headless", "--run-for", "3", "--table", "3", "--hub", hub.url,
                   "--boot-file", str(tmp_path / "none"), "--config",
                   str(tmp_path / "kiosk.toml"), "--outbox", str(path),
                   "--status-file", str(status)])
    screen = json.loads(status.read_text())
    assert rc == 0 and screen["look"] != "problem", screen
    assert NOT_OUR_HUB in screen["alerts"], screen
    outbox = Outbox(path)
    try:
        assert outbox.get(pairing.CREDENTIAL) == kept
    finally:
        outbox.close()


#: The whole kiosk (``dipclock kiosk``, a card's empty settings: it finds its hub by mDNS),
#: paired with the old hub, before a round that starts in an hour; then the old hub dies and
#: the TD restores its backup on another hub at another address.
KIOSK_MOVED = """
import json, subprocess, sys, time
from datetime import timedelta
from pathlib import Path
sys.path.insert(0, sys.argv[2])
subprocess.run(["ip", "link", "set", "lo", "up", "multicast", "on"], check=True)
from dipclock.sync import to_moment
from kiosk import pairing
from kiosk.outbox import Outbox
from tests.server.live import LiveHub
from tests.server.test_live import set_up
from tests.waits import wait_for

tmp = Path(sys.argv[1])
announced = dict(https=True, quiet=False, host="0.0.0.0", extra=("--wait-for-sync", "0"))
status = tmp / "screen.json"

def screen():
    try:
        return json.loads(status.read_text())
    except (OSError, ValueError):  # not written yet (wait_for takes an exception for a yes)
        return {"look": "", "notes": []}

def shows(port):
    def probe():
        s = screen()
        line = f"Hub 127.0.0.1:{port}, found on the network"
        return s["look"] == "before_start" and line in s["notes"]
    return probe

old = LiveHub(tmp / "old", **announced).start()
fresh = kiosk = None
try:
    td = old.td()
    now = to_moment(old.get("/api/time").json()["t1"])
    set_up(td, (now + timedelta(hours=1)).replace(microsecond=0))
    token = LiveHub.token(td, 3)
    hub_id = td.get("/api/td/backup/status").json()["hub_id"]
    outbox = Outbox(tmp / "o.sqlite")
    kept = {"hub": hub_id, "table": 3, "token": token, "wished": 3,
            "certificate": old.certificate}
    outbox.put(pairing.CREDENTIAL, kept)
    outbox.close()
    (tmp / "kiosk.toml").write_text("")
    with open(tmp / "kiosk.out", "w") as out, open(tmp / "kiosk.err", "w") as err:
        kiosk = subprocess.Popen(
            [sys.executable, "-m", "dipclock", "kiosk", "--headless", "--run-for", "150",
             "--table", "3", "--boot-file", str(tmp / "none"), "--config",
             str(tmp / "kiosk.toml"), "--outbox", str(tmp / "o.sqlite"),
             "--status-file", str(status)], stdout=out, stderr=err, cwd=sys.argv[2])
    wait_for("the kiosk counting down to the round, on the old hub it found", shows(old.port))
    saved = td.get("/api/td/backup").content
    old.kill()  # the old hub card dies
    fresh = LiveHub(tmp / "fresh", **announced).start()  # another card, another address
    r = fresh.td().post("/api/td/restore", content=saved,
                        headers={"Content-Type": "application/zip"})
    assert r.status_code == 200, r.text
    restored = time.monotonic()
    wait_for("the kiosk on the restored hub at its new address", shows(fresh.port), 90)
    seconds = time.monotonic() - restored
    kiosk.terminate()
    kiosk.wait(timeout=20)
    outbox = Outbox(tmp / "o.sqlite")
    credential = outbox.get(pairing.CREDENTIAL)
    outbox.close()
    printed = (tmp / "kiosk.out").read_text()
    found = {"ready": printed.count("READY"), "seconds": seconds,
             "kept": credential == kept, "said": "moving there" in (tmp / "kiosk.err").read_text()}
finally:
    if kiosk is not None and kiosk.poll() is None:
        kiosk.kill()
    old.stop()
    if fresh is not None:
        fresh.stop()
print(json.dumps(found))
"""


@needs_netns
def test_a_table_card_follows_its_restored_hub_to_another_address_by_itself(
        tmp_path: Path) -> None:
    """The whole kiosk, as a table card that found its hub by mDNS: the hub card dies, the
    TD restores its backup on another card at another address, and the table's screen names
    the new address with the round still counting down, in one session (one READY), its
    pairing kept, nobody touching it."""
    script = tmp_path / "kiosk_moved.py"
    script.write_text(textwrap.dedent(KIOSK_MOVED))
    done = subprocess.run(["unshare", "-n", sys.executable, str(script), str(tmp_path),
                           str(ROOT)], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-4000:] + (
        (tmp_path / "kiosk.err").read_text()[-3000:] if (tmp_path / "kiosk.err").exists()
        else "")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["ready"] == 1 and out["kept"] and out["said"], out
