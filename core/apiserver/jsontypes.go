//go:build !js

package apiserver

import (
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// checkJSONTypes fails a built-in kind's body with a value of the wrong
// JSON type as its Go decoder does, before any validation (400, not 422):
//
//	ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ConfigMap.data of type string
//
// Custom resources are decoded unstructured; their schema judges types.
func checkJSONTypes(res *resource.Resource, obj object) error {
	if res.CRD {
		return nil
	}
	// res's schema loads the definitions it reaches: naming what is loaded
	// is enough, the whole catalogue is not (Definitions: hundreds of
	// definitions decoded while every other schema lookup waits — the
	// controllers' first write held a client's first list 50-100 ms)
	s := res.SchemaOf()
	builtin.NameLoadedDefinitions()
	err := schema.JSONTypeError(s, obj)
	if err == nil {
		return nil
	}
	kind, version := res.Kind, res.Version
	if k, ok := obj["kind"].(string); ok && k != "" {
		kind = k
	}
	if av, ok := obj["apiVersion"].(string); ok && av != "" {
		version = av[strings.LastIndexByte(av, '/')+1:]
	}
	return apierr.BadRequestf("%s in version %q cannot be handled as a %s: %v", kind, version, res.Kind, err)
}
