#!/bin/sh
# prepare.sh OUT: the js/wasm build's view of upstream, made at build time.
#
# Four upstream files do not compile for GOOS=js (moby/term's termios
# code; kubectl's interrupt handler with syscall.SIGHUP, its terminal
# resize monitor with unix.SIGWINCH, and its unix.Umask), nor one line of
# pkg/cmd/plugin.go (syscall.Exec: plugins cannot run here). `go build
# -overlay` may not replace files under GOMODCACHE, so this copies the two modules (k8s.io/kubectl, github.com/moby/term) out
# of the module cache into OUT, puts the stand-ins next to this script
# (*.go.in, so they are no package of this module) in place of those files,
# and writes OUT/wasm.mod (+ wasm.sum): this module's go.mod with replace
# directives to the copies. Nothing else of upstream changes. Run from
# kubectl/, then: GOOS=js GOARCH=wasm go build -modfile=OUT/wasm.mod …
set -e
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
kubectl=$(go list -m -f '{{.Dir}}' k8s.io/kubectl)
term=$(go list -m -f '{{.Dir}}' github.com/moby/term)
rm -rf "$out/kubectl" "$out/term"
cp -R "$kubectl" "$out/kubectl"
cp -R "$term" "$out/term"
chmod -R u+w "$out/kubectl" "$out/term"
cp "$here/umask_js.go.in" "$out/kubectl/pkg/util/umask.go"
cp "$here/interrupt_js.go.in" "$out/kubectl/pkg/util/interrupt/interrupt.go"
cp "$here/resizeevents_js.go.in" "$out/kubectl/pkg/util/term/resizeevents.go"
cp "$here/term_js.go.in" "$out/term/term_unix.go"
rm "$out/term/termios_unix.go" "$out/term/termios_nonbsd.go"
# plugins: js/wasm has no execve; one line (and its import) of pkg/cmd/plugin.go
plugin="$out/kubectl/pkg/cmd/plugin.go"
grep -q 'return syscall.Exec(' "$plugin"
sed -i -e '/^\t"syscall"$/d' \
  -e 's|return syscall.Exec(.*|return exec.ErrNotFound // js/wasm: no execve (kubectl/overlay/prepare.sh)|' "$plugin"
cp go.mod "$out/wasm.mod"
cp go.sum "$out/wasm.sum"
printf '\nreplace k8s.io/kubectl => %s\n\nreplace github.com/moby/term => %s\n' "$out/kubectl" "$out/term" >> "$out/wasm.mod"
