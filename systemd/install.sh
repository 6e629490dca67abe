#!/bin/sh
# Install dipclock on a Raspberry Pi (Raspberry Pi OS Bookworm) or any Debian machine so it
# boots straight into the clock.
#
#   sudo ./systemd/install.sh kiosk     # a table: the clock fullscreen on the Pi's display
#   sudo ./systemd/install.sh hub       # the hall's hub and the TD's dashboard
#
# Run it from a checkout of dipclock. It is safe to run again (to upgrade): it never
# overwrites /etc/dipclock/kiosk.toml or the TD password.
#
# --root DIR writes every file under DIR and touches no user, package or service: for
# trying it out and for the tests.
set -eu

usage() { echo "usage: $0 kiosk|hub [--root DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
role=$1; shift
case "$role" in kiosk|hub) ;; *) usage ;; esac
root=""
while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || usage; root=$2; shift 2 ;;
        *) usage ;;
    esac
done

src=$(cd "$(dirname "$0")/.." && pwd)
etc="$root/etc/dipclock"
units="$root/etc/systemd/system"
prefix="$root/opt/dipclock"

say() { echo "dipclock install: $*"; }

if [ -z "$root" ]; then
    [ "$(id -u)" = 0 ] || { echo "run it with sudo" >&2; exit 2; }
    say "system packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
    if ! id dipclock >/dev/null 2>&1; then
        say "user dipclock"
        useradd --system --home-dir /var/lib/dipclock --shell /usr/sbin/nologin dipclock
    fi
    for g in video render input gpio dialout audio; do
        getent group "$g" >/dev/null && usermod -a -G "$g" dipclock
    done
    say "python environment in /opt/dipclock/venv"
    python3 -m venv /opt/dipclock/venv
    /opt/dipclock/venv/bin/pip install -q --upgrade pip
    /opt/dipclock/venv/bin/pip install -q "$src"
fi

mkdir -p "$etc" "$units" "$prefix"
if [ "$role" = kiosk ]; then
    # The console must never blank the clock: the kernel blanks an idle console after 10 min.
    for cmdline in "$root/boot/firmware/cmdline.txt" "$root/boot/cmdline.txt"; do
        if [ -f "$cmdline" ] && ! grep -q 'consoleblank=0' "$cmdline"; then
            sed -i '1s/$/ consoleblank=0/' "$cmdline"
            say "added consoleblank=0 to $cmdline (takes effect at the next boot)"
            break
        fi
    done
    if [ ! -e "$etc/kiosk.toml" ]; then
        cp "$src/kiosk/kiosk.example.toml" "$etc/kiosk.toml"
        say "wrote $etc/kiosk.toml: set the event (or the hub), the table and the buttons"
    fi
else
    if [ ! -e "$etc/td-password" ]; then
        if [ -n "${DIPCLOCK_TD_PASSWORD:-}" ]; then
            printf '%s\n' "$DIPCLOCK_TD_PASSWORD" > "$etc/td-password"
        elif [ -t 0 ]; then
            stty -echo; printf 'TD password for the dashboard: '; read -r pw; stty echo; echo
            [ -n "$pw" ] || { echo "an empty password is not allowed" >&2; exit 2; }
            printf '%s\n' "$pw" > "$etc/td-password"
        else
            echo "set DIPCLOCK_TD_PASSWORD or run this on a terminal: there is no default" >&2
            exit 2
        fi
        chmod 600 "$etc/td-password"
        [ -n "$root" ] || chown dipclock:dipclock "$etc/td-password"
    fi
fi
cp "$src/systemd/dipclock-$role.service" "$units/"

if [ -z "$root" ]; then
    systemctl daemon-reload
    systemctl enable --now "dipclock-$role.service"
    say "dipclock-$role is running; logs: journalctl -u dipclock-$role -f"
else
    say "files written under $root"
fi
