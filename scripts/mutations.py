"""``make mutations``: break the code on purpose, one known way at a time, and show the test
that catches it.

Each mutation below once survived the suite (issue 8's, 23's and 34's reviews), or stands
for a part that had none here (issue 34: the records, seating, the hall guard, the card's
first boot); each is applied to a copy of the tree, its tests are run, and the line says
CAUGHT (some test failed), SURVIVED, or STALE (the line to break is gone: the script needs
updating). Exit 0 only when every one is CAUGHT. Not part of ``make test``: a check of the
tests themselves, run when they change. ``scripts/mutations.py WORD...`` runs only the
mutations whose name holds one of the words.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SRC = Path(__file__).resolve().parents[1]
SESSION = ["tests/kiosk/test_session.py", "tests/kiosk/test_hubclient.py"]
PAGES = ["tests/server/test_browser.py", "tests/server/test_screen_agreement.py"]
#: the core's own tests of the late rules: a rule of the core is caught by the core's tests
CORE_LATE = ["tests/core/test_late.py"]
#: (what the mutation does, file, the line(s) as written, the broken version, its tests)
M: list[tuple[str, str, str, str, list[str]]] = [
    ("refused batch marked sent", "kiosk/upload.py",
     '            log.warning("hub refused %d presses: HTTP %d %s", len(batch), status, '
     'text[:200])\n            return None',
     "            return Outcome(tuple(p.id for p in batch), ())",
     SESSION),
    ("Slew bypassed with a hub", "kiosk/clocksync.py",
     "return mono + self._slew.update(target, mono)",
     "return mono + target",
     SESSION),
    ("Slew bypassed standalone", "kiosk/app.py",
     "return mono + self._slew.update(target, mono)",
     "return mono + target",
     ["tests/kiosk/test_hubclient.py"]),
    ("OffsetFilter trusts the latest sample", "dipclock/sync.py",
     "return min(self._samples, key=lambda s: error_bound(s, now, self._rate.error))",
     "return self._samples[-1]",
     ["tests/core/test_sync.py", "tests/kiosk/test_session.py"]),
    ("stored press not pushed to its table", "server/routers/kiosk.py",
     "    if added.stored:\n        publish(hub, {n})",
     "    if False:\n        publish(hub, {n})",
     ["tests/server/test_clock_push.py"]),
    ("writing stage one tick late", "dipclock/phaseview.py",
     "elif writing_seconds and remaining <= writing_seconds:",
     "elif writing_seconds and remaining < writing_seconds:",
     ["tests/core/test_timeline.py"]),
    ("dashboard/hall countdown frozen", "server/static/common.js",
     "return duration(clock.seconds_left - (hubNow() - last.data.hub_time));",
     "return duration(clock.seconds_left);",
     PAGES),
    ("dashboard/hall countdown rounded down", "server/static/common.js",
     "const s = Math.max(0, Math.ceil(Math.round(seconds * 1e6) / 1e6));",
     "const s = Math.max(0, Math.floor(seconds));",
     PAGES),
    ("frame cache ignores new presses", "kiosk/app.py",
     "key = (id(rnd), len(local), lost, self.warning_seconds, alerts,",
     "key = (id(rnd), lost, self.warning_seconds, alerts,",
     ["tests/kiosk/test_stages.py"]),
    ("acknowledged before the outbox write", "kiosk/app.py",
     "        known = self.presses(key)  # loaded before the new row, so it is not counted "
     "twice\n",
     "        known = self.presses(key)  # loaded before the new row, so it is not counted "
     "twice\n        self.log(f\"PRESS early {event.power}\")\n        self.source.sent()\n",
     ["tests/kiosk/test_power_loss.py"]),
    ("a loop that never redraws", "kiosk/app.py",
     "            display.show(fr, painter)\n",
     "            pass\n",
     ["tests/kiosk/test_buttons.py"]),
    # issue 23's review: each survived, or was caught only by the hub's tests
    ("live offence count fixed at 1", "dipclock/late.py",
     "offence = sum(1 for s in mine if s.late) + 1",
     "offence = 1",
     CORE_LATE),
    ("a hold counted in two chords", "dipclock/late.py",
     "            out.append((first, second))\n            i += 2",
     "            out.append((first, second))\n            i += 1",
     CORE_LATE),
    ("offences counted per board, not per power", "dipclock/late.py",
     "n = offences[press.power] = offences.get(press.power, 0) + 1",
     'n = offences[""] = offences.get("", 0) + 1',
     CORE_LATE),
    ("a deadline exactly at the call not counted", "dipclock/timeline.py",
     "kept = tuple(p for p in phases if p.deadline <= call)",
     "kept = tuple(p for p in phases if p.deadline < call)",
     ["tests/core/test_timeline.py"]),
    ("penalties CSV's proposed without the units", "server/review.py",
     '{"proposed": r.proposed.text,',
     '{"proposed": r.proposed.label,',
     ["tests/server/test_seating.py"]),
    # issue 34's review: the records, the seating desk, the stale-screen check, the hall
    # guard and the card's first boot, each with the tests written to catch it
    ("a round holding only result sheets no longer a record", "server/store/rows.py",
     "return bool(self.presses or self.rulings or self.units or self.sheets or self.called)",
     "return bool(self.presses or self.rulings or self.units or self.called)",
     ["tests/server/test_record_sheets_only.py"]),
    ("seating check counts the round being seated as its own past", "server/seatingdesk.py",
     "return read_past(s for s in hub.store.seating() if s.round < before)",
     "return read_past(s for s in hub.store.seating() if s.round <= before)",
     ["tests/server/test_seating_own_round.py"]),
    ("seating draft counts the round being seated as its own past", "server/seatingdesk.py",
     "earlier=tuple(s for s in hub.store.seating() if s.round < body.round),",
     "earlier=tuple(s for s in hub.store.seating() if s.round <= body.round),",
     ["tests/server/test_seating_own_round.py"]),
    ("seating call writes over a round played since the desk looked", "server/store/seating.py",
     "            if held:\n                raise self.seating_stays(number, held.text())\n",
     "",
     ["tests/server/test_seating_desk.py"]),
    ("a clock action from a screen drawn before a new round not stale", "server/stale.py",
     '"clock": ("clock", "round"),',
     '"clock": ("clock",),',
     ["tests/server/test_stale_round_then_clock.py"]),
    ("hall guard: the hub's time set by a stranger has its body read", "server/gate.py",
     'TD_PATHS = ("/api/td/", "/api/clock", "/api/logout")',
     'TD_PATHS = ("/api/td/", "/api/logout")',
     ["tests/server/test_gate_every_write.py"]),
    ("hall guard: the TD's phone and the hall's clocks limited as strangers",
     "server/readlimit.py",
     "if not hub.regulars.knows(address):",
     "if True:",
     ["tests/server/test_public_reads.py"]),
    ("card's first boot: a grown card grown and restarted at every boot",
     "card/files/root/usr/local/sbin/dipclock-card-grow",
     '[ "$room" -ge 8192 ] || exit 0',
     '[ "$room" -gt 0 ] || exit 0',
     ["tests/deploy/test_card_grow.py"]),
]


def run(name: str, f: str, old: str, new: str, tests: list[str], work: Path) -> bool:
    """True when some test fails on the mutated copy (the mutation is caught)."""
    dst = work / "tree"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(SRC, dst, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", ".pytest_cache", "*.egg-info", ".ruff_cache"))
    path = dst / f
    text = path.read_text()
    if text.count(old) != 1:
        print(f"STALE: {name}: the line to mutate is no longer in {f}; update this script")
        return False
    path.write_text(text.replace(old, new))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                       cwd=dst, capture_output=True, text=True)
    lines = r.stdout.strip().splitlines()
    print(f"{'CAUGHT' if r.returncode else 'SURVIVED'}: {name}: {lines[-1] if lines else ''}")
    for line in lines:
        if line.startswith("FAILED"):
            print("    ", line.split(" ")[1])
    return r.returncode != 0


def main(only: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="dipclock-mutations-") as work:
        results = [run(*m, Path(work)) for m in M if not only or any(o in m[0] for o in only)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
