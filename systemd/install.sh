#!/bin/sh
# Install dipclock on a Raspberry Pi (Raspberry Pi OS Bookworm) or any Debian machine so it
# boots straight into the clock.
#
#   sudo ./systemd/install.sh kiosk     # a table: the clock fullscreen on the Pi's display
#   sudo ./systemd/install.sh hub       # the hall's hub and the TD's dashboard
#
# Run it from a checkout of dipclock. Run it again to upgrade: it upgrades in place, restarts
# the service, and never overwrites /etc/dipclock/kiosk.toml or the TD password's hash.
#
#   --wheelhouse DIR  install from DIR (`make wheelhouse`) with no network at all
#   --debs DIR        the operating system's packages from DIR (`make debs`), not the internet
#   --dry-run         print every action it would take and change nothing
#   --print-packages  print the apt packages this role needs, and stop (`make debs` asks)
#   --console         a desktop holds the display: boot to the console instead, no question
#   --root DIR        write the files under DIR and touch no user, package or service
#                     (for trying it out, and for the tests)
#
# DIPCLOCK_INSTALL_ARCH=armhf (with --dry-run): the plan for another Debian architecture.
set -eu

usage() {
    echo "usage: $0 kiosk|hub [--root DIR] [--dry-run] [--wheelhouse DIR] [--debs DIR] [--console] [--print-packages]" >&2
    exit 2
}
say() { echo "dipclock install: $*"; }
# One line saying what went wrong and what to do; never a half-finished silence.
fail() { echo "dipclock install: $1" >&2; exit "${2:-1}"; }

[ $# -ge 1 ] || usage
role=$1; shift
case "$role" in kiosk|hub) ;; *) usage ;; esac
root="" dry=0 wheelhouse="" debs="" console=0 print_packages=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || usage; root=$2; shift 2 ;;
        --wheelhouse) [ $# -ge 2 ] || usage; wheelhouse=$2; shift 2 ;;
        --debs) [ $# -ge 2 ] || usage; debs=$2; shift 2 ;;
        --dry-run) dry=1; shift ;;
        --console) console=1; shift ;;
        --print-packages) print_packages=1; shift ;;
        *) usage ;;
    esac
done

src=$(cd "$(dirname "$0")/.." && pwd)
etc="$root/etc/dipclock"
units="$root/etc/systemd/system"
venv=/opt/dipclock/venv
service="dipclock-$role.service"
# Raspberry Pi OS 32-bit runs armhf programs, often on a 64-bit kernel: ask dpkg, not uname.
arch=${DIPCLOCK_INSTALL_ARCH:-$(dpkg --print-architecture 2>/dev/null || uname -m)}
if [ -z "$root" ] && [ -d /run/systemd/system ]; then systemd_runs=1; else systemd_runs=0; fi

# Every change goes through these two, so --dry-run prints exactly what a real run does.
act() {
    if [ "$dry" = 1 ]; then echo "  would run: $*"; else "$@"; fi
}
wrote() {
    if [ "$dry" = 1 ]; then echo "  would write $1${2:+ ($2)}"; else say "wrote $1${2:+ ($2)}"; fi
}

check_inputs() {
    if [ -n "$wheelhouse" ]; then
        [ -d "$wheelhouse" ] || fail "--wheelhouse $wheelhouse: no such folder (make one with \`make wheelhouse\`)" 2
        wheelhouse=$(cd "$wheelhouse" && pwd)
        found=""
        for whl in "$wheelhouse"/dipclock-*.whl; do [ -e "$whl" ] && found=$whl; done
        [ -n "$found" ] \
            || fail "--wheelhouse $wheelhouse holds no dipclock wheel: build it with \`make wheelhouse\`" 2
        [ -n "$root" ] || wheels_fit
    elif [ -z "$root" ] && [ ! -f "$src/pyproject.toml" ]; then
        fail "$src is not a dipclock checkout: run this script from one, or give --wheelhouse DIR" 2
    fi
    if [ -n "$debs" ]; then
        [ -f "$debs/dipclock-debs.json" ] && [ -f "$debs/Packages" ] \
            || fail "--debs $debs: not a folder \`make debs\` made (no dipclock-debs.json and Packages in it)" 2
        debs=$(cd "$debs" && pwd)
        [ -n "$root" ] || debs_fit
    fi
    if [ -z "$root" ] && [ "$dry" = 0 ] && [ "$(id -u)" != 0 ]; then
        fail "run it with sudo (or try --dry-run to see what it would do)" 2
    fi
}

# The Python this machine runs, as a wheel tag (cp313 on Trixie, cp311 on Bookworm);
# DIPCLOCK_INSTALL_PYTHON=3.13 (with --dry-run): the check for another one.
python_tag() {
    if [ -n "${DIPCLOCK_INSTALL_PYTHON:-}" ]; then
        echo "cp$(echo "$DIPCLOCK_INSTALL_PYTHON" | tr -d .)"; return
    fi
    /usr/bin/python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])' 2>/dev/null \
        || fail "no /usr/bin/python3 here: install python3 first" 2
}

# The machine name wheels carry for dpkg's architecture.
wheel_machine() {
    case "$arch" in
        arm64|aarch64) echo aarch64 ;;
        armhf|armel|armv7l) echo armv7l ;;
        amd64|x86_64) echo x86_64 ;;
        *) echo "$arch" ;;
    esac
}

# A wheelhouse made for another Python or machine installs nothing but pip's complaint about
# the network: say which Python and machine it is for, and what this one lacks, before pip
# runs. The packages that need a wheel per Python are the wheelhouse's own answer: those with
# a cpXY tag (pygame-ce, uvloop, ...); an abi3 wheel serves every later Python.
wheels_fit() {
    tag=$(python_tag) machine=$(wheel_machine)
    lacking="" made_for=""
    for whl in "$wheelhouse"/*-cp3*.whl; do
        [ -e "$whl" ] || continue
        name=$(basename "$whl"); dist=${name%%-*}
        # NAME-VERSION-PYTHON-ABI-PLATFORM.whl
        rest=${name%.whl}; plat=${rest##*-}; rest=${rest%-*}; abi=${rest##*-}
        rest=${rest%-*}; py=${rest##*-}
        for m in aarch64 armv7l x86_64 i686; do
            case "$plat" in *"$m"*) [ "$abi" = abi3 ] || made_for="$made_for $py/$m" ;; esac
        done
        ls "$wheelhouse/$dist"-*-"$tag"-*"$machine"*.whl >/dev/null 2>&1 \
            || ls "$wheelhouse/$dist"-*-abi3-*"$machine"*.whl >/dev/null 2>&1 \
            || case " $lacking " in *" $dist "*) ;; *) lacking="$lacking $dist" ;; esac
    done
    [ -z "$lacking" ] && return 0
    made_for=$(echo "$made_for" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ' | sed 's/cp3/CPython 3./g')
    version=$(echo "$tag" | sed 's/^cp3/3./')
    fail "--wheelhouse $wheelhouse is for ${made_for% }; this machine runs Python $version on $machine: it lacks$lacking. Make it with \`make wheelhouse ARCH=$machine\` (CPython 3.11 and 3.13) or scripts/wheelhouse.sh --arch $machine --python $version" 2
}

# A folder of another Debian release or architecture would leave apt mixing releases.
debs_fit() {
    have=$(/usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["suite"], d["arch"])' "$debs/dipclock-debs.json") \
        || fail "--debs $debs: dipclock-debs.json cannot be read" 2
    suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    want="${suite:-unknown} $arch"
    [ "$have" = "$want" ] \
        || fail "--debs $debs holds Debian's $have packages; this machine is $want: make them with \`make debs SUITE=${suite:-...} DEB_ARCH=$arch\`" 2
}

# --- System packages -------------------------------------------------------------------
# pygame-ce's bundled SDL draws through KMS/DRM without a desktop; its libSDL2 dlopens
# libgbm.so.1, libdrm.so.2, libEGL.so.1 and libGLESv2.so.2 (tests/deploy/test_sdl.py checks
# this list against the wheel), and Mesa's DRI drivers do the drawing on the Pi's GPU.
# python3-venv brings pip into the venv (ensurepip's wheel): apt's python3-pip is not needed.
required_packages() {  # sets $pkgs: what the role cannot run without
    pkgs="python3 python3-venv"
    if [ "$role" = kiosk ]; then
        pkgs="$pkgs libgbm1 libdrm2 libegl1 libgles2 libgl1-mesa-dri"
    fi
}

# gpiozero on Bookworm needs lgpio: Raspberry Pi OS packages it (PyPI's aarch64 wheel is
# empty); the venv sees it through --system-site-packages. Debian proper lacks it. The sound
# cues' libasound2 is libasound2t64 from Trixie on. The Noto fonts draw a player's name in
# Thai, Arabic or Chinese (kiosk/fonts.py), as the card has them. Each only where apt knows it.
optional_packages() {  # sets $optional: each a package, or alternatives a|b (the first apt knows)
    optional=""
    [ "$role" = kiosk ] && optional="python3-lgpio libasound2t64|libasound2 fonts-noto-core fonts-noto-cjk"
    return 0
}

# apt knows a package: from the --debs folder's index, else from this machine's apt.
apt_knows() {
    if [ -n "$debs" ]; then
        grep -q "^Package: $1\$" "$debs/Packages"
    else
        apt-cache show --no-all-versions "$1" 2>/dev/null | grep -q '^Package:'
    fi
}

apt_packages() {  # sets $pkgs
    required_packages
    optional_packages
    for choice in $optional; do
        found=""
        for p in $(echo "$choice" | tr '|' ' '); do
            if apt_knows "$p"; then found=$p; break; fi
        done
        if [ -n "$found" ]; then
            pkgs="$pkgs $found"
        else
            say "note: apt does not know $(echo "$choice" | sed 's/|/ nor /g') here (Raspberry Pi OS has it)"
        fi
    done
    case "$arch" in
        armhf|armel|armv6l|armv7l)
            if [ -z "$wheelhouse" ]; then
                # PyPI has no 32-bit ARM wheels for pygame-ce (kiosk) nor uvloop, httptools,
                # PyYAML, cffi (hub; cryptography's own wheel exists): pip builds them here (or takes piwheels' build, which links
                # Debian's SDL2, built with KMS/DRM).
                pkgs="$pkgs build-essential python3-dev pkg-config"
                if [ "$role" = kiosk ]; then
                    pkgs="$pkgs libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev"
                    pkgs="$pkgs libsdl2-ttf-dev libfreetype-dev libportmidi-dev libjpeg-dev libpng-dev"
                else
                    pkgs="$pkgs libyaml-dev libffi-dev"
                fi
            fi ;;
    esac
}

system_packages() {
    apt_packages
    say "apt packages ($arch): $pkgs"
    if [ -n "$root" ]; then
        say "system packages: left alone (--root)"; return
    fi
    missing=""
    for p in $pkgs; do
        status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
        [ "$status" = installed ] || missing="$missing $p"
    done
    if [ -z "$missing" ]; then
        say "system packages: all installed already"; return
    fi
    say "system packages to install:$missing"
    if [ -n "$debs" ]; then
        offline_apt; return
    fi
    if [ "$dry" = 1 ]; then
        echo "  would run: apt-get update"
        echo "  would run: apt-get install -y$missing"
        return
    fi
    # shellcheck disable=SC2086  # the package list is meant to split into words
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; }; then
        fail "could not install$missing: connect this machine to the internet once, or bring the packages with --debs DIR (\`make debs\`), then run this again"
    fi
}

# apt with the --debs folder as its only source (systemd/apt-from.sh): no network.
offline_apt() {
    from="$src/systemd/apt-from.sh"
    if [ "$dry" = 1 ]; then  # apt's own answer, simulated: what it would take from the folder
        # shellcheck disable=SC2086
        if plan=$(sh "$from" "$debs" -s install --no-install-recommends $missing 2>&1); then
            echo "$plan" | sed -n 's/^Inst \([^ ]*\).*/  would install \1 from the folder/p'
        else
            echo "  apt cannot install$missing from $debs alone: $(echo "$plan" | grep '^E:' | head -n 1)"
        fi
        return
    fi
    # shellcheck disable=SC2086
    sh "$from" "$debs" install -y -qq --no-install-recommends $missing >/dev/null \
        || fail "could not install$missing from $debs (apt's message is above): make the folder again with \`make debs\`"
    say "system packages: installed from $debs, with no network"
}

# --- The user the services run as -------------------------------------------------------
# Each group gives one kind of device: video/render the display (/dev/dri, /dev/vchiq),
# input the keyboard (/dev/input), gpio the buttons (/dev/gpiochip*), dialout the button box
# (/dev/ttyACM*), audio the sound, tty the console. A group this machine lacks is skipped:
# the units name none (a unit with a missing SupplementaryGroups= fails to start); systemd's
# User= gives the service every group the user is in.
user_and_groups() {
    if [ -n "$root" ]; then
        say "user dipclock: left alone (--root)"; return
    fi
    if ! id dipclock >/dev/null 2>&1; then
        act useradd --system --user-group --home-dir /var/lib/dipclock --no-create-home \
            --shell /usr/sbin/nologin dipclock
    fi
    [ "$role" = kiosk ] || return 0
    have="" lack=""
    for g in video render input gpio dialout audio tty; do
        if getent group "$g" >/dev/null; then have="$have,$g"; else lack="$lack $g"; fi
    done
    have=${have#,}
    say "groups for dipclock: $have${lack:+ (not on this machine:$lack)}"
    [ -z "$have" ] || act usermod -a -G "$have" dipclock
}

# --- Python ----------------------------------------------------------------------------
# Debian's own python3 (not one from PATH): its system site-packages hold apt's python3-lgpio.
python_env() {
    if [ -n "$root" ]; then
        say "python environment: left alone (--root)"; return
    fi
    # Re-running on an existing venv keeps its packages and turns system site-packages on
    # (venvs made by older installers lacked it).
    act /usr/bin/python3 -m venv --system-site-packages "$venv" \
        || fail "could not make $venv (is python3-venv installed?)"
    if [ -n "$wheelhouse" ]; then
        for whl in "$wheelhouse"/pip-*.whl; do
            [ -e "$whl" ] || continue
            act "$venv/bin/pip" install -q --upgrade --no-index --find-links "$wheelhouse" pip
            break
        done
        pip_install "$venv/bin/pip" install -q --upgrade --no-index --find-links "$wheelhouse" \
            "dipclock[$role]"
        # A wheelhouse from a newer checkout may carry the same version number, which pip
        # counts as "already satisfied": put dipclock's own code in place regardless.
        latest=""
        for whl in "$wheelhouse"/dipclock-*.whl; do
            [ -e "$whl" ] && latest=$whl
        done
        [ -z "$latest" ] || pip_install "$venv/bin/pip" install -q --no-index --no-deps \
            --force-reinstall "$latest"
    else
        act "$venv/bin/pip" install -q --upgrade pip \
            || fail "pip could not upgrade itself: is this machine online? (or use --wheelhouse DIR)"
        pip_install "$venv/bin/pip" install -q --upgrade "${src}[$role]"
    fi
}

pip_install() {
    act "$@" || fail "pip could not install dipclock[$role] (its message is above): online? or use --wheelhouse DIR"
}

# --- Files -----------------------------------------------------------------------------
install_file() {  # SOURCE DEST [why]
    if [ "$dry" = 0 ]; then
        mkdir -p "$(dirname "$2")"
        cp "$1" "$2.new" && chmod 644 "$2.new" && mv "$2.new" "$2"
    fi
    wrote "$2" "${3:-}"
}

kiosk_files() {
    if [ -e "$etc/kiosk.toml" ]; then
        say "kept $etc/kiosk.toml (yours; never overwritten)"
    else
        install_file "$src/kiosk/kiosk.example.toml" "$etc/kiosk.toml" \
            "the hall's settings, the same on every cloned card: the buttons, the screen"
    fi
    # The console must never blank the clock: the kernel blanks an idle console after 10 min.
    for cmdline in "$root/boot/firmware/cmdline.txt" "$root/boot/cmdline.txt"; do
        [ -f "$cmdline" ] || continue
        # Each card's own table goes on the boot partition, which any laptop can edit.
        boot_file="$(dirname "$cmdline")/dipclock.txt"
        if [ -e "$boot_file" ]; then
            say "kept $boot_file (this card's table; never overwritten)"
        else
            install_file "$src/kiosk/dipclock.example.txt" "$boot_file" \
                "this card's table number: edit it from any laptop after cloning"
        fi
        if grep -q 'consoleblank=0' "$cmdline"; then
            say "$cmdline has consoleblank=0 already"
        elif [ "$dry" = 1 ]; then
            echo "  would add consoleblank=0 to $cmdline"
        else
            sed -i '1s/$/ consoleblank=0/' "$cmdline"
            say "added consoleblank=0 to $cmdline (takes effect at the next boot)"
        fi
        break
    done
    install_file "$src/systemd/dipclock-kiosk.service" "$units/dipclock-kiosk.service"
    install_file "$src/systemd/dipclock-kiosk-failed.service" "$units/dipclock-kiosk-failed.service" \
        "writes \`dipclock doctor\` on the screen once the kiosk has stopped retrying"
}

# ModemManager (NetworkManager recommends it: Raspberry Pi OS Bookworm, Lite included, runs
# it) probes every new USB serial port with AT commands, the button box's too: a udev rule
# keeps it off them (systemd/75-dipclock-button-box.rules says why). `dipclock doctor`
# warns when ModemManager runs without it.
button_box_rule() {
    rule="$root/etc/udev/rules.d/75-dipclock-button-box.rules"
    install_file "$src/systemd/75-dipclock-button-box.rules" "$rule" \
        "ModemManager leaves the button box's serial port alone"
    # now for the ports already there (a box plugged in later is tagged as it comes)
    if [ "$systemd_runs" = 1 ] && command -v udevadm >/dev/null 2>&1; then
        if ! { act udevadm control --reload-rules \
               && act udevadm trigger --subsystem-match=tty --action=change; }; then
            say "note: udev did not take the rule now (no udevd here?): it applies from the next boot"
        fi
    fi
}

# The TD password's scrypt hash, never the password: the hub stores it at its first start.
# A plaintext file an older installer left is hashed, then removed.
hub_files() {
    hashed="$etc/td-password.hash" old="$etc/td-password"
    if [ -e "$hashed" ]; then
        say "kept $hashed (never overwritten)"
    elif [ "$dry" = 1 ]; then
        if [ -e "$old" ]; then how="hashed from $old"
        elif [ -n "${DIPCLOCK_TD_PASSWORD:-}" ]; then how="hashed from DIPCLOCK_TD_PASSWORD"
        else how="asked on the terminal"; fi
        wrote "$hashed" "$how, mode 600: the password's hash only"
    else
        mkdir -p "$etc"
        rules=""
        if [ -e "$old" ]; then
            pw=$(head -n 1 "$old") rules=--old
        elif [ -n "${DIPCLOCK_TD_PASSWORD:-}" ]; then
            pw=$DIPCLOCK_TD_PASSWORD
        elif [ -t 0 ]; then
            stty -echo; printf 'TD password for the dashboard: '; read -r pw; stty echo; echo
        else
            fail "set DIPCLOCK_TD_PASSWORD or run this on a terminal: there is no default" 2
        fi
        # the hub's own hashing (standard library only): from the venv, or from this checkout
        if [ -z "$root" ] && [ -x "$venv/bin/python" ]; then py="$venv/bin/python"; pypath=""
        else py=python3; pypath=$src; fi
        hash=$(printf '%s\n' "$pw" | PYTHONPATH=$pypath "$py" -m machine.passwords $rules) || exit 2
        (umask 077 && printf '%s\n' "$hash" > "$hashed.new") && mv "$hashed.new" "$hashed"
        [ -n "$root" ] || chown dipclock:dipclock "$hashed"
        wrote "$hashed" "mode 600: the password's hash only"
    fi
    if [ -e "$old" ]; then
        act rm -f "$old"
        [ "$dry" = 1 ] || say "removed $old (the plaintext password an older installer kept)"
    fi
    install_file "$src/systemd/dipclock-hub.service" "$units/dipclock-hub.service"
}

# --- A desktop holding the display -----------------------------------------------------
# The clock draws straight onto the display (KMS/DRM); a desktop session's display manager
# owns it first. What counts is an enabled display-manager.service: graphical.target with
# none (Debian's default) holds no display.
desktop() {
    dm="$units/display-manager.service"
    [ -L "$dm" ] || [ -e "$dm" ] || return 0
    name=$(basename "$(readlink "$dm" 2>/dev/null || echo "$dm")")
    default=$(basename "$(readlink "$units/default.target" 2>/dev/null || echo graphical.target)")
    if [ "$default" = multi-user.target ]; then
        say "a desktop ($name) is installed, but the machine boots to the console: fine"
        return
    fi
    say "a desktop ($name) holds the display: the clock cannot draw while it runs"
    answer=n
    if [ "$console" = 1 ]; then
        answer=y
    elif [ "$dry" = 0 ] && [ -t 0 ]; then
        printf 'Boot to the console instead, so the clock owns the screen? [y/N] '
        read -r answer || answer=n
    fi
    case "$answer" in
        y|Y|yes|YES)
            if [ "$systemd_runs" = 1 ]; then
                act systemctl set-default multi-user.target
            else
                act ln -sfn /lib/systemd/system/multi-user.target "$units/default.target"
            fi
            say "the console from the next boot on (the desktop stays installed)" ;;
        *)
            say "to boot to the console (then reboot): sudo systemctl set-default multi-user.target"
            say "(or run this installer again with --console)" ;;
    esac
}

# --- The service -----------------------------------------------------------------------
service_state() {
    if [ "$systemd_runs" = 1 ]; then
        act systemctl daemon-reload
        if systemctl is-active --quiet "$service"; then
            act systemctl restart "$service"
            outcome="restarted $service"
        else
            # a kiosk that gave up earlier is still over its start limit: clear that first
            act systemctl reset-failed "$service" 2>/dev/null || true
            act systemctl enable --now "$service"
            outcome="enabled and started $service"
        fi
    else
        # What `systemctl enable` does for WantedBy=multi-user.target, without a systemd
        # to ask: a container, a chroot, a card being prepared, or --root.
        wants="$units/multi-user.target.wants"
        if [ "$dry" = 0 ]; then
            mkdir -p "$wants"
            ln -sfn "/etc/systemd/system/$service" "$wants/$service"
        fi
        wrote "$wants/$service" "enabled: starts at the next boot"
        say "systemd is not running here: systemctl skipped, $service not started"
        outcome="enabled $service for the next boot"
    fi
}

summary() {
    if [ "$dry" = 1 ]; then
        say "dry run: nothing was changed"; return
    fi
    if [ -n "$root" ]; then
        say "files written under $root (no user, package or service touched)"; return
    fi
    say "done: $outcome (python: $venv)"
    if [ "$role" = kiosk ]; then
        # from the kiosk's own folder: lgpio writes its pipes into the working directory
        say "check the table: cd /var/lib/dipclock && sudo -u dipclock $venv/bin/dipclock doctor"
        say "  (one line per check, with the fix; to try each button: stop the kiosk, add --buttons 30)"
        say "settings: $etc/kiosk.toml, or dipclock.txt on the boot partition"
    else
        say "check it: open https://$(hostname 2>/dev/null || echo HUB):8000/dashboard on the TD's phone"
    fi
    say "logs: journalctl -u $service -b"
}

if [ "$print_packages" = 1 ]; then
    required_packages; optional_packages
    echo "required: $pkgs"
    echo "optional: $optional"
    exit 0
fi
check_inputs
[ "$dry" = 0 ] || say "dry run: printing what it would do, changing nothing"
system_packages
user_and_groups
python_env
if [ "$role" = kiosk ]; then kiosk_files; button_box_rule; else hub_files; fi
[ "$role" = hub ] || desktop
service_state
summary
