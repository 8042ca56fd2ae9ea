# Fuzzing: every FuzzXxx target of the repository, each for FUZZTIME.
# Included from the top-level Makefile.
#
#   make fuzz                       every target, 10s each
#   make fuzz FUZZTIME=2s           CI's short budget
#   make fuzz FUZZPKGS=./patch/...  only some packages
#   make fuzz-list                  "package target" pairs, nothing run
#   make test-fuzz                  every target for 2,000 inputs: part of `make test` (CI)
#
# Targets are discovered with `go test -list '^Fuzz'`, which prints the
# matching names of a package and then its "ok  <import path>" line:
#
#   FuzzServeHTTP
#   ok  	github.com/kubesandbox/kubesandbox/core/apiserver	0.02s
#
# A failing target does not stop the others; the run ends with
# "fuzz: N passed, M failed" and fails if M > 0. New crashers are written
# by go test to the package's testdata/fuzz/FuzzXxx/ (commit them).

GO ?= go
FUZZTIME ?= 10s
FUZZMINIMIZETIME ?= 5s
FUZZPKGS ?= ./...

.PHONY: fuzz fuzz-list test-fuzz

# CI's budget: each target briefly mutates beyond its committed seeds (the
# seeds themselves already run in `go test ./...`). Ten-minute runs are
# recorded in docs/reliability.md. The budget is a count, not a duration:
# with a duration, Go 1.26's fuzz coordinator can report its own deadline
# as a failure ("context deadline exceeded", golang/go#75804; fixed in 1.27).
test-fuzz:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=2000x FUZZMINIMIZETIME=100x

fuzz-list:
	@$(GO) test -list '^Fuzz' $(FUZZPKGS) 2>/dev/null | \
		awk '/^Fuzz/ { names[n++] = $$1; next } \
		     /^ok[ \t]/ { for (i = 0; i < n; i++) print $$2, names[i] } \
		     { n = 0 }'

fuzz:
	@pairs="$$($(MAKE) --no-print-directory -s fuzz-list FUZZPKGS='$(FUZZPKGS)')"; \
	if [ -z "$$pairs" ]; then echo "fuzz: no FuzzXxx targets found in $(FUZZPKGS)"; exit 1; fi; \
	printf '%s\n' "$$pairs" | { \
		passed=0; failed=0; failures=""; \
		while read -r pkg name; do \
			echo "== $$name ($$pkg, $(FUZZTIME))"; \
			if $(GO) test "$$pkg" -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -timeout 0 \
				-fuzzminimizetime $(FUZZMINIMIZETIME) </dev/null; then \
				passed=$$((passed + 1)); \
			else \
				failed=$$((failed + 1)); failures="$$failures $$name"; \
			fi; \
		done; \
		[ -z "$$failures" ] || echo "failed:$$failures"; \
		echo "fuzz: $$passed passed, $$failed failed"; \
		[ $$failed -eq 0 ]; \
	}
