#!/usr/bin/env bash
# Installs the Debian packages the build, the window and the e2e tests need (strace: the adversarial
# suite traces lint's syscalls) — only those missing.
# Usage: scripts/install-system-deps.sh [build|e2e|editors]...
set -euo pipefail

want=()
for group in "${@:-build}"; do
  case "$group" in
    build) want+=(build-essential pkg-config libssl-dev libwebkit2gtk-4.1-dev) ;;
    e2e) want+=(xvfb xauth webkit2gtk-driver strace xdotool) ;;
    # The language server's test drives a real editor.
    editors) want+=(neovim) ;;
    *) echo "install-system-deps: unknown group '$group' (use build, e2e or editors)" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${want[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
