# The playground (playground/): plain ES modules, plus one local bundle of
# CodeMirror 6 built with esbuild from node_modules (no CDN at run time).
# Included from the top-level Makefile; `make run` and `make test-browser`
# build it first. Without node_modules the playground still works, with a
# plain <textarea> in place of the editor.
#
#   make playground-build   playground/vendor/codemirror.js

PLAYGROUND_VENDOR := playground/vendor/codemirror.js

.PHONY: playground-build

playground-build: $(PLAYGROUND_VENDOR)

$(PLAYGROUND_VENDOR): playground/build/codemirror-entry.js package-lock.json
	@test -x node_modules/.bin/esbuild || npm ci --no-audit --no-fund
	@mkdir -p $(dir $@)
	node_modules/.bin/esbuild $< --bundle --format=esm --minify --legal-comments=none --log-level=warning --outfile=$@

run: playground-build
test-browser: playground-build

## playground-screenshots: rewrite docs/screenshots/*.png from the browser tests
.PHONY: playground-screenshots
playground-screenshots: web-dist static-server browser-deps playground-build
	UPDATE_SCREENSHOTS=1 CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/browser/playground.test.mjs
