# The playground (playground/): plain ES modules, plus two local bundles
# built with esbuild from node_modules (no CDN at run time): CodeMirror 6
# (the editor; without it a plain <textarea>), the `yaml` package (every
# YAML the playground reads or writes; required) and @xterm/xterm (the
# Terminal tab; its CSS and MIT licence are copied beside it).
# Included from the top-level Makefile; `make run` and `make test-browser`
# build them first.
#
#   make playground-build   playground/vendor/{codemirror,yaml,xterm}.js, xterm.css, xterm.LICENSE

PLAYGROUND_VENDOR := playground/vendor/codemirror.js playground/vendor/yaml.js playground/vendor/xterm.js \
	playground/vendor/xterm.css playground/vendor/xterm.LICENSE

.PHONY: playground-build

playground-build: $(PLAYGROUND_VENDOR)

# node_modules/yaml, @xterm too: a checkout whose node_modules predates these dependencies installs them
playground/vendor/%.js: playground/build/%-entry.js package-lock.json
	@test -x node_modules/.bin/esbuild -a -d node_modules/yaml -a -d node_modules/@xterm/addon-fit || npm ci --no-audit --no-fund
	@mkdir -p $(dir $@)
	node_modules/.bin/esbuild $< --bundle --format=esm --minify --legal-comments=none --log-level=warning --outfile=$@

playground/vendor/xterm.css: playground/vendor/xterm.js
	node_modules/.bin/esbuild node_modules/@xterm/xterm/css/xterm.css --minify --log-level=warning --outfile=$@

playground/vendor/xterm.LICENSE: playground/vendor/xterm.js
	cp node_modules/@xterm/xterm/LICENSE $@

run: playground-build
test-browser: playground-build

## playground-screenshots: rewrite docs/screenshots/*.png from the browser tests
.PHONY: playground-screenshots
playground-screenshots: web-dist static-server browser-deps playground-build
	UPDATE_SCREENSHOTS=1 CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/browser/playground.test.mjs \
		tests/browser/playground-firstrun.test.mjs tests/browser/playground-schema.test.mjs
