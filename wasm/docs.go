//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/wasm/jsglue"
)

// installDocs makes the descriptions of the built-in OpenAPI definitions
// come from web/worker.js's self.kubesandboxDocs() (a fetch of
// kubesandbox-docs.json, shipped beside kubesandbox.wasm; it resolves to
// the bytes, or null when the fetch failed): the browser build does not
// embed them (core/builtin/descriptions_embed.go), so the wasm does not
// carry half a megabyte only kubectl explain reads. core/openapi asks
// for them the first time an OpenAPI document is requested, on that
// request's goroutine; after a failure, a later request asks again.
func installDocs() {
	builtin.SetDescriptionsSource(func() ([]byte, error) {
		f := js.Global().Get("kubesandboxDocs")
		if f.Type() == js.TypeFunction {
			if v, err := await(f.Invoke()); err == nil && v.Type() == js.TypeObject && v.InstanceOf(jsglue.Uint8Array) {
				return bytesFromJS(v), nil
			}
		}
		return nil, errors.New("kubesandbox: no OpenAPI descriptions")
	})
}
