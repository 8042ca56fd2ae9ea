#!/bin/sh
# prepare.sh OUT: the browser build's view of structured-merge-diff, made at
# build time (issue #16; the pattern of kubectl/overlay/prepare.sh).
#
# Upstream's typed/parser.go parses two YAML schemas into package variables
# at init (ssParser, DeducedParseableType): under wasm that is the largest
# package init of the core (goyaml's decoder compiled and run before main).
# `go build -overlay` may not replace files under GOMODCACHE, so this copies
# the module out of the module cache into OUT/structured-merge-diff, puts
# parser.go.in (upstream's file with the two variables made cheap: the
# schema-of-schemas parsed on first use, the deduced schema written as Go;
# smdlazy_test.go checks that nothing else differs and runs upstream's tests
# of the package on the copy) in place of typed/parser.go, and writes
# OUT/wasm.mod (+ wasm.sum): the root module's go.mod with a replace
# directive to the copy.
# The same for go.yaml.in/yaml/v2 (OUT/yaml-v2): its two package-level
# regexp.MustCompile calls (resolve.go, encode.go) become newLazyRegexp
# (yamlre.go.in, added as kubesandbox_yamlre.go), so that no regular
# expression is compiled at init. And OUT/_std/overlay.json, a standard
# library crypto/hpke whose KEMs are built on first use (hpkelazy.mjs) and
# regexp/syntax with unicode's name tables as a switch (unicodelazy.mjs).
# Then, from the root module:
#   GOOS=js GOARCH=wasm go build -modfile=OUT/wasm.mod -overlay=OUT/_std/overlay.json …
set -e
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(go env GOMOD)")
# a cold module cache (a fresh CI machine) has no copy yet: list prints ""
(cd "$root" && go mod download sigs.k8s.io/structured-merge-diff/v4)
smd=$(cd "$root" && go list -m -f '{{.Dir}}' sigs.k8s.io/structured-merge-diff/v4)
test -n "$smd" || { echo "prepare.sh: structured-merge-diff not in the module cache" >&2; exit 1; }
rm -rf "$out/structured-merge-diff"
cp -R "$smd" "$out/structured-merge-diff"
chmod -R u+w "$out/structured-merge-diff"
cp "$here/parser.go.in" "$out/structured-merge-diff/typed/parser.go"
cp "$root/go.mod" "$out/wasm.mod"
cp "$root/go.sum" "$out/wasm.sum"
printf '\nreplace sigs.k8s.io/structured-merge-diff/v4 => %s\n' "$out/structured-merge-diff" >> "$out/wasm.mod"

# go.yaml.in/yaml/v2 with its regular expressions compiled on first use
(cd "$root" && go mod download go.yaml.in/yaml/v2)
yaml=$(cd "$root" && go list -m -f '{{.Dir}}' go.yaml.in/yaml/v2)
test -n "$yaml" || { echo "prepare.sh: go.yaml.in/yaml/v2 not in the module cache" >&2; exit 1; }
rm -rf "$out/yaml-v2"
cp -R "$yaml" "$out/yaml-v2"
chmod -R u+w "$out/yaml-v2"
for f in resolve.go encode.go; do
	sed -e '/^	"regexp"$/d' -e 's/^\(var [A-Za-z0-9]* = \)regexp\.MustCompile(/\1newLazyRegexp(/' \
		"$yaml/$f" > "$out/yaml-v2/$f"
done
cp "$here/yamlre.go.in" "$out/yaml-v2/kubesandbox_yamlre.go"
printf 'replace go.yaml.in/yaml/v2 => %s\n' "$out/yaml-v2" >> "$out/wasm.mod"

# crypto/hpke with its KEMs built on first use (hpkelazy.mjs): OUT/_std/overlay.json
# (a directory starting with "_": go test ./... of the root module skips it)
node "$here/hpkelazy.mjs" "$(go env GOROOT)" "$out/_std"
# regexp/syntax without unicode's Categories/Scripts/CategoryAliases maps
# (their init ran on every start): added to the same overlay (unicodelazy.mjs)
node "$here/unicodelazy.mjs" "$(go env GOROOT)" "$out/_std"
