#!/bin/sh
# The dashboard tests drive a real headless Chromium: Debian's `chromium` package.
# Install it when missing and we may (root with apt-get, as in CI); otherwise say how.
set -e
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the dashboard tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    exit 0
fi
echo "The dashboard tests need Chromium: run 'sudo apt-get install chromium' (Debian/Raspberry Pi OS)." >&2
exit 1
