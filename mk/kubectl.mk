# Real kubectl (k8s.io/kubectl v0.37.2) from its own module, kubectl/: as
# WebAssembly for the browser (web/kubectl.js runs it in a Worker) and
# natively, so the same commands can be compared (see docs/kubectl.md).
# Included from the top-level Makefile.
#
#   make kubectl-wasm     bin/web/kubectl.wasm (+ .br, .gz, .sha256) and web/kubectl*.js
#   make kubectl-native   bin/kubectl (the same kubectl, for this machine)
#   make test-kubectl     vet + the kubectl module's tests (native kubectl against bin/kubesandbox)
#
# A cold build compiles all of kubectl's dependencies (minutes); the wasm is
# a file target, so `make web-dist` only relinks it when kubectl/ changed.

GO ?= go
BIN ?= bin
WEB_DIST ?= $(BIN)/web
KUBECTL_WASM := $(WEB_DIST)/kubectl.wasm
KUBECTL_SRC := $(BIN)/kubectl-src
KUBECTL_INPUTS := kubectl/go.mod kubectl/go.sum $(filter-out %_test.go,$(wildcard kubectl/*.go kubectl/internal/*/*.go)) \
	$(wildcard kubectl/cmd/wasm/*.go kubectl/overlay/* kubectl/internal/*/*.mo)
KUBECTL_JS := web/kubectl.js web/kubectl-worker.js web/kubectl-fs.js
# `kubectl version` prints (and parses) these: v1.37.2 as a release build would
KUBECTL_VERSION_LDFLAGS := $(foreach p,k8s.io/component-base/version k8s.io/client-go/pkg/version,\
	-X $(p).gitVersion=v1.37.2 -X $(p).gitMajor=1 -X $(p).gitMinor=37 -X $(p).gitTreeState=clean)

.PHONY: kubectl-wasm kubectl-native test-kubectl

kubectl-wasm: $(KUBECTL_WASM)
	@mkdir -p $(WEB_DIST)
	cp $(KUBECTL_JS) $(WEB_DIST)/

# overlay/prepare.sh: upstream with four files (and one line) replaced by
# js stand-ins, through -modfile (go build -overlay may not touch the
# module cache). Brotli 9, not 11: on 129 MB, 11 takes minutes of CPU.
$(KUBECTL_WASM): $(KUBECTL_INPUTS)
	@mkdir -p $(WEB_DIST)
	cd kubectl && sh overlay/prepare.sh ../$(KUBECTL_SRC)
	cd kubectl && GOOS=js GOARCH=wasm $(GO) build -mod=mod -modfile=../$(KUBECTL_SRC)/wasm.mod -trimpath -ldflags='-s -w $(KUBECTL_VERSION_LDFLAGS)' -o ../$@ ./cmd/wasm
	$(WASM_PACK) $@
	node web/tools/compress.mjs $@ --brotli-quality=9

kubectl-native:
	cd kubectl && $(GO) build -trimpath -ldflags='-s -w $(KUBECTL_VERSION_LDFLAGS)' -o ../$(BIN)/kubectl ./cmd/native

test-kubectl: build kubectl-native
	cd kubectl && $(GO) vet ./... && KUBESANDBOX_BIN=$(abspath $(BIN)) $(GO) test ./...

web-dist: kubectl-wasm

# tests/browser/kubectl.test.mjs compares with the native kubectl
test-browser: kubectl-native build
