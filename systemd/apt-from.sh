#!/bin/sh
# apt with a folder of .deb files as its only source (a file: repository `make debs` made,
# read with no network), in a configuration of its own: this machine's sources and package
# lists are left as they were. The installer's --debs; the tests run it in simulation (-s).
#
#   sh systemd/apt-from.sh DIR install -y --no-install-recommends PACKAGE ...
#   sh systemd/apt-from.sh DIR -s install PACKAGE ...      # what apt would take, nothing done
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR APT-GET-ARGUMENTS ..." >&2; exit 2; }
dir=$(cd "$1" && pwd); shift
[ -f "$dir/Packages" ] || { echo "apt-from: $dir has no Packages index (make debs makes one)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial"
echo "deb [trusted=yes] file:$dir ./" > "$tmp/sources.list"
sources="Dir::Etc::sourcelist=$tmp/sources.list" lists="Dir::State::Lists=$tmp/lists"
apt-get -qq -o "$sources" -o Dir::Etc::sourceparts=- -o "$lists" -o Acquire::Languages=none \
    update >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get -o "$sources" -o Dir::Etc::sourceparts=- -o "$lists" \
    -o Acquire::Languages=none "$@"
