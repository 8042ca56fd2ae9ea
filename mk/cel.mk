# The CEL engine (cel/, a module of its own with the real k8s.io code) as
# WebAssembly: cel.wasm, which web/worker.js loads into the core's worker
# the first time a CRD validation rule or a ValidatingAdmissionPolicy needs
# it (wasm/cel.go). Included from the top-level Makefile.
#
#   make cel-wasm     bin/web/cel.wasm (+ .br, .gz, .sha256)
#   make bench-cel    cel.wasm's size, load time and the first write under a
#                     rule (tests/browser/bench-cel.mjs; part of bench-browser)
#
# A file target: `make web-dist` relinks it only when cel/ (or the core's
# core/cel contract it serves) changed. Brotli 9, as kubectl.wasm: on tens
# of MB, 11 takes minutes of CPU for a percent.

GO ?= go
BIN ?= bin
WEB_DIST ?= $(BIN)/web
CEL_WASM := $(WEB_DIST)/cel.wasm
CEL_INPUTS := cel/go.mod cel/go.sum $(filter-out %_test.go,$(shell find cel -name '*.go' 2>/dev/null)) \
	$(filter-out %_test.go,$(wildcard core/cel/*.go))

.PHONY: cel-wasm bench-cel

cel-wasm: $(CEL_WASM)

$(CEL_WASM): $(CEL_INPUTS)
	@mkdir -p $(WEB_DIST)
	cd cel && GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o ../$@ ./cmd/wasm
	node web/tools/compress.mjs $@ --brotli-quality=9

web-dist: cel-wasm

bench-cel: web-dist static-server browser-deps
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-cel.mjs
