#!/bin/sh
# npm's postinstall: makes sure Debian's espeak-ng is installed, the local engine's draft voice for a
# job's voice line (functions/render/voice). Installs it with apt-get when it can (root
# on Debian); otherwise says what to do and lets npm install succeed: only jobs with a voice line need
# it, and those fail with a render error that says what is missing.
set -eu

[ -n "${ESPEAK_NG_PATH:-}" ] && exit 0 # the caller brings its own build
dpkg-query -W -f '${Status}' espeak-ng 2>/dev/null | grep -q 'install ok installed' && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  # A fresh machine may have no package lists yet.
  apt-cache policy espeak-ng 2>/dev/null | grep -q 'Candidate: [0-9]' || apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends espeak-ng >/dev/null
  echo "ensure-espeak: installed Debian's espeak-ng $(dpkg-query -W -f '${Version}' espeak-ng)"
else
  echo "ensure-espeak: Debian's espeak-ng is not installed, so voice lines cannot be spoken offline;" >&2
  echo "ensure-espeak: run 'sudo apt-get install espeak-ng', or set ESPEAK_NG_PATH to an espeak-ng binary." >&2
fi
