#!/usr/bin/env bash
# Installs the real Codex, Claude Code, GitHub Copilot CLI, Gemini CLI and OpenCode clients, pinned, into a cache folder
# outside the repository, only when missing, and prints their entry points as shell assignments:
#
#   CODEX_BIN=/…/codex
#   CLAUDE_BIN=/…/claude
#   COPILOT_BIN=/…/copilot
#   GEMINI_JS=/…/node_modules/@google/gemini-cli/bundle/gemini.js   (run with node)
#   OPENCODE_BIN=/…/opencode
#
# so a caller can `eval "$(scripts/ensure-clients.sh)"`. Progress goes to stderr.
#
# Cache: $SKILLFORGE_CLIENTS_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/skillforge/clients; each client gets its own
# npm prefix there, named after the package and its version (codex@0.171.0, claude-code@2.1.332, copilot@1.0.102,
# gemini-cli@0.61.0, opencode@1.18.33), so another pin installs beside it instead of over it. A client counts as installed when its
# package.json carries the pinned version and its native binary exists and answers `--version` with that version;
# otherwise it is (re)installed. The versions can be overridden with CODEX_VERSION / CLAUDE_CODE_VERSION /
# COPILOT_VERSION / GEMINI_CLI_VERSION / OPENCODE_VERSION (the fidelity suite pins the defaults).
# Copilot's native binary unpacks its 235 MB package on first run into $XDG_CACHE_HOME/copilot/pkg; every run here
# (and every run of tests/fidelity/copilot_client.py) points XDG_CACHE_HOME at PREFIX/.xdg-cache, beside the
# install and outside the repository, so it is unpacked once and reused.
# Gemini CLI is JavaScript: its `bundle/gemini.js` is run with node (scripts/ensure-node.sh).
# OpenCode's native binary is a Bun executable in `opencode-<os>-<arch>`; npm warns that the `opencode-ai`
# postinstall did not run, which nothing here needs (the binary is used directly).
# Claude Code declares Node 22 in its package.json; npm only warns on Node 20 and the native binary runs without Node.
set -euo pipefail

CODEX_VERSION="${CODEX_VERSION:-0.171.0}"
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
COPILOT_VERSION="${COPILOT_VERSION:-1.0.102}"
GEMINI_CLI_VERSION="${GEMINI_CLI_VERSION:-0.61.0}"
OPENCODE_VERSION="${OPENCODE_VERSION:-1.18.33}"
cache="${SKILLFORGE_CLIENTS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/skillforge/clients}"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$(realpath -m "$cache")/" in
  "$repo"/*)
    echo "ensure-clients: the cache folder $cache is inside the repository; choose one outside it" >&2
    exit 2
    ;;
esac

# Copilot's loader picks its platform package by C library (`@github/copilot-linux-x64` or `-linuxmusl-x64`).
libc="linux"
if ldd --version 2>&1 | grep -qi musl; then libc="linuxmusl"; fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)
    copilot_rel="node_modules/@github/copilot-$libc-x64/copilot"
    codex_rel="node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
    claude_rel="node_modules/@anthropic-ai/claude-code-linux-x64/claude"
    opencode_rel="node_modules/opencode-linux-x64/bin/opencode"
    ;;
  Linux-aarch64)
    copilot_rel="node_modules/@github/copilot-$libc-arm64/copilot"
    codex_rel="node_modules/@openai/codex-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/codex"
    claude_rel="node_modules/@anthropic-ai/claude-code-linux-arm64/claude"
    opencode_rel="node_modules/opencode-linux-arm64/bin/opencode"
    ;;
  *)
    echo "ensure-clients: no native client binaries known for $(uname -s)-$(uname -m)" >&2
    exit 2
    ;;
esac

# installed_ok PREFIX PACKAGE VERSION BINARY: the package.json version, the binary, and its --version all agree.
installed_ok() {
  local prefix="$1" package="$2" version="$3" binary="$4" found out
  found="$(sed -n 's/^  "version": "\(.*\)",\{0,1\}$/\1/p' "$prefix/node_modules/$package/package.json" 2>/dev/null | head -n1)"
  [[ "$found" == "$version" ]] || return 1
  [[ -x "$binary" ]] || return 1
  if [[ "$binary" == *.js ]]; then
    # The bundle runs on node; it relaunches itself, which the variable turns off for this check.
    command -v node >/dev/null 2>&1 || return 1
    out="$(HOME="$prefix/.probe-home" GEMINI_CLI_NO_RELAUNCH=1 timeout 60 node "$binary" --version </dev/null 2>/dev/null)" || return 1
  else
    out="$(HOME="$prefix/.probe-home" XDG_CACHE_HOME="$prefix/.xdg-cache" COPILOT_AUTO_UPDATE=false \
      timeout 120 "$binary" --version </dev/null 2>/dev/null)" || return 1
  fi
  [[ "$out" == *"$version"* ]]
}

# ensure NAME PACKAGE VERSION RELATIVE_BINARY: prints the binary's absolute path.
ensure() {
  local name="$1" package="$2" version="$3" rel="$4"
  local prefix="$cache/$name@$version"
  local binary="$prefix/$rel"
  if ! installed_ok "$prefix" "$package" "$version" "$binary"; then
    { command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1; } || "$repo/scripts/ensure-node.sh" >&2
    echo "ensure-clients: installing $package@$version into $prefix" >&2
    mkdir -p "$prefix" "$prefix/.probe-home"
    # A package.json of its own keeps npm from walking up to an unrelated project.
    [[ -f "$prefix/package.json" ]] || printf '{"name":"skillforge-client-%s","private":true}\n' "$name" >"$prefix/package.json"
    npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
      --include=optional "$package@$version" >&2
    if ! installed_ok "$prefix" "$package" "$version" "$binary"; then
      echo "ensure-clients: $package@$version installed, but $binary is missing or does not answer --version $version" >&2
      exit 1
    fi
  fi
  printf '%s\n' "$binary"
}

codex_bin="$(ensure codex @openai/codex "$CODEX_VERSION" "$codex_rel")"
claude_bin="$(ensure claude-code @anthropic-ai/claude-code "$CLAUDE_CODE_VERSION" "$claude_rel")"
copilot_bin="$(ensure copilot @github/copilot "$COPILOT_VERSION" "$copilot_rel")"
gemini_js="$(ensure gemini-cli @google/gemini-cli "$GEMINI_CLI_VERSION" node_modules/@google/gemini-cli/bundle/gemini.js)"
opencode_bin="$(ensure opencode opencode-ai "$OPENCODE_VERSION" "$opencode_rel")"
printf 'CODEX_BIN=%q\nCLAUDE_BIN=%q\nCOPILOT_BIN=%q\nGEMINI_JS=%q\nOPENCODE_BIN=%q\n' "$codex_bin" "$claude_bin" "$copilot_bin" "$gemini_js" "$opencode_bin"
