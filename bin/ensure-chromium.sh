#!/bin/sh
# The browser the studio's end-to-end tests drive: Debian's Chromium (playwright-core launches it by
# path; no test tool downloads a browser). CI runs this; developers run it once (as root or with sudo).
set -eu

if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi

SUDO=''
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO='sudo'; else
    echo "ensure-chromium: Chromium is missing; run 'apt-get install chromium' as root" >&2
    exit 1
  fi
fi
if ! apt-cache policy chromium 2>/dev/null | grep -q 'Candidate: [0-9]'; then
  $SUDO apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
echo "ensure-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo 'chromium')"
