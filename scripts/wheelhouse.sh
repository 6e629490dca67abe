#!/usr/bin/env bash
# `make wheelhouse [ARCH=aarch64|armv7l|x86_64]`: every wheel a table or the hub needs, so the
# Pis install at a venue with no internet:
#
#   sh systemd/install.sh kiosk --wheelhouse wheelhouse/aarch64
#
#   scripts/wheelhouse.sh [--arch ARCH] [--out DIR] [--python X.Y ...]
#
# Defaults: this machine's architecture and wheelhouse/ARCH; for a Pi's architecture both
# CPython 3.11 (Raspberry Pi OS Bookworm, now "Legacy") and 3.13 (Trixie, Raspberry Pi Imager's
# default), for this machine's own its Python. --python may be given more than once.
#
# The wheelhouse holds the dipclock wheel built from this checkout and every dependency of the
# roles kiosk and hub (and pip itself, so the installer can upgrade it offline), for Raspberry Pi
# OS / Debian Bookworm and Trixie (manylinux tags up to glibc 2.36, which Trixie's 2.41 runs).
# The installer checks the wheels' Python tag against the Pi's before it installs anything.
# This machine's architecture and Python version: `pip wheel`,
# which builds from source whatever has no wheel (how a 32-bit Pi gets pygame-ce).
# Another architecture: `pip download --only-binary=:all: --platform ...`, wheels from PyPI only;
# what has none is named, with the fix. PYTHON picks the interpreter (default python3).
# The result replaces DIR only once complete, so a failed run never leaves half a wheelhouse.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
targets=()
glibc_minor=36  # Debian / Raspberry Pi OS Bookworm (Trixie runs them too)

say() { echo "wheelhouse: $*"; }
die() { echo "wheelhouse: $*" >&2; exit 1; }
usage() { echo "usage: $0 [--arch aarch64|armv7l|x86_64] [--out DIR] [--python X.Y ...]" >&2; exit 2; }

arch="" out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) [ $# -ge 2 ] || usage; arch=$2; shift 2 ;;
        --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
        --python) [ $# -ge 2 ] || usage; targets+=("$2"); shift 2 ;;
        *) usage ;;
    esac
done

for target_python in "${targets[@]}"; do
    [[ $target_python =~ ^3\.[0-9]+$ ]] || die "--python $target_python: give a version such as 3.11"
done
"$python" -m pip --version >/dev/null 2>&1 \
    || die "$python has no pip: install it (sudo apt-get install python3-pip) or set PYTHON"
# The architecture Python runs as, not the kernel's: 32-bit Raspberry Pi OS on a Pi 4 or 5 runs
# a 64-bit kernel (uname -m says aarch64) under an armv7l userland.
host=$("$python" -c 'import platform, struct
m = platform.machine()
m = {"aarch64": "armv7l", "armv8l": "armv7l", "x86_64": "i686"}.get(m, m) if struct.calcsize("P") == 4 else m
print(m)')
host_python=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
arch=${arch:-$host}
case "$arch" in  # Debian's names for them (dpkg --print-architecture)
    arm64) arch=aarch64 ;;
    armhf) arch=armv7l ;;
    amd64) arch=x86_64 ;;
esac
out=${out:-$src/wheelhouse/$arch}

platforms=()
tag() { for minor in $(seq "$glibc_minor" -1 "$1"); do platforms+=(--platform "manylinux_2_${minor}_$arch"); done; }
case "$arch" in
    aarch64|armv7l) tag 17; platforms+=(--platform "manylinux2014_$arch") ;;
    x86_64) tag 5; platforms+=(--platform manylinux2014_x86_64 --platform manylinux2010_x86_64
                               --platform manylinux1_x86_64) ;;
    *) [ "$arch" = "$host" ] || die "unknown architecture '$arch': use aarch64 (64-bit Pi OS),"`
                                   `" armv7l (32-bit Pi OS) or x86_64" ;;
esac
if [ ${#targets[@]} -eq 0 ]; then
    if [ "$arch" = "$host" ]; then targets=("$host_python"); else targets=(3.11 3.13); fi
fi

mkdir -p "$(dirname "$out")"
stage=$(mktemp -d "$out.partial.XXXXXX")
work=$(mktemp -d)
trap 'rm -rf "$stage" "$work"' EXIT

# Build from a copy of the checkout: setuptools writes build/ and *.egg-info into the tree it
# builds, which would race with tests running in the checkout and could carry stale modules.
mkdir "$work/src"
tar -C "$src" -cf - --exclude=./.git --exclude=./.venv --exclude=./wheelhouse --exclude=./build \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis \
    --exclude=.ruff_cache . | tar -C "$work/src" -xf -
"$python" -m pip wheel -q --no-deps --wheel-dir "$stage" "$work/src" >"$work/log" 2>&1 \
    || { grep -E '^(ERROR|error)' "$work/log" >&2 || cat "$work/log" >&2
         die "could not build the dipclock wheel from $src"; }
wheel=$(ls "$stage"/dipclock-*.whl)
wanted=("${wheel}[kiosk,hub]" pip)

for target_python in "${targets[@]}"; do
    native=no
    [ "$arch" = "$host" ] && [ "$host_python" = "$target_python" ] && native=yes
    if [ "$native" = yes ]; then
        say "$arch (this machine, CPython $host_python): pip wheel, building from source what has no wheel"
        "$python" -m pip wheel -q --wheel-dir "$stage" "${wanted[@]}" >"$work/log" 2>&1 \
            || { grep -E '^(ERROR|error)' "$work/log" >&2 || tail -n 20 "$work/log" >&2
                 die "a dependency failed to build from source: install the build packages"`
                     `" (sudo sh systemd/install.sh kiosk does on a 32-bit Pi) and run it again"; }
    else
        cross=(--only-binary=:all: "${platforms[@]}" --python-version "$target_python"
               --implementation cp)
        say "$arch, CPython $target_python: wheels from the package index"
        if ! "$python" -m pip download -q "${cross[@]}" -d "$stage" "${wanted[@]}" >"$work/log" 2>&1
        then
            grep -q 'No matching distribution found' "$work/log" \
                || { grep -E '^ERROR' "$work/log" >&2 || tail -n 20 "$work/log" >&2
                     die "pip download failed (it needs the package index: PyPI or a mirror)"; }
            # pip stops at the first package with no wheel: take every package the roles need (as
            # resolved for this machine) one by one to name them all.
            "$python" -m pip install -q --dry-run --ignore-installed --report "$work/report.json" \
                "${wanted[@]}" >/dev/null 2>&1 || die "pip could not resolve the dependencies here"
            mapfile -t names < <("$python" -c 'import json, sys
for item in json.load(open(sys.argv[1]))["install"]:
    name = item["metadata"]["name"]
    if name != "dipclock": print(name)' "$work/report.json")
            missing=()
            for name in "${names[@]}"; do
                "$python" -m pip download -q --no-deps "${cross[@]}" -d "$work/probe" "$name" \
                    >/dev/null 2>&1 || missing+=("$name")
            done
            list=$(printf '%s, ' "${missing[@]}"); list=${list%, }
            die "no $arch wheel on the package index for ${list:-a dependency} (CPython"`
                `" $target_python). Fix: build the wheelhouse on a 32-bit Pi itself: there"`
                `" 'make wheelhouse' builds them from source with pip wheel, once"`
                `" 'sudo sh systemd/install.sh kiosk' has installed the build packages"
        fi
    fi
done

(cd "$stage" && sha256sum -- *.whl > SHA256SUMS)
rm -rf "$out"
mv "$stage" "$out"
chmod 755 "$out"
count=$(find "$out" -name "*.whl" | wc -l)
say "$count wheels ($(du -sh "$out" | cut -f1)) for CPython ${targets[*]} in $out; on the Pi:"`
    `" sudo sh systemd/install.sh kiosk|hub --wheelhouse $out"
