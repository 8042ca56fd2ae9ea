// Package smdlazy holds the browser build's replacement of one file of
// sigs.k8s.io/structured-merge-diff/v4, typed/parser.go (parser.go.in),
// and the script that builds the wasm against it (prepare.sh, run by
// `make wasm`). Upstream parses two YAML schemas into package variables at
// init; under WebAssembly that was the core's largest package init (the
// YAML decoder compiled and run before main), so the copy parses the
// schema-of-schemas on first use (only typed.NewParser needs it, and the
// core never calls it) and writes the deduced schema as Go. The native
// build (make serve, tests) uses upstream unchanged.
//
// prepare.sh copies go.yaml.in/yaml/v2 the same way, with its two
// package-level regexp.MustCompile calls made newLazyRegexp (yamlre.go.in):
// with them (and the core's own expressions lazy or gone) no regular
// expression is compiled before the first answer, so V8 no longer compiles
// the regexp package's code (≈ 150 KB of function bodies) on every start.
//
// hpkelazy.mjs (also run by prepare.sh) writes a standard-library overlay
// (`go build -overlay`, which may replace GOROOT files): crypto/hpke's seven
// KEM variables become functions that build them on first use. Upstream's
// initialisers call ecdh.P256() … ecdh.X25519(), which kept every curve's
// code in any program linking net/http (net/http → crypto/tls →
// crypto/hpke); the core never does HPKE, so the curves leave the binary
// (−440 KB raw, −27 KB brotli).
//
// unicodelazy.mjs adds regexp/syntax to that overlay: its \p{Name} lookup
// in unicode.Categories, Scripts and CategoryAliases becomes a generated
// switch over the same keys, so the linker drops those maps and the 65 KB
// of map-init code V8 compiled and ran on every start (the core parses no
// \p{…} class before its first answer).
//
// smdlazy_test.go keeps the copy honest: parser.go.in must equal
// upstream's file with exactly the hunks listed there applied, and
// upstream's own tests of the typed package (plus one comparing the Go
// schema with upstream's YAML) pass on the patched copy.
package smdlazy
