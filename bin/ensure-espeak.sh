#!/bin/sh
# npm's postinstall: makes sure Debian's espeak-ng is installed, the local engine's draft voice for a
# job's voice line (functions/adapters/engines/local/voice). Installs with apt-get when it can (root on
# Debian); otherwise says what to do and leaves npm install to succeed: only jobs with a voice line need
# it, and those fail with a render error that says what is missing.
set -eu

DEBIAN_PACKAGE=espeak-ng

if [ -n "${ESPEAK_NG_PATH:-}" ]; then
  exit 0 # the caller brings its own build
fi

if dpkg-query -W -f '${Status}' "$DEBIAN_PACKAGE" 2>/dev/null | grep -q 'install ok installed'; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "ensure-espeak: Debian's espeak-ng is not installed (voice lines cannot be spoken offline); run 'sudo apt-get install espeak-ng'," >&2
  echo "ensure-espeak: or set ESPEAK_NG_PATH to an espeak-ng binary." >&2
  exit 0
fi

# A fresh machine may have no package lists yet.
if ! apt-cache policy "$DEBIAN_PACKAGE" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
  apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$DEBIAN_PACKAGE" >/dev/null
echo "ensure-espeak: installed Debian's espeak-ng $(dpkg-query -W -f '${Version}' "$DEBIAN_PACKAGE")"
