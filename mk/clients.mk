# Real clients against the native server (see docs/clients.md):
# kubectl as a library, client-go (informers, dynamic client, a small
# controller) in reference/clients, and @kubernetes/client-node in
# tests/node. Included from the top-level Makefile.
#
#   make test-clients    both suites (about 30 s; node needs `npm ci` once)
#   make kubectl         bin/kubectl built from k8s.io/kubectl v0.37.2

GO ?= go
BIN ?= bin
KUBECTL_VERSION_PKG := k8s.io/component-base/version

.PHONY: test-clients test-clients-go test-clients-node kubectl

test-clients: test-clients-go test-clients-node

test-clients-go:
	cd reference && $(GO) vet ./clients/... && $(GO) test -count=1 ./clients/...

test-clients-node:
	@test -d node_modules/@kubernetes/client-node || npm ci
	node --test tests/node/

kubectl:
	@mkdir -p $(BIN)
	cd reference && $(GO) build -ldflags "-X $(KUBECTL_VERSION_PKG).gitVersion=v1.37.2 -X $(KUBECTL_VERSION_PKG).gitMajor=1 -X $(KUBECTL_VERSION_PKG).gitMinor=37" -o ../$(BIN)/kubectl ./clients/kubectl
