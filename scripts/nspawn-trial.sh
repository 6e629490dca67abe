#!/bin/sh
# The installer and the units under a real systemd: a booted Debian Bookworm container
# (systemd-nspawn -b), not a mock of it. A benchmark-class check, not part of `make test`:
# it needs root, debootstrap, systemd-nspawn (Debian's systemd-container), ip (iproute2),
# Debian's mirror and PyPI (for the wheelhouse, scripts/wheelhouse.sh). The container has a
# network of its own (--private-network: a loopback with multicast on, where the hub
# announces itself by mDNS and the kiosk finds it), so nothing it announces reaches the
# host's network, and no other program on the host finds its hub or asks it for a code.
#
#   sudo sh scripts/nspawn-trial.sh [WORKDIR]    # WORKDIR is kept and reused (the root)
#
# It checks, and prints with timings: `install.sh hub --wheelhouse` starts a hub that answers
# under its hardening and re-running it restarts it; the hardened units can still read the
# clock state (adjtimex); a kiosk that cannot open a display stops after its start limit and
# the failure unit writes `dipclock doctor` on /dev/tty1 (a pty bound there, read back here);
# the kiosk under its unit finds the hub by mDNS, asks to be paired, is paired for table 3 by
# the TD (the dashboard's requests, pinned to the hub's certificate, approving this kiosk's
# code) and says so in its log; and it writes its outbox.
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/var/tmp/dipclock-nspawn-trial}
py=${PYTHON:-$src/.venv/bin/python}
root="$work/root" wh="$work/wheelhouse"
in_box() { nsenter -t "$leader" -a env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c "$1"; }
now() { date +%s; }
say() { echo "trial: $*"; }
failed=0
check() {  # NAME COMMAND...: one verdict line
    name=$1; shift
    if "$@"; then say "ok   $name"; else say "FAIL $name"; failed=1; fi
}

[ "$(id -u)" = 0 ] || { echo "run it as root" >&2; exit 2; }
for tool in debootstrap systemd-nspawn nsenter ip; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install debootstrap systemd-container iproute2)" >&2; exit 2; }
done
mkdir -p "$work"

t0=$(now)
if [ ! -x "$root/usr/bin/python3" ]; then
    debootstrap --variant=minbase \
        --include=systemd,systemd-sysv,dbus,python3,python3-venv,python3-pip,libgbm1,libdrm2,libegl1,libgles2,libgl1-mesa-dri,libasound2 \
        bookworm "$root" http://deb.debian.org/debian > "$work/debootstrap.log" 2>&1
    echo dipclock-trial > "$root/etc/hostname"
fi
t1=$(now); say "root ready in $((t1 - t0)) s ($root)"
rm -rf "$wh" "$root/src"
# `make wheelhouse` for this machine's architecture: the dipclock wheel, its dependencies, pip
if ! PYTHON=$py bash "$src/scripts/wheelhouse.sh" --out "$wh" > "$work/wheelhouse.log" 2>&1; then
    say "scripts/wheelhouse.sh failed ($work/wheelhouse.log); the same with pip wheel:"
    tail -3 "$work/wheelhouse.log" | sed 's/^/    /'
    failed=1
    "$py" -m pip wheel -q -w "$wh" "${src}[kiosk,hub]" pip 2>&1 | grep -v "is ignored" || true
fi
# a fresh start on a reused root: no dipclock, no user settings, no drop-ins
rm -rf "$root/opt/dipclock" "$root/etc/dipclock" "$root/var/lib/dipclock" \
    "$root/etc/systemd/system/dipclock-"* "$root/etc/systemd/system/probe-"* \
    "$root/etc/systemd/system/multi-user.target.wants/dipclock-"*
mkdir -p "$root/src" "$root/usr/local/bin"
# Runs `adjtimex` (read only) under a unit's own sandbox: the unit with its command swapped.
cat > "$root/usr/local/bin/probe-unit" <<'PROBE'
unit=$1
sed -e 's|^ExecStart=.*|ExecStart=/opt/dipclock/venv/bin/python -c "from machine.timesync import _adjtimex; print(_adjtimex())"|' \
    -e 's/^Restart=always/Restart=no/' -e 's/^Type=simple/Type=oneshot/' -e '/^OnFailure/d' \
    -e '/^Standard/d' -e '/^TTYPath/d' "/src/systemd/$unit" > "/etc/systemd/system/probe-$unit"
systemctl daemon-reload && systemctl start "probe-$unit"
journalctl -o cat -u "probe-$unit" | grep -E '^-?[0-9]+$' | tail -1
PROBE
# The TD on the dashboard, in the container: signs in, finds the request of the kiosk whose
# outbox is OUTBOX (by its id: only that clock's code), and pairs it for TABLE.
cat > "$root/usr/local/bin/pair-clock" <<'PAIR'
import json, sqlite3, sys, time
import httpx
from kiosk.pairing import pinned
outbox, table, password = sys.argv[1], int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(f"file:{outbox}?mode=ro", uri=True)
kiosk = json.loads(db.execute("SELECT value FROM settings WHERE key = 'kiosk_id'").fetchone()[0])
td = httpx.Client(base_url="https://127.0.0.1:8000", timeout=10,
                  verify=pinned(open("/var/lib/dipclock/hub/hub-cert.pem").read()))
signed_in = td.post("/api/login", json={"password": password})
signed_in.raise_for_status()
td.headers["X-CSRF-Token"] = signed_in.json()["csrf"]
end = time.monotonic() + 60
while True:
    asked = td.get("/api/td/clocks")
    asked.raise_for_status()
    ours = [w for w in asked.json()["waiting"] if w["kiosk"] == kiosk]
    if ours:
        break
    if time.monotonic() > end:
        sys.exit(f"kiosk {kiosk} did not ask to be paired within 60 s")
    time.sleep(1)
td.post("/api/td/clocks", json={"code": ours[0]["code"], "table": table}).raise_for_status()
print(f"trial: paired kiosk {kiosk}, showing {ours[0]['code']}, for table {table}")
PAIR
tar -C "$src" --exclude=.venv --exclude=.git -cf - systemd kiosk/kiosk.example.toml | tar -C "$root/src" -xf -
t2=$(now); say "wheelhouse ($(find "$wh" -name "*.whl" | wc -l) wheels) in $((t2 - t1)) s"

# A pty stands in for the Pi's screen: whatever is written on the container's /dev/tty1
# lands in screen.log.
: > "$work/screen.log"
"$py" -c '
import os, select, sys
master, slave = os.openpty()
open(sys.argv[1] + "/pty.name", "w").write(os.ttyname(slave))
with open(sys.argv[1] + "/screen.log", "ab", buffering=0) as out:
    while True:
        if select.select([master], [], [], 1.0)[0]:
            out.write(os.read(master, 4096))
' "$work" & pty_pid=$!
sleep 1
# adjtimex/clock_adjtime: nspawn filters the clock calls away from everything in the
# container; the units' own filters are what is tried here.
systemd-nspawn -D "$root" --register=no --keep-unit -b --console=passive -M dipclock-trial \
    --private-network \
    --system-call-filter="adjtimex clock_adjtime" --bind-ro="$wh:/wh" \
    --bind="$(cat "$work/pty.name"):/dev/tty1" > "$work/nspawn.log" 2>&1 & nspawn_pid=$!
# shellcheck disable=SC2317  # called by the trap
cleanup() { kill "$nspawn_pid" "$pty_pid" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
leader=""
for _ in $(seq 60); do
    leader=$(pgrep -P "$nspawn_pid" | head -1 || true)
    [ -n "$leader" ] && in_box 'systemctl is-system-running --wait >/dev/null 2>&1; true' && break
    sleep 1
done
t3=$(now); say "container booted in $((t3 - t2)) s"
# its loopback carries multicast, as a hall's Wi-Fi does: mDNS works inside, and only there
nsenter -t "$leader" -n ip link set lo up multicast on

in_box 'cd /src && DIPCLOCK_TD_PASSWORD="a long TD secret" sh systemd/install.sh hub --wheelhouse /wh' \
    > "$work/install-hub.log" 2>&1
t4=$(now); say "install.sh hub --wheelhouse: $((t4 - t3)) s"
# HTTPS with the certificate the hub made at its first start (its names are not checked)
cert=/var/lib/dipclock/hub/hub-cert.pem
hub_answers() {
    in_box "/opt/dipclock/venv/bin/python -c 'import ssl, urllib.request as u; c = ssl.create_default_context(cafile=\"$cert\"); c.check_hostname = False; u.urlopen(\"https://127.0.0.1:8000/api/time\", timeout=2, context=c)'" 2>/dev/null
}
for _ in $(seq 150); do hub_answers && break; sleep 1; done  # the hub waits up to 90 s for NTP
t5=$(now); say "hub answered $((t5 - t4)) s after the install"
check "hub answers under its unit" hub_answers
in_box 'cd /src && DIPCLOCK_TD_PASSWORD=other sh systemd/install.sh hub --wheelhouse /wh' \
    > "$work/reinstall-hub.log" 2>&1
check "re-running the installer restarts the hub" grep -q "restarted dipclock-hub" "$work/reinstall-hub.log"
check "re-running keeps the TD password's hash" in_box '/opt/dipclock/venv/bin/python -c "import sys; from machine.passwords import verify_password as v; sys.exit(not v(\"a long TD secret\", open(\"/etc/dipclock/td-password.hash\").read().strip()))"'
check "no plaintext TD password left" in_box '! grep -rqs "a long TD secret" /etc/dipclock'

probe() {  # UNIT: what adjtimex returns under UNIT's settings (5: TIME_ERROR, -1: refused)
    in_box "sh /usr/local/bin/probe-unit $1"
}
check "the hub unit reads the clock state" test "$(probe dipclock-hub.service)" -ge 0
check "the kiosk unit reads the clock state" test "$(probe dipclock-kiosk.service)" -ge 0

in_box 'cd /src && sh systemd/install.sh kiosk --wheelhouse /wh' > "$work/install-kiosk.log" 2>&1
t6=$(now); say "install.sh kiosk --wheelhouse: $((t6 - t5)) s"
for _ in $(seq 90); do
    in_box 'systemctl is-failed --quiet dipclock-kiosk' && break; sleep 1
done
t7=$(now); say "kiosk without a display gave up after $((t7 - t6)) s"
sleep 5
check "no display: the kiosk stopped retrying" in_box 'systemctl is-failed --quiet dipclock-kiosk'
check "the screen says why (doctor on tty1)" grep -q "fail display" "$work/screen.log"

# A card for table 3 with no hub address: the kiosk finds the hub by mDNS and asks to be
# paired (each clock its own credential: kiosk/pairing.py).
printf 'table = 3\n' > "$root/etc/dipclock/kiosk.toml"
mkdir -p "$root/etc/systemd/system/dipclock-kiosk.service.d"
printf '[Service]\nExecStart=\nExecStart=%s\n' \
    "/opt/dipclock/venv/bin/dipclock kiosk --config /etc/dipclock/kiosk.toml --headless" \
    > "$root/etc/systemd/system/dipclock-kiosk.service.d/headless.conf"
in_box 'systemctl daemon-reload && systemctl reset-failed dipclock-kiosk && systemctl start dipclock-kiosk'
kiosk_says() {  # PATTERN: whether the kiosk's log has a line matching it within 30 s
    for _ in $(seq 30); do
        in_box "journalctl -o cat -u dipclock-kiosk | grep -q '$1'" && return 0
        sleep 1
    done
    return 1
}
check "the kiosk under its unit finds the hub by mDNS" kiosk_says "mDNS: found the hub"
check "the TD pairs the kiosk's code for table 3" in_box \
    '/opt/dipclock/venv/bin/python /usr/local/bin/pair-clock /var/lib/dipclock/outbox.sqlite 3 "a long TD secret"'
check "the kiosk under its unit is paired for table 3" kiosk_says "paired with hub .* for table 3"
outbox() { in_box 'test -s /var/lib/dipclock/outbox.sqlite'; }
for _ in $(seq 30); do outbox && break; sleep 1; done
check "the kiosk under its unit writes its outbox" outbox

say "screen (the container's tty1):"
tr -d '\r' < "$work/screen.log" | sed 's/^/    /'
say "total $(($(now) - t0)) s; logs in $work"
exit "$failed"
