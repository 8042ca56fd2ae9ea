package builtin

import (
	"sync"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The documentation of the built-in definitions (descriptions.json,
// generated with schemas.json by reference/cmd/genschema) is large — half a
// megabyte — and only OpenAPI documents (kubectl explain) need it, so it is
// not part of the core's WebAssembly: natively it is embedded
// (descriptions_embed.go), in the browser wasm/ installs a source that
// fetches the file shipped beside kubesandbox.wasm the first time an
// OpenAPI document is asked for.

var (
	descMu     sync.Mutex
	descSource func() ([]byte, error) // descriptions_embed.go natively, SetDescriptionsSource in the browser
	descs      map[string]any
)

// SetDescriptionsSource sets where Descriptions reads descriptions.json
// from (the browser build embeds no copy). The next call to Descriptions
// reads the new source.
func SetDescriptionsSource(read func() ([]byte, error)) {
	descMu.Lock()
	defer descMu.Unlock()
	descSource, descs = read, nil
}

// Descriptions returns the documentation of the built-in definitions as
// the real server publishes it: per definition name, an OpenAPI fragment
// that core/openapi merges into the definition's schema — descriptions,
// the published enums ("Possible enum values" in the text as well), the
// required lists, and the {} default of a list's metadata, e.g.
//
//	"io.k8s.api.apps.v1.DeploymentStrategy": {
//	  "description": "DeploymentStrategy describes how to replace existing pods with new ones.",
//	  "properties": {"type": {"description": "Type of deployment. …", "enum": ["Recreate", "RollingUpdate"]}, …}}
//
// None of it validates anything: kube's validation of built-in kinds is in
// Go, as ours is. It is read on first use; without a source, or when
// reading or decoding fails (a browser offline), it returns nil and the
// next call tries again. The map is shared: callers must not modify it.
func Descriptions() map[string]any {
	descMu.Lock()
	defer descMu.Unlock()
	if descs == nil && descSource != nil {
		if b, err := descSource(); err == nil {
			descs, _ = jsonx.DecodeObject(b)
		}
	}
	return descs
}
