# Go benchmarks of the storage and list/watch path (core/store,
# core/apiserver): 10,000 ConfigMaps of ~1 KiB; create rate, full and paged
# lists against a json.Marshal baseline, watch fan-out to 100 watchers,
# 100 and 400 watchers of one collection against per-watcher encoding,
# retained heap per object. Included from the top-level Makefile.
#
#   make bench    run them (-benchmem), print a table; raw output in bin/bench.txt
#
# About a minute on 2 cores. Results and how to read them: docs/bench.md.

GO ?= go
BIN ?= bin
BENCH_OUT := $(BIN)/bench.txt
BENCH_FLAGS ?= -run '^$$' -benchmem -timeout 10m

.PHONY: bench

bench:
	@mkdir -p $(BIN)
	@echo "machine: $$(nproc) cores, $$($(GO) version | cut -d' ' -f3-), $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" | tee $(BENCH_OUT)
	$(GO) test $(BENCH_FLAGS) -bench . ./core/store >> $(BENCH_OUT)
	$(GO) test $(BENCH_FLAGS) -bench '^BenchmarkCreate$$' -benchtime 10000x ./core/apiserver >> $(BENCH_OUT)
	$(GO) test $(BENCH_FLAGS) -bench 'List' -benchtime 3x ./core/apiserver >> $(BENCH_OUT)
	$(GO) test $(BENCH_FLAGS) -bench 'Fanout100' ./core/apiserver >> $(BENCH_OUT)
	$(GO) test $(BENCH_FLAGS) -bench 'FanoutCreates' -benchtime 3x ./core/apiserver >> $(BENCH_OUT)
	@awk '/^pkg:/ { pkg = $$2; sub(/.*\/core\//, "core/", pkg) } \
	     /^Benchmark/ { name = $$1; sub(/-[0-9]+$$/, "", name); sub(/^Benchmark/, "", name); \
	       line = sprintf("%-16s %-30s %10s", pkg, name, $$2); \
	       for (i = 3; i < NF; i += 2) line = line sprintf("  %12s %s", $$i, $$(i+1)); print line }' $(BENCH_OUT)

# Against the real control plane (issue #16 "Native"; docs/bench.md "Against
# the real kube-apiserver"): tests/loadcmp starts bin/kubesandbox (and
# LOADCMP_BEFORE, another build, if set) and times create, GET and lists of
# 700 / 2,000 (JSON and protobuf) on it and on a running oracle, same client,
# same run: requests/s and server CPU per request (kube-apiserver + etcd).
# Our binaries listen from ORACLE_PORT+5 on (the oracle takes PORT..PORT+3).
#
#   (cd ../shared/oracle && KUBE_KCM=0 ./kube-start.sh 10130)
#   make bench-native ORACLE_PORT=10130 [LOADCMP_FLAGS='-rounds 2 -c 4']
ORACLE_PORT ?= 6480
KUBE_ORACLE_DIR ?= $(HOME)/.cache/kube-oracle
LOADCMP_FLAGS ?= -rounds 2
LOADCMP_BEFORE ?=

.PHONY: bench-native
bench-native: build
	$(GO) build -o $(BIN)/loadcmp ./tests/loadcmp
	$(BIN)/loadcmp -oracle $(KUBE_ORACLE_DIR)/run/kube-$(ORACLE_PORT) -port $$(($(ORACLE_PORT) + 5)) \
	  $(if $(LOADCMP_BEFORE),-bin before=$(LOADCMP_BEFORE)) -bin ours=$(BIN)/kubesandbox $(LOADCMP_FLAGS)

# Watch fan-out against the same oracle (docs/bench.md "Against the real
# kube-apiserver"): 100 and 400 watches, each on its own HTTPS connection,
# while 200 ConfigMaps are created one after another; events/s and server CPU
# per delivered event, counted from the raw stream (no decoding client-side).
#
#   make bench-fanout ORACLE_PORT=10130 [FANOUT_FLAGS='-fanout 100,400 -rounds 2 -http1']
FANOUT_FLAGS ?= -fanout 100,400 -rounds 2

.PHONY: bench-fanout
bench-fanout: build
	$(GO) build -o $(BIN)/loadcmp ./tests/loadcmp
	$(BIN)/loadcmp -oracle $(KUBE_ORACLE_DIR)/run/kube-$(ORACLE_PORT) -port $$(($(ORACLE_PORT) + 5)) \
	  $(if $(LOADCMP_BEFORE),-bin before=$(LOADCMP_BEFORE)) -bin ours=$(BIN)/kubesandbox $(FANOUT_FLAGS)
