//go:build !js

package schema

import "testing"

// A fresh catalogue's Get then NameLoaded is enough for JSONTypeError to
// name the Go struct of what Get loaded (and what it refers to), as the
// whole catalogue's NameDefs was.
func TestNameLoaded(t *testing.T) {
	for _, tc := range []struct {
		def  string
		obj  map[string]any
		want string
	}{
		{"io.k8s.api.core.v1.ConfigMap", map[string]any{"data": map[string]any{"a": true}},
			"json: cannot unmarshal bool into Go struct field ConfigMap.data of type string"},
		{"io.k8s.api.core.v1.Node", map[string]any{"spec": map[string]any{"unschedulable": "yes"}},
			"json: cannot unmarshal string into Go struct field NodeSpec.spec.unschedulable of type bool"},
	} {
		t.Run(tc.def, func(t *testing.T) {
			c := NewCatalogue(builtinDoc(t))
			s, err := c.Get(tc.def)
			if err != nil || s == nil {
				t.Fatalf("Get: %v, %v", s, err)
			}
			c.NameLoaded()
			err = JSONTypeError(s, tc.obj)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}
