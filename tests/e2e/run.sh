#!/usr/bin/env bash
# Drives the real Skillforge window through tauri-driver and WebKitWebDriver.
#
# Needs the app built with the UI embedded (skillforge-app in cargo's target directory, debug profile, or
# SKILLFORGE_APP) and /usr/bin/WebKitWebDriver (Debian: webkit2gtk-driver). Installs tauri-driver, the npm
# packages and the peer libraries (.venv-peers) when missing. The specs take expected values from the CLI
# (SKILLFORGE_BIN, else built here from the current sources) and from the peers.
# Without a DISPLAY it starts its own Xvfb. Screenshots go to target/e2e-artifacts/.
# Prints `e2e: N passed, N failed` and exits non-zero when anything failed. E2E_SPECS (paths, space-separated)
# runs only those spec files.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
artifacts=$repo/target/e2e-artifacts
native_driver=/usr/bin/WebKitWebDriver
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

die() {
  echo "e2e: $*" >&2
  echo "e2e: 0 passed, 1 failed"
  exit 1
}

# Cargo's target directory as cargo itself resolves it: CARGO_TARGET_DIR, a config's build.target-dir, or target/.
# (A path that JSON must escape, with a quote or a backslash, is not read, and the check below says so.)
metadata=$(cd "$repo" && cargo metadata --format-version 1 --no-deps) || die "cargo metadata failed"
target_dir=$(printf '%s' "$metadata" | sed -n 's/.*"target_directory":"\([^"\\]*\)".*/\1/p')
[ -n "$target_dir" ] || die "cargo metadata did not name a target directory"
app=${SKILLFORGE_APP:-$target_dir/debug/skillforge-app}
cli=${SKILLFORGE_BIN:-$target_dir/debug/skillforge}

# Polls until `$@` succeeds, at most $1 tenths of a second.
wait_for() {
  local tenths=$1; shift
  local tries=0
  until "$@"; do
    tries=$((tries + 1))
    [ "$tries" -lt "$tenths" ] || return 1
    sleep 0.1
  done
}

port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

[ -x "$app" ] || die "$app is missing; build the UI and the app first (npm --prefix ui run build && cargo build -p skillforge-app)"
[ -x "$native_driver" ] || die "$native_driver is missing; install it with: apt-get install --no-install-recommends webkit2gtk-driver"

if ! command -v tauri-driver >/dev/null 2>&1; then
  echo "Installing tauri-driver"
  cargo install tauri-driver --version "^2" --locked --quiet
fi
"$repo/scripts/ensure-node.sh" "$here"
"$repo/scripts/ensure-peers.sh"
if [ -z "${SKILLFORGE_BIN:-}" ]; then
  # The CLI answers for the engine in the specs: build it from the sources the app was built from (a no-op when
  # it is up to date).
  (cd "$repo" && cargo build --quiet --locked -p skillforge-cli) || die "could not build the CLI (cargo build -p skillforge-cli)"
fi
[ -x "$cli" ] || die "$cli is missing; build it with cargo build -p skillforge-cli, or point SKILLFORGE_BIN at it"

xvfb_pid="" driver_pid=""
cleanup() {
  local status=$?
  if [ -n "$driver_pid" ]; then
    # tauri-driver stops WebKitWebDriver on SIGTERM; its children are stopped by PID in case it could not.
    local children
    children=$(pgrep -P "$driver_pid" || true)
    kill "$driver_pid" 2>/dev/null || true
    wait "$driver_pid" 2>/dev/null || true
    for child in $children; do kill "$child" 2>/dev/null || true; done
  fi
  if [ -n "$xvfb_pid" ]; then
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$artifacts"
rm -f "$artifacts"/*.png

if [ -z "${DISPLAY:-}" ]; then
  command -v Xvfb >/dev/null 2>&1 || die "Xvfb is missing; install it with: apt-get install --no-install-recommends xvfb xauth"
  # Take the first display number nobody holds; if another Xvfb wins the race for it, try the next one.
  for display in $(seq 90 140); do
    [ -e "/tmp/.X$display-lock" ] || [ -e "/tmp/.X11-unix/X$display" ] && continue
    Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp >"$artifacts/xvfb.log" 2>&1 &
    xvfb_pid=$!
    if wait_for 100 test -e "/tmp/.X11-unix/X$display" && kill -0 "$xvfb_pid" 2>/dev/null; then
      export DISPLAY=":$display"
      break
    fi
    kill "$xvfb_pid" 2>/dev/null || true
    wait "$xvfb_pid" 2>/dev/null || true
    xvfb_pid=""
  done
  [ -n "$xvfb_pid" ] || die "could not start Xvfb (see $artifacts/xvfb.log)"
fi

# 4444/4445 unless another run holds them.
port=${E2E_WEBDRIVER_PORT:-4444}
while port_in_use "$port" || port_in_use "$((port + 1))"; do port=$((port + 2)); done
tauri-driver --port "$port" --native-port "$((port + 1))" --native-driver "$native_driver" \
  >"$artifacts/tauri-driver.log" 2>&1 &
driver_pid=$!
wait_for 200 port_in_use "$port" || die "tauri-driver did not listen on port $port (see $artifacts/tauri-driver.log)"

export E2E_WEBDRIVER_PORT=$port E2E_DRIVER_PID=$driver_pid E2E_APP=$app E2E_CLI=$cli E2E_REPO=$repo E2E_ARTIFACTS=$artifacts
export E2E_PEERS_PYTHON=$repo/.venv-peers/bin/python
tap=$artifacts/results.tap
set +e
node --test --test-concurrency=1 \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" \
  ${E2E_SPECS:-"$here"/specs/*.test.mjs}
node_status=$?
set -e

count() { sed -n "s/^# $1 \([0-9][0-9]*\)$/\1/p" "$tap" | tail -n 1; }
passed=$(count pass) failed=$(count fail) cancelled=$(count cancelled)
passed=${passed:-0} failed=$((${failed:-0} + ${cancelled:-0}))
if [ "$node_status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$failed" -ne 0 ] && [ -s "$artifacts/tauri-driver.log" ]; then
  # The app's and the drivers' own output (a panic, a web process crash) says what the specs could not.
  echo "The last lines of $artifacts/tauri-driver.log:"
  tail -n 40 "$artifacts/tauri-driver.log" | sed 's/^/  | /'
fi
echo "Screenshots and logs: $artifacts"
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
