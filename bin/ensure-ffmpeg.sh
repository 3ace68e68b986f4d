#!/bin/sh
# npm's postinstall: makes sure Debian's ffmpeg and ffprobe (the 5.1 branch of Debian 12, which gets
# Debian's security updates) are installed, since every upload is decoded by them. npm has no
# maintained build that carries the binaries in its tarball with the filters we need (see README).
# Installs with apt-get when it can (root on Debian); otherwise says what to do and leaves npm
# install to succeed: the server refuses to start without the tools and says why.
set -eu

DEBIAN_PACKAGE=ffmpeg
BRANCH='7:5.1.*'   # Debian's epoch 7, upstream 5.1.x: bookworm's security-maintained branch

installed_version() {
  dpkg-query -W -f '${Version}' "$DEBIAN_PACKAGE" 2>/dev/null || true
}

if [ -n "${FFMPEG_PATH:-}" ] && [ -n "${FFPROBE_PATH:-}" ]; then
  exit 0 # the caller brings its own build; binaries.ts checks it at start
fi

case "$(installed_version)" in
  $BRANCH) exit 0 ;;
esac

if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "ensure-ffmpeg: Debian's ffmpeg 5.1 is not installed; run 'sudo apt-get install ffmpeg' (Debian 12)," >&2
  echo "ensure-ffmpeg: or set FFMPEG_PATH and FFPROBE_PATH to a maintained build (5.1 or newer)." >&2
  exit 0
fi

# A fresh machine may have no package lists yet.
if ! apt-cache policy "$DEBIAN_PACKAGE" 2>/dev/null | grep -q 'Candidate: 7:5\.1\.'; then
  apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$DEBIAN_PACKAGE" >/dev/null

case "$(installed_version)" in
  $BRANCH) echo "ensure-ffmpeg: installed Debian's ffmpeg $(installed_version)" ;;
  *) echo "ensure-ffmpeg: apt-get installed ffmpeg $(installed_version), not the 5.1 branch this project expects" >&2; exit 1 ;;
esac
