# Skillforge — the two commands a newcomer needs are `make run` and `make test` (see README.md).

WORKSPACE ?= skills
SHELL := /bin/bash
# The app as cargo builds it: honours CARGO_TARGET_DIR like every test and benchmark.
APP ?= $(or $(CARGO_TARGET_DIR),target)/debug/skillforge-app

.PHONY: run test deps ui app cli fidelity e2e bench bench-app dist fmt clean

## run: install what is missing, build the UI and the app, open the window on $(WORKSPACE)
run: deps app
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	  echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open."; \
	  echo "On a machine without a screen, run it under a virtual display:"; \
	  echo "  xvfb-run -a -s '-screen 0 1280x800x24' $(APP) --workspace $(WORKSPACE)"; \
	  exit 1; \
	fi
	$(APP) --workspace "$(WORKSPACE)"

## test: install what is missing, then fmt, clippy, Rust tests, fuzz targets build, generated-files drift, svelte-check, vitest, fidelity, e2e
test: deps ui
	scripts/install-system-deps.sh e2e
	scripts/test-all.sh

deps:
	scripts/install-system-deps.sh build
	scripts/ensure-node.sh ui tests/e2e editors/vscode

## ui: the front end, built into ui/dist (the app embeds it at compile time)
ui: deps
	npm --prefix ui run --silent build

app: ui
	cargo build -p skillforge-app --locked

cli:
	cargo build -p skillforge-cli --locked

## fidelity: compare the engine with the real peer libraries
fidelity:
	tests/fidelity/all.sh

## e2e: drive the real window under Xvfb through WebDriver
e2e: app
	scripts/install-system-deps.sh e2e
	tests/e2e/run.sh

## bench: speed ratios against baselines measured in the same run
bench:
	scripts/ensure-peers.sh
	bench/run.sh
	bench/simulate.sh
	bench/lint.sh
	bench/lint-repo.sh
	bench/lint-output.sh
	bench/preview.sh
	bench/lsp.sh

## bench-app: timings in the real window (keystroke to squiggles, previews over 5,000 skills); slow
bench-app: app
	scripts/install-system-deps.sh e2e
	E2E_SPEED=1 E2E_PREVIEWS_SPEED=1 E2E_SPECS="tests/e2e/specs/speed.test.mjs tests/e2e/specs/previews-speed.test.mjs" tests/e2e/run.sh

## dist: the release CLI, the app's .deb and the VS Code extension's .vsix in dist/, with SHA-256 sums
dist:
	scripts/dist.sh

fmt:
	cargo fmt --all

clean:
	cargo clean
	rm -rf ui/dist ui/node_modules tests/e2e/node_modules editors/vscode/node_modules editors/vscode/out packaging/node_modules dist .venv-peers .venv-tools
