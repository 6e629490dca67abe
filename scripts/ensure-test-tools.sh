#!/bin/sh
# What the tests drive for real, from Debian: `chromium` (the dashboard and the phone pages,
# headless) and `zbarimg` from `zbar-tools` (reads the QR code a kiosk draws at game over,
# as a phone's camera would), `ip` from iproute2 (a private network namespace for the
# mDNS tests), Debian's Noto fonts (names in any script), and the image tools of the card's layout test (below). Install what is missing when we may (root with apt-get, as
# in CI); otherwise say how.
set -e
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v zbarimg >/dev/null 2>&1 || missing="$missing zbar-tools"
# `ip` (iproute2): the mDNS tests announce only inside a private network namespace
command -v ip >/dev/null 2>&1 || missing="$missing iproute2"
# the card image's layout test (tests/deploy/test_card.py) makes a small image as `make card`
# does: sfdisk (fdisk), mkfs.vfat (dosfstools), mcopy (mtools), mke2fs (e2fsprogs), and the
# card's setup makes SSH host keys (ssh-keygen: openssh-client)
command -v sfdisk >/dev/null 2>&1 || missing="$missing fdisk"
command -v mkfs.vfat >/dev/null 2>&1 || missing="$missing dosfstools"
command -v mcopy >/dev/null 2>&1 || missing="$missing mtools"
command -v mke2fs >/dev/null 2>&1 || missing="$missing e2fsprogs"
command -v ssh-keygen >/dev/null 2>&1 || missing="$missing openssh-client"
# the Noto fonts a player's name in Thai, Arabic or Chinese is drawn with, on the table's
# screen (kiosk/fonts.py) and in Chromium (/hall, /boardcall), as on the card
[ -f /usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf ] || missing="$missing fonts-noto-core"
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || missing="$missing fonts-noto-cjk"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's$missing for the tests..."
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    exit 0
fi
echo "The tests need$missing: run 'sudo apt-get install$missing' (Debian/Raspberry Pi OS)." >&2
exit 1
