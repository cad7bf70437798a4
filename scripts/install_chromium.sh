#!/usr/bin/env bash
# Debian's chromium, for the site check (scripts/build_site.py --check, tests/test_site.py). Playwright drives this
# browser; its own browser download (`playwright install`) needs network we do not assume.
set -euo pipefail
if command -v chromium >/dev/null; then exit 0; fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
chromium --version
