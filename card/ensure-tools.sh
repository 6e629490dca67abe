#!/bin/sh
# What `make card`, `make card-test` and `make hall-test` drive, all from Debian: debootstrap,
# proot and qemu-user-static (the arm64 root built on an x86-64 machine without binfmt_misc),
# the image tools (sfdisk, mkfs.vfat + mtools, mke2fs, xz), qemu-system-aarch64 (the boots),
# libseccomp (proot's older-kernel filter, as benchmarks/pi_install.py), and for the hall
# test's emulated LAN iproute2 (its network namespace, bridge and taps), dnsmasq (the hall
# router's DHCP) and zbarimg (reads the QR code on the hub card's screen). Installs what is
# missing when we may (root with apt-get); otherwise says the one command to run.
set -e
missing=""
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need debootstrap debootstrap
need proot proot
need qemu-aarch64-static qemu-user-static
need qemu-system-aarch64 qemu-system-arm
need sfdisk fdisk
need mkfs.vfat dosfstools
need mcopy mtools
need mke2fs e2fsprogs
need xz xz-utils
need ssh-keygen openssh-client
need ssh openssh-client
need ip iproute2
need dnsmasq dnsmasq-base
need zbarimg zbar-tools
ldconfig -p 2>/dev/null | grep -q 'libseccomp.so.2 ' || missing="$missing libseccomp2"
# the arm64 firmware qemu's UEFI boot would use is not needed: the boots load the kernel
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "card: installing Debian's$missing..."
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
    exit 0
fi
echo "make card needs$missing: run 'sudo apt-get install$missing' (Debian)." >&2
exit 1
