package fieldmanager

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// TestZeroObject: with Options.Zero a create is diffed against the typed
// zero object, so structs Go always writes (here spec and spec.names, as
// in a CustomResourceDefinition) exist before the create and their "."
// markers are not owned, as the conformance transcript crd-lifecycle shows.
func TestZeroObject(t *testing.T) {
	str := &schema.Schema{Type: "string"}
	s := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"apiVersion": str, "kind": str,
		"metadata": {Type: "object", Properties: map[string]*schema.Schema{"name": str}},
		"spec": {Type: "object", Properties: map[string]*schema.Schema{
			"group": str,
			"names": {Type: "object", Properties: map[string]*schema.Schema{"plural": str, "kind": str}},
		}},
	}}
	zero := func() map[string]any {
		return map[string]any{"apiVersion": "ignored/v0", "kind": "Ignored", "metadata": map[string]any{},
			"spec": map[string]any{"group": "", "names": map[string]any{"plural": "", "kind": ""}}}
	}
	in := `{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"a"},"spec":{"group":"g","names":{"plural":"things","kind":"Thing"}}}`
	for _, tc := range []struct {
		name string
		zero func() map[string]any
		want string
	}{
		{"no zero: the creator owns every struct", nil,
			`kubectl/Update={"f:spec":{".":{},"f:group":{},"f:names":{".":{},"f:kind":{},"f:plural":{}}}}`},
		{"typed zero: structs are not owned", zero,
			`kubectl/Update={"f:spec":{"f:group":{},"f:names":{"f:kind":{},"f:plural":{}}}}`},
		{"zero returning nil behaves as no zero", func() map[string]any { return nil },
			`kubectl/Update={"f:spec":{".":{},"f:group":{},"f:names":{".":{},"f:kind":{},"f:plural":{}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(Options{GroupVersion: testGV, Kind: "Thing", Schema: s, Zero: tc.zero})
			if err != nil {
				t.Fatal(err)
			}
			o, err := m.Update(nil, obj(t, in), "kubectl", "", t0)
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, entries(o), []string{tc.want})
			if o["apiVersion"] != testGV {
				t.Errorf("apiVersion = %v", o["apiVersion"])
			}
		})
	}
}

// TestZeroObjectApplyCreate: an apply that creates diffs the typed zero
// object against itself for "before-first-apply" (the real
// skipNonAppliedManager asks objectCreater.New for the empty object), so
// only the applier gets an entry; found by reference/differential.
func TestZeroObjectApplyCreate(t *testing.T) {
	str := &schema.Schema{Type: "string"}
	s := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"apiVersion": str, "kind": str,
		"metadata": {Type: "object", Properties: map[string]*schema.Schema{"name": str}},
		"spec": {Type: "object", Properties: map[string]*schema.Schema{
			"containers": {Type: "array", Items: &schema.Schema{Type: "string"}},
			"group":      str,
		}},
		"status": {Type: "object", Properties: map[string]*schema.Schema{"phase": str}},
	}}
	zero := func() map[string]any {
		return map[string]any{"metadata": map[string]any{}, "spec": map[string]any{"containers": nil}, "status": map[string]any{}}
	}
	m, err := New(Options{GroupVersion: testGV, Kind: "Thing", Schema: s, Zero: zero})
	if err != nil {
		t.Fatal(err)
	}
	o, err := m.Apply(nil, obj(t, `{"apiVersion":"example.com/v1","kind":"Thing","metadata":{"name":"a"},"spec":{"group":"g"}}`), "alice", "", false, t0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, entries(o), []string{`alice/Apply={"f:spec":{"f:group":{}}}`})
}
