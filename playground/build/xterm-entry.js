// esbuild entry for playground/vendor/xterm.js (built by `make
// playground-build`, never committed): @xterm/xterm and its fit addon, as
// one local ES module so that no asset comes from a CDN. Its stylesheet is
// playground/vendor/xterm.css, its licence (MIT) playground/vendor/xterm.LICENSE.
export { Terminal } from '@xterm/xterm';
export { FitAddon } from '@xterm/addon-fit';
