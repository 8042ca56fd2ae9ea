// Package builtin is the catalogue of the built-in resources kubesandbox
// serves: core/v1 namespaces, configmaps, secrets, pods, services,
// serviceaccounts and events; apps/v1 deployments, replicasets,
// statefulsets and daemonsets; batch/v1 jobs and cronjobs;
// apiextensions.k8s.io/v1 customresourcedefinitions; and the kinds of
// catalog_kinds.go (core/v1 endpoints, events.k8s.io/v1 events,
// discovery.k8s.io/v1 endpointslices).
//
// Their schemas are generated from the published k8s.io/api types by the
// separate reference module (see reference/gen) into schemas.json, which is
// embedded here; this package imports no k8s.io module.
package builtin

import (
	_ "embed"
	"fmt"

	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// schemasJSON is {"definitions": {name: schema}}; regenerate with
//
//	cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json
//
//go:embed schemas.json
var schemasJSON []byte

// definitions decodes schemasJSON on demand: a definition with what it
// refers to (a first visit's bootstrap decodes a few dozen of the
// document's definitions, not all of them).
var definitions = schema.NewCatalogue(schemasJSON)

// Definitions returns the linked schema graph of every generated
// definition, keyed by OpenAPI name ("io.k8s.api.core.v1.PodSpec"). The
// graph is shared: callers must not modify it.
func Definitions() (map[string]*schema.Schema, error) { return definitions.All() }

// Definition is the schema of one definition (a node of Definitions'
// graph), or nil; it decodes only that definition and what it refers to.
func Definition(name string) *schema.Schema {
	s, err := definitions.Get(name)
	if err != nil {
		return nil
	}
	return s
}

// Resources returns a fresh list of the built-in resources, in discovery
// order (group by group). It fails only if the embedded schemas are broken,
// which the package's tests rule out.
func Resources() []*resource.Resource {
	all := allEntries()
	out := make([]*resource.Resource, 0, len(all))
	for _, e := range all {
		r := e.res // copy
		r.ShortNames = append([]string(nil), e.res.ShortNames...)
		r.Categories = append([]string(nil), e.res.Categories...)
		r.Verbs = append([]string(nil), e.res.Verbs...)
		r.SelectableFields = append([]string(nil), e.res.SelectableFields...)
		r.PrinterColumns = append([]resource.PrinterColumn(nil), e.res.PrinterColumns...)
		if e.res.Scale != nil {
			sc := *e.res.Scale
			r.Scale = &sc
		}
		def := e.def
		r.LoadSchema = func() *schema.Schema { return Definition(def) }
		if e.hooks != nil {
			e.hooks(&r.Hooks)
		}
		out = append(out, &r)
	}
	return out
}

// Lookup returns the built-in resource for group and plural resource name
// (any version we serve), or nil.
func Lookup(group, plural string) *resource.Resource {
	for _, r := range Resources() {
		if r.Group == group && r.Resource == plural {
			return r
		}
	}
	return nil
}

// allEntries is the whole catalogue: the workloads and core kinds of
// catalog.go, then the kinds of catalog_kinds.go.
func allEntries() []entry {
	return append(append(make([]entry, 0, len(catalogue)+len(kindsCatalogue)), catalogue...), kindsCatalogue...)
}

// check verifies that every catalogue entry names an existing definition;
// used by tests.
func check() error {
	d, err := Definitions()
	if err != nil {
		return err
	}
	for _, e := range append(allEntries(), kindsPending...) {
		if d[e.def] == nil {
			return fmt.Errorf("%s: no definition %s", e.res.Resource, e.def)
		}
	}
	return nil
}
