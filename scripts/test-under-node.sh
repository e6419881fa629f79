#!/usr/bin/env bash
# Runs the test suite under another Node line: `bash scripts/test-under-node.sh 22` (or `pnpm test:node 22`).
#
# Node comes from the registry's `node` package (npx -y -p node@22). The catch is native addons (better-sqlite3 under
# @orphus/memory): the workspace install compiled them for the Node that ran it, and a module built for one Node line
# does not load in another (NODE_MODULE_VERSION). No prebuilt binary can be fetched on a machine with only the npm
# registry, and node-gyp's headers download (nodejs.org) is out of reach too; the registry's node-<os>-<arch> package
# does hold the headers (include/node). So, for each addon the workspace built:
#   1. build it once per Node ABI, from a copy of its folder, against those headers, kept beside the original build as
#      build.abi<N> (a later run reuses it);
#   2. for the test run, swap that build in, and put the original back on exit, whatever the tests did.
# The workspace's own build is never recompiled or modified, so every other step keeps using it.
# ORPHUS_SKIP_ADDON_BUILDS (names, space-separated) leaves out addons nothing loads on that Node line: @orphus/memory
# never loads better-sqlite3 on Node 24 (it runs on node:sqlite there), so .ci/run saves that build. Should something
# load it after all, it fails loudly (NODE_MODULE_VERSION), never silently.
# ORPHUS_ADDON_BUILD_ONLY=1 does step 1 alone and runs no test: .ci/run starts it early, in the background, so the
# compile (single-threaded, about 100 s for better-sqlite3) overlaps steps that leave a core free.
set -euo pipefail
cd "$(dirname "$0")/.."

major="${1:?usage: test-under-node.sh <major>, e.g. 22}"
shift
NODE_GYP_VERSION=12.4.0

node_bin="$(npx -y -p "node@$major" node -p process.execPath)"
version="$("$node_bin" -p process.version)"
abi="$("$node_bin" -p process.versions.modules)"
home_abi="$(node -p process.versions.modules)"
platform="$("$node_bin" -p '`${process.platform}-${process.arch}`')"
echo "Node $version (ABI $abi) at $node_bin; the workspace's native builds are for ABI $home_abi"

headers="node_modules/.cache/orphus-node-headers/$version"
if [ ! -f "$headers/include/node/node.h" ]; then
  scratch="$(mktemp -d)"
  (cd "$scratch" && npm pack "node-$platform@${version#v}" --silent >/dev/null)
  mkdir -p "$headers"
  tar xzf "$scratch"/node-*.tgz -C "$headers" --strip-components=1 package/include
  rm -rf "$scratch"
  echo "headers: node-$platform@${version#v} from the registry"
fi
headers="$(cd "$headers" && pwd)"

swapped=()
restore() {
  for dir in "${swapped[@]}"; do
    mv "$dir/build" "$dir/build.abi$abi"
    mv "$dir/build.abi$home_abi" "$dir/build"
  done
}
trap restore EXIT

for gyp in node_modules/.pnpm/*/node_modules/*/binding.gyp node_modules/.pnpm/*/node_modules/@*/*/binding.gyp; do
  [ -f "$gyp" ] || continue
  dir="$(cd "$(dirname "$gyp")" && pwd)"
  # An addon the workspace never built is not loaded by any test.
  [ -d "$dir/build/Release" ] || continue
  case " ${ORPHUS_SKIP_ADDON_BUILDS:-} " in *" $(basename "$dir") "*) echo "not building $(basename "$dir") for Node $version (ORPHUS_SKIP_ADDON_BUILDS)"; continue ;; esac
  if [ "$abi" = "$home_abi" ]; then continue; fi
  if [ ! -f "$dir/build.abi$abi/Release/$(basename "$(ls "$dir"/build/Release/*.node | head -1)")" ]; then
    # A copy, never the folder itself: its files are hard links into the pnpm store, shared by every checkout.
    copy="$(mktemp -d)/addon"
    cp -r "$dir" "$copy"
    rm -rf "$copy/build" "$copy"/build.abi*
    echo "building $(basename "$dir") for Node $version (once per ABI; kept as build.abi$abi)"
    # npm_config_nodedir, not only the flag: npx hands node-gyp npm's own setting (Debian's npm sets nodedir=/usr,
    # the headers of the Node that ran the install), and node-gyp lets that win over --nodedir.
    (cd "$copy" && npm_config_nodedir="$headers" npx -y "node-gyp@$NODE_GYP_VERSION" rebuild --release --jobs=max --target="${version#v}" --nodedir="$headers" --loglevel=warn)
    rm -rf "$dir/build.abi$abi"
    mv "$copy/build" "$dir/build.abi$abi"
    rm -rf "$(dirname "$copy")"
  fi
  [ "${ORPHUS_ADDON_BUILD_ONLY:-}" = "1" ] && continue
  mv "$dir/build" "$dir/build.abi$home_abi"
  mv "$dir/build.abi$abi" "$dir/build"
  swapped+=("$dir")
done
[ "${ORPHUS_ADDON_BUILD_ONLY:-}" = "1" ] && exit 0

# The test run's own child processes (brokers, bins, tsx) run on the same Node: process.execPath, or node on PATH.
PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run "$@"
