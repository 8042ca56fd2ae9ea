# Distribution for docs sites (docs/embedding.md): the browser runtime and
# <kube-example> as one folder and npm package. Included from the
# top-level Makefile.
#
#   make dist     dist/kubesandbox/ (npm package: loader, service worker,
#                 worker, wasm + .br/.gz, the element, its CSS, types) and
#                 dist/kubesandbox-kubectl/ (optional: kubectl's files)
#   make test-recipes   the Hugo and MkDocs recipes of docs/embedding.md,
#                 built with the real tools (skipped where not installed)
#
# tests/browser/dist.test.mjs packs it (npm pack), serves a page built from
# the tarball on a plain static server and runs its examples, also offline.

.PHONY: dist test-recipes

dist: web-dist playground-build
	node web/tools/dist.mjs $(WEB_DIST) dist

test-recipes: web-dist playground-build browser-deps
	RECIPES=1 CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/browser/dist-recipes.test.mjs
