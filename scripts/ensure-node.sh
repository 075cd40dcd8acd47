#!/usr/bin/env bash
# Checks for Node.js 20+ and npm, installing Debian's when missing, then installs a package folder's
# dependencies with `npm ci` unless its node_modules already matches package-lock.json.
# Usage: scripts/ensure-node.sh DIR...
set -euo pipefail

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "Installing Node.js and npm from Debian's packages"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "Node.js $(node --version) is too old: the UI toolchain (Vite 8, Vitest 4) needs Node.js 20 or newer." >&2
  exit 2
fi

for dir in "$@"; do
  lock="$dir/package-lock.json"
  stamp="$dir/node_modules/.package-lock.json"
  # npm writes node_modules/.package-lock.json on every install: newer than the lock means up to date.
  if [ -f "$stamp" ] && [ "$stamp" -nt "$lock" ]; then
    continue
  fi
  echo "Installing npm packages in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done
