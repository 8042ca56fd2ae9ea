# The playground (playground/): plain ES modules, plus two local bundles
# built with esbuild from node_modules (no CDN at run time): CodeMirror 6
# (the editor; without it a plain <textarea>) and the `yaml` package (every
# YAML the playground reads or writes; required).
# Included from the top-level Makefile; `make run` and `make test-browser`
# build them first.
#
#   make playground-build   playground/vendor/codemirror.js, playground/vendor/yaml.js

PLAYGROUND_VENDOR := playground/vendor/codemirror.js playground/vendor/yaml.js

.PHONY: playground-build

playground-build: $(PLAYGROUND_VENDOR)

# node_modules/yaml too: a checkout whose node_modules predates the yaml dependency installs it
playground/vendor/%.js: playground/build/%-entry.js package-lock.json
	@test -x node_modules/.bin/esbuild -a -d node_modules/yaml || npm ci --no-audit --no-fund
	@mkdir -p $(dir $@)
	node_modules/.bin/esbuild $< --bundle --format=esm --minify --legal-comments=none --log-level=warning --outfile=$@

run: playground-build
test-browser: playground-build

## playground-screenshots: rewrite docs/screenshots/*.png from the browser tests
.PHONY: playground-screenshots
playground-screenshots: web-dist static-server browser-deps playground-build
	UPDATE_SCREENSHOTS=1 CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/browser/playground.test.mjs
