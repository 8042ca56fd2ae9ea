# kubesandbox — see README.md for the first five minutes.
ADDR ?= 127.0.0.1:8080
# NODES=0: no simulated Nodes, Pods stay Pending (as on ../shared/oracle)
NODES ?= 1
GO ?= go
BIN := bin

.PHONY: all build serve test test-go test-reference conformance clean

all: build

build:
	$(GO) build -o $(BIN)/kubesandbox ./core/cmd/kubesandbox

## serve: the native API server (kubectl/client-go can talk to it);
## NODES=0 runs it without Nodes (Pods stay Pending, as on a control plane
## without scheduler or kubelet)
serve: build
	$(BIN)/kubesandbox -addr $(ADDR) -nodes $(NODES) -kubeconfig $(BIN)/kubeconfig.yaml

## test: every test (Go incl. the conformance replay, reference module,
## browser, Node client, and every fuzz target for a short budget)
test: test-go test-reference test-browser test-clients-node test-fuzz

test-go:
	$(GO) vet ./...
	$(GO) test ./...

# the test-only module with the k8s.io reference libraries
test-reference:
	cd reference && $(GO) vet ./... && $(GO) test ./...

## conformance: replay ../shared/conformance and print the report
conformance:
	$(GO) run ./core/replay/cmd/replay

clean:
	rm -rf $(BIN)

# Fragments for the browser runtime, benchmarks and fuzzing.
-include mk/*.mk
