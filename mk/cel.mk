# The CEL engine (cel/, a module of its own with the real k8s.io code) as
# WebAssembly, in two parts that web/worker.js loads into the core's worker
# the first time the core calls one of their methods (wasm/cel.go):
# cel-crd.wasm (CRD validation rules) and cel-policy.wasm
# (ValidatingAdmissionPolicies; -tags celpolicy). Included from the
# top-level Makefile.
#
#   make cel-wasm          bin/web/cel-crd.wasm, cel-policy.wasm (+ .br, .gz, .sha256)
#   make bench-cel         their sizes, load times and the first write under a
#                          rule (tests/browser/bench-cel.mjs; part of bench-browser)
#   make bench-cel-native  rules natively: objects/s against kube-apiserver
#                          (cel/cmd/celbench; KUBE=http://127.0.0.1:PORT, an
#                          oracle started with KUBE_KCM=0; without it, ours alone)
#
# A file target: `make web-dist` relinks it only when cel/ (or the core's
# core/cel contract it serves) changed. Brotli 9, as kubectl.wasm: on tens
# of MB, 11 takes minutes of CPU for a percent.

GO ?= go
BIN ?= bin
WEB_DIST ?= $(BIN)/web
CEL_WASM := $(WEB_DIST)/cel-crd.wasm $(WEB_DIST)/cel-policy.wasm
CEL_INPUTS := cel/go.mod cel/go.sum $(filter-out %_test.go cel/cmd/celbench/%,$(shell find cel -name '*.go' 2>/dev/null)) \
	$(filter-out %_test.go,$(wildcard core/cel/*.go))

.PHONY: cel-wasm bench-cel bench-cel-native

cel-wasm: $(CEL_WASM)

$(WEB_DIST)/cel-crd.wasm: $(CEL_INPUTS)
	@mkdir -p $(WEB_DIST)
	cd cel && GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o ../$@ ./cmd/wasm
	$(WASM_PACK) $@
	node web/tools/compress.mjs $@ --brotli-quality=9

$(WEB_DIST)/cel-policy.wasm: $(CEL_INPUTS)
	@mkdir -p $(WEB_DIST)
	cd cel && GOOS=js GOARCH=wasm $(GO) build -tags celpolicy -trimpath -ldflags='-s -w' -o ../$@ ./cmd/wasm
	$(WASM_PACK) $@
	node web/tools/compress.mjs $@ --brotli-quality=9

web-dist: cel-wasm

bench-cel: web-dist static-server browser-deps
	CHROMIUM=$(CHROMIUM) node tests/browser/bench-cel.mjs

# kubesandbox (bin/kubesandbox as make build makes it: the engine is
# bin/kubesandbox-cel, started on the first rule) on CEL_BENCH_ADDR against
# $(KUBE) (start it: cd ../shared/oracle && KUBE_KCM=0 ./kube-start.sh PORT)
CEL_BENCH_ADDR ?= 127.0.0.1:6516
CEL_BENCH_N ?= 300
bench-cel-native: build
	cd cel && $(GO) build -o ../$(BIN)/celbench ./cmd/celbench
	$(BIN)/kubesandbox -addr $(CEL_BENCH_ADDR) -controllers=false -kubeconfig= & pid=$$!; \
	  trap "kill $$pid" EXIT; \
	  $(BIN)/celbench -ours http://$(CEL_BENCH_ADDR) $(if $(KUBE),-kube $(KUBE)) -n $(CEL_BENCH_N) -runs 2
