//go:build js

package gotypes

import (
	"encoding/json"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The browser build leaves the Go layout table and its printers out: they
// cost about 12 KB of the wasm's 2.5 MB brotli budget (measured with make
// wasm's flags, 2,498,082 → 2,510,151 B). There a pod-template-hash hashes
// the template's JSON instead (stable, 1:1 with the template, but not a
// real cluster's value) and a validation message shows the external
// object's JSON instead of the internal Go value's.

// The table's roots (their values only matter natively).
const (
	PodTemplateSpec = iota
	InternalPodTemplateSpec
	InternalPodSpec
)

// Spew is the template's JSON (keys sorted) in the browser build.
func Spew(_ int, v any) string {
	b, _ := jsonx.Marshal(v)
	return string(b)
}

// InternalJSON is the external JSON of v in the browser build.
func InternalJSON(_ int, v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
