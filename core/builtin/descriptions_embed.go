//go:build !(js && wasm)

package builtin

import _ "embed"

// descriptionsJSON is the documentation of the built-in definitions; see
// descriptions.go. The browser build does not embed it.
//
//go:embed descriptions.json
var descriptionsJSON []byte

func init() {
	descSource = func() ([]byte, error) { return descriptionsJSON, nil }
}
