# Every target sets up what it needs: a fresh machine only needs python3 (3.11+).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The bots' benchmark anchor installed (see its rule below); defined before the rules that need it.
ANCHOR := $(VENV)/.anchor
# The rules engine compiled (its rule below)
ENGINE := $(VENV)/.engine
ENGINE_SOURCES := $(wildcard services/rules/*.py services/rules/rulesets/*.py) tools/build_engine.py \
	services/bots/greedy.py services/bots/worlds.py services/bots/reading.py
PROTO_SRC := $(wildcard proto/maumau/v1/*.proto)
PROTO_OUT := $(PROTO_SRC:.proto=_pb2.py)

.PHONY: setup proto run test lint browser prometheus bench bench-peers bench-bots clean client lighthouse

# The web client's libraries and build tools (package.json, pinned by package-lock.json): `npm ci`
# when node_modules is missing or older than the lock (without the devDependencies: Lighthouse is
# `make lighthouse`'s alone), then each library's ES module copied under /static/vendor/
# (generated, git-ignored; docs/client.md).
NODE_STAMP := node_modules/.installed
VENDOR := gateway/static/vendor
VENDORED := $(VENDOR)/zzfx.js $(VENDOR)/cards/KS.svg
# The client's one build (gateway/static/build.mjs, esbuild): bundled, split, minified, hashed and
# precompressed into gateway/static/dist/ (generated, git-ignored), again whenever a source changed.
CLIENT := gateway/static/dist/index.html
CLIENT_SOURCES := $(shell find gateway/static \( -path gateway/static/dist -o -path gateway/static/tests \
	-o -path gateway/static/aprenda \) -prune -o -type f \( -name '*.js' -o -name '*.mjs' -o -name '*.css' \
	-o -name '*.html' -o -name '*.svg' -o -name '*.png' \) -print)

setup: $(STAMP) $(PROTO_OUT) $(ENGINE) $(VENDORED) $(CLIENT)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# The rules engine's hot modules (and the strong bot's rollouts: greedy, worlds, reading) compiled by mypyc (the dev extra's pinned mypy) into extension modules beside
# their sources (tools/build_engine.py; git-ignored), again whenever one changed; gcc and Python's headers are
# installed from Debian when missing. Where nothing can be compiled the engine runs as Python, as it does with
# MAUMAU_PURE=1 (services/rules/__init__.py; docs/performance.md).
$(ENGINE): $(ENGINE_SOURCES) $(STAMP)
	@command -v gcc >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y gcc) || true
	@$(BIN)/python -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(sysconfig.get_path("include") + "/Python.h"))' \
		|| (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-dev) || true
	$(BIN)/python -m tools.build_engine || ($(BIN)/python -m tools.build_engine --clean \
		&& echo "the rules engine was not compiled: it runs as Python")
	touch $@

# Generated code is never edited or committed: it is rebuilt from proto/ here.
$(PROTO_OUT) &: $(PROTO_SRC) $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -Iproto --python_out=proto --pyi_out=proto \
		--grpc_python_out=proto $(PROTO_SRC)

proto: $(PROTO_OUT)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm)
	npm ci --omit=dev --no-audit --no-fund --loglevel=error
	touch $@

$(VENDOR)/zzfx.js: $(NODE_STAMP)
	mkdir -p $(VENDOR)
	{ echo '// @ts-nocheck: a library of npm, not ours to type-check (make lint)'; cat node_modules/zzfx/ZzFX.js; } > $@

# The court cards' figures (J, Q, K of each suit), written as SVG files from @letele/playing-cards' components.
$(VENDOR)/cards/KS.svg: $(NODE_STAMP) tools/court-figures.mjs
	node tools/court-figures.mjs node_modules/@letele/playing-cards/dist/index.esm.js $(VENDOR)/cards

$(CLIENT): $(NODE_STAMP) $(VENDORED) $(CLIENT_SOURCES)
	node gateway/static/build.mjs

client: $(CLIENT)

run: setup
	$(BIN)/maumau up

# The client too: TypeScript's checkJs over its JSDoc (tsconfig.json) and ESLint (eslint.config.mjs).
lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy services gateway tools cli
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/eslint gateway/static tools

# Chromium for the e2e tests, with the colour emoji font players' phones have (the reactions, 🔊, 🤖):
# without it a screenshot shows empty boxes where a player sees pictures.
browser:
	@test -x /usr/bin/chromium || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)
	@test -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-color-emoji)

# The metrics tests run Debian's Prometheus server (tests/prometheus.py); installed only when it is missing.
prometheus:
	@test -x /usr/bin/prometheus || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus)

test: lint browser prometheus $(ANCHOR)
	node --test gateway/static/tests/
	$(BIN)/pytest -q

# The image (deploy/Containerfile) built on a machine that reaches no container registry: its base
# made from Debian's packages by deploy/base-image.sh (only when missing or its recipe changed), then
# the project built on it (docs/operations.md, "The image, built here"). podman, runc and mmdebstrap
# are installed from Debian when missing; podman runs with the project's settings
# (.ci/containers.conf: runc, cgroupfs, lowered ulimits) unless CONTAINERS_CONF names others. The
# build's pip trusts what this machine trusts (HOST_CA, mounted over the base's bundle during the
# build only: a TLS-inspecting proxy's CA never lands in the image).
.PHONY: image drill
IMAGE ?= localhost/maumau-online:dev
BASE_IMAGE ?= localhost/maumau-base:bookworm
CONTAINERS_CONF ?= $(CURDIR)/.ci/containers.conf
HOST_CA ?= /etc/ssl/certs/ca-certificates.crt

image: setup
	@command -v podman >/dev/null && command -v runc >/dev/null && command -v mmdebstrap >/dev/null \
		|| (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y podman runc mmdebstrap)
	CONTAINERS_CONF=$(CONTAINERS_CONF) deploy/base-image.sh $(BASE_IMAGE)
	CONTAINERS_CONF=$(CONTAINERS_CONF) podman build -f deploy/Containerfile \
		--build-arg PYTHON_IMAGE=$(BASE_IMAGE) \
		$(if $(wildcard $(HOST_CA)),--volume $(HOST_CA):/etc/ssl/certs/ca-certificates.crt:ro) \
		-t $(IMAGE) .
	@CONTAINERS_CONF=$(CONTAINERS_CONF) podman image inspect --format '$(IMAGE): {{.Size}} bytes' $(IMAGE)

# The drills: tests that build and run real containers, back up and restore a platform under load
# (tests/test_restore_drill.py) or replace every replica of it under load (tests/test_rolling_upgrade.py),
# minutes long, so kept out of `make test`
# (pyproject.toml's addopts deselect the `drill` marker); .ci/run runs both.
drill: setup
	$(BIN)/pytest -q -m drill

BENCH_SECONDS ?= 10
bench: setup .venv-bench/.installed
	$(BIN)/maumau bench rules --ruleset colors108 --players 2 --seconds $(BENCH_SECONDS) --seed 1
	.venv-bench/bin/python bench/peers.py --seconds $(BENCH_SECONDS) --seed 1 --peer rlcard-uno
	$(BIN)/maumau bench rules --ruleset classic52 --players 4 --seconds $(BENCH_SECONDS) --seed 1
	$(BIN)/maumau bench rules --ruleset crazy8 --players 4 --seconds $(BENCH_SECONDS) --seed 1
	.venv-bench/bin/python bench/peers.py --seconds $(BENCH_SECONDS) --seed 1 --peer openspiel-crazy-eights

# The peers are an optional extra in their own virtualenv, never a runtime dependency.
.venv-bench/.installed: bench/requirements.txt
	$(PYTHON) -m venv .venv-bench
	.venv-bench/bin/pip install -q -r bench/requirements.txt
	touch $@

# The bots' benchmark anchor, OpenSpiel's ISMCTS, is the project's `anchor` extra, installed into .venv
# (with numpy and scipy: 230 MB installed, seconds from pip's cache): `maumau bench bots --anchor ismcts`
# and its tests need it.
$(ANCHOR): pyproject.toml $(STAMP)
	$(BIN)/pip install -q -e '.[dev,anchor]'
	touch $@

# A small run of the bots' benchmark with the anchor and the oracle; docs/bots.md has the full ones.
BOT_GAMES ?= 200
BOT_MS ?= 50
bench-bots: setup $(ANCHOR)
	$(BIN)/maumau bench bots --ruleset classic52 --players 4 --games $(BOT_GAMES) --ms $(BOT_MS) \
		--opponents medium --anchor ismcts --oracle --workers 2

# Lighthouse 12 (a devDependency: 13 needs node 22) on the lobby and on a started table opened from its
# invitation, in Debian's Chromium with the mobile preset's simulated throttling (bench/lighthouse.py):
# the scores, LCP, CLS, bytes and requests printed, never asserted (docs/performance.md).
LIGHTHOUSE := node_modules/.lighthouse
$(LIGHTHOUSE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP) $@

lighthouse: setup browser $(LIGHTHOUSE)
	$(BIN)/python bench/lighthouse.py

clean:
	-$(PYTHON) -m tools.build_engine --clean
	rm -rf $(VENV) .venv-bench proto/maumau/v1/*_pb2*.py proto/maumau/v1/*_pb2*.pyi node_modules $(VENDOR) \
		gateway/static/dist
