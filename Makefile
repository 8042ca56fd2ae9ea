# kubesandbox — see README.md for the first five minutes.
ADDR ?= 127.0.0.1:8080
# NODES=0: no simulated Nodes, Pods stay Pending (as on ../shared/oracle)
NODES ?= 3
GO ?= go
BIN := bin

.PHONY: all build serve test test-go test-reference test-cel conformance clean

all: build

# the server (the core alone, cmd/kubesandbox) and beside it the CEL
# engine (cel/cmd/kubesandbox-cel, the module of its own at cel/ with the
# real k8s.io code; the core never imports it), which the server starts
# the first time a CRD rule or an admission policy needs it: the engine's
# package init is never on the way to the server's first answer
build:
	$(GO) build -o $(BIN)/kubesandbox ./cmd/kubesandbox
	cd cel && $(GO) build -o ../$(BIN)/kubesandbox-cel ./cmd/kubesandbox-cel

## serve: the native API server (kubectl/client-go can talk to it);
## NODES=0 runs it without Nodes (Pods stay Pending, as on a control plane
## without scheduler or kubelet)
serve: build
	$(BIN)/kubesandbox -addr $(ADDR) -nodes $(NODES) -kubeconfig $(BIN)/kubeconfig.yaml

## test: every test (Go incl. the conformance replay and a -race pass,
## reference module, CEL module, kubectl module (mk/kubectl.mk), browser,
## Node client, and every fuzz target for a short budget)
test: test-go test-reference test-cel test-kubectl test-browser test-clients-node test-fuzz

# CI=true turns a missing conformance transcript into a failure instead of
# a skip (internal/conformance); `make test CI=false` skips instead.
CI ?= true
# The packages with goroutines of their own run a second time under the
# race detector; -short leaves out the property test's thousands of random
# requests there (they run in the pass without it). About 2-4 minutes on 2
# cores.
RACE_PKGS := ./core/store ./core/apiserver ./core/openapi ./core/controllers ./internal/celproc

test-go:
	$(GO) vet ./...
	CI=$(CI) $(GO) test ./...
	CI=$(CI) $(GO) test -race -short $(RACE_PKGS)

# the test-only module with the k8s.io reference libraries
test-reference:
	cd reference && $(GO) vet ./... && $(GO) test ./...

# the CEL engine's module (cel/): its tests replay the cel-* transcripts,
# which the core's replay skips
test-cel:
	cd cel && $(GO) vet ./... && $(GO) test ./...

## conformance: replay ../shared/conformance and print the report
conformance:
	$(GO) run ./core/replay/cmd/replay

clean:
	rm -rf $(BIN)

# Fragments for the browser runtime, benchmarks and fuzzing.
-include mk/*.mk
