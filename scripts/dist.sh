#!/usr/bin/env bash
# `make dist`: the release CLI, the app's .deb (Tauri's bundler) and the VS Code extension's .vsix into
# dist/, with SHA256SUMS. The .deb is checked as far as this machine allows: its control fields and file
# list (dpkg-deb --info/--contents), and the app binary extracted from it runs (--version).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dist="$repo/dist"
cd "$repo"
scripts/install-system-deps.sh build
scripts/ensure-node.sh ui editors/vscode packaging
rm -rf "$dist"
mkdir -p "$dist"

version=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "skillforge-cli"))')
arch=$(uname -m)

echo "==> the CLI"
source bench/lib.sh
cli=$(built_executable --release -p skillforge-cli --bin skillforge)
cp "$cli" "$dist/skillforge-$version-linux-$arch"

echo "==> the app's .deb"
npm --prefix ui run --silent build
(cd src-tauri && ../packaging/node_modules/.bin/tauri build --bundles deb --ci \
  --config '{"bundle": {"active": true, "shortDescription": "Author and check Agent Skills", "category": "Development"}}')
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
deb=$(ls -t "$target_dir"/release/bundle/deb/*.deb | head -1)
cp "$deb" "$dist/"
deb="$dist/$(basename "$deb")"
dpkg-deb --info "$deb"
contents=$(dpkg-deb --contents "$deb")
echo "$contents"
grep -Eq "(^|[ /])usr/bin/skillforge-app$" <<<"$contents" || { echo "the .deb holds no usr/bin/skillforge-app" >&2; exit 1; }
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$deb" "$unpacked"
"$unpacked/usr/bin/skillforge-app" --version

echo "==> the VS Code extension"
npm --prefix editors/vscode run --silent build
(cd editors/vscode && npx vsce package --out "$dist/skillforge-vscode-$version.vsix")

(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "==> dist/"
cat "$dist/SHA256SUMS"
