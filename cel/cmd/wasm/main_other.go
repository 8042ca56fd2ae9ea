//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main: this program is only a browser's (GOOS=js GOARCH=wasm, make cel-wasm).
func main() {
	fmt.Fprintln(os.Stderr, "cel-crd.wasm and cel-policy.wasm are built with GOOS=js GOARCH=wasm (make cel-wasm); natively the engine is linked into the server")
	os.Exit(2)
}
