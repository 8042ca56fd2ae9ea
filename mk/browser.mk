# Browser runtime: the core compiled to WebAssembly, served to pages by a
# service worker + SharedWorker (see wasm/, web/, tests/browser/).
# Included from the top-level Makefile.
#
#   make wasm            bin/web/kubesandbox.wasm (+ .br, .gz)
#   make wasm-sizes      where its bytes go: code by package, data by region
#   make web-dist        bin/web/: wasm + sandbox.js, sw.js (+ sw-cache.js), worker.js (+ worker-db.js, worker-cel.js), wasm_exec.js
#   make run ADDR=…      serve playground/ at / and bin/web/ at /web/
#   make test-browser    Playwright tests in Debian's headless Chromium (node --test)
#   make bench-browser   size / start-up / latency / memory tables, the core
#                        against bin/web-baseline (wasm/cmd/baseline, the
#                        smallest Go program behind the same JS), then
#                        the kubectl numbers (make bench-kubectl alone),
#                        then the CEL engine's (make bench-cel alone)

GO ?= go
BIN ?= bin
ADDR ?= 127.0.0.1:8080
WEB_DIST := $(BIN)/web
WASM := $(WEB_DIST)/kubesandbox.wasm
CHROMIUM ?= /usr/bin/chromium

WEB_BASELINE := $(BIN)/web-baseline

# How the shipped wasm (and the bench baseline, so that start-up ratios
# compare programs, not compilers) is compiled. No inlining: 2.52 → 2.19 MB
# brotli when it was chosen, and 2,529,283 → 2,491,516 B now against
# keeping it in the request path's packages, whose speed could not be told
# apart from this build's (docs/bench.md "Build flags").
# WASM_GCFLAGS= (empty) builds with Go's defaults.
MODULE := github.com/kubesandbox/kubesandbox
WASM_GCFLAGS ?= -gcflags=all=-l
WASM_BUILD = GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags='-s -w'
# After the link: the data section as one segment instead of the linker's
# 100,000 small ones — the same memory, 108 KB less brotli (2,547,879 →
# 2,439,478 B; web/tools/wasmpack.mjs, docs/bench.md "Where the bytes go").
# WASM_PACK=true keeps the linker's layout.
WASM_PACK ?= node web/tools/wasmpack.mjs

.PHONY: wasm wasm-sizes web-dist web-baseline static-server run test-browser bench-browser bench-scale bench-native-start bench-kubectl browser-deps

# The core's wasm builds against structured-merge-diff with one file
# replaced (wasm/smdlazy: no YAML parsed at package init) and go.yaml.in/yaml/v2
# with its regexps compiled on first use, through -modfile (go build -overlay
# may not touch the module cache), and the standard library's crypto/hpke
# with its KEMs built on first use, through -overlay (the ecdh curves leave
# the binary: docs/bench.md "Start-up: nothing compiled that the first
# answer does not run"). The baseline stays a stock Go program.
SMD_SRC := $(BIN)/smd-src

wasm:
	@mkdir -p $(WEB_DIST)
	sh wasm/smdlazy/prepare.sh $(SMD_SRC)
	$(WASM_BUILD) -modfile=$(SMD_SRC)/wasm.mod -overlay=$(SMD_SRC)/_std/overlay.json -o $(WASM) ./wasm
	$(WASM_PACK) $(WASM)
	node web/tools/compress.mjs $(WASM)

# Where the core's wasm bytes go (docs/bench.md "Where the bytes go"): the
# shipped build's flags without -s -w (the name section names every
# function), code by package, then the data section by region.
# WASMSIZE_QUALITY=5 for a faster, rougher ranking.
wasm-sizes:
	@mkdir -p $(BIN)
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -o $(BIN)/kubesandbox-named.wasm ./wasm
	node web/tools/wasmsize.mjs $(BIN)/kubesandbox-named.wasm --top 30
	$(WASM_PACK) $(BIN)/kubesandbox-named.wasm
	node web/tools/wasmdata.mjs $(BIN)/kubesandbox-named.wasm

web-dist: wasm
	cp web/sandbox.js web/sw.js web/sw-cache.js web/worker.js web/worker-db.js web/worker-cel.js $(WEB_DIST)/
	cp core/builtin/descriptions.json $(WEB_DIST)/kubesandbox-docs.json
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB_DIST)/wasm_exec.js

web-baseline:
	@mkdir -p $(WEB_BASELINE)
	$(WASM_BUILD) -o $(WEB_BASELINE)/kubesandbox.wasm ./wasm/cmd/baseline
	$(WASM_PACK) $(WEB_BASELINE)/kubesandbox.wasm
	node web/tools/compress.mjs $(WEB_BASELINE)/kubesandbox.wasm
	cp web/sandbox.js web/sw.js web/sw-cache.js web/worker.js web/worker-db.js web/worker-cel.js $(WEB_BASELINE)/
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB_BASELINE)/wasm_exec.js

static-server:
	$(GO) build -o $(BIN)/static ./wasm/cmd/static

run: web-dist static-server
	@$(BIN)/static -addr $(ADDR) -root playground -mount /web/=$(WEB_DIST)

# Tooling for the browser tests: playwright-core (pinned in package-lock.json)
# and Debian's chromium (never a downloaded browser build).
browser-deps:
	@test -d node_modules/playwright-core || npm ci --no-audit --no-fund
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

test-browser: web-dist static-server browser-deps
	CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/browser/

bench-browser: web-dist web-baseline static-server browser-deps kubectl-native build playground-build
	CHROMIUM=$(CHROMIUM) node tests/browser/bench.mjs
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-scale.mjs
	$(MAKE) bench-native-start
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-kubectl.mjs
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-cel.mjs

# start-up at scale alone (tests/browser/bench-scale.mjs): a revisit of a
# sandbox of BENCH_OBJECTS (10,000) stored ConfigMaps against an empty one,
# a docs page of 5 <kube-example>s against one
bench-scale: web-dist static-server browser-deps playground-build
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-scale.mjs

# the native server's start-up (tests/startnative): exec → first 200 on
# /version and on a list, against a trivial Go net/http server binary
bench-native-start: build
	$(GO) build -o $(BIN)/startnative ./tests/startnative
	$(BIN)/startnative -bin $(BIN)/kubesandbox -rounds 20 $(if $(BENCH_BEFORE),-before $(BENCH_BEFORE))

# the kubectl part of bench-browser alone (tests/browser/bench-kubectl.mjs)
bench-kubectl: web-dist static-server browser-deps kubectl-native build playground-build
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-kubectl.mjs
