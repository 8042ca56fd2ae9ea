package builtin

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

func TestZeroObject(t *testing.T) {
	for _, r := range Resources() {
		t.Run(r.GroupVersion()+"/"+r.Kind, func(t *testing.T) {
			z := ZeroObjectFor(r.GroupVersion(), r.Kind)
			if z == nil {
				t.Fatalf("no zero object for %s", r.Kind)
			}
			if z["apiVersion"] != r.GroupVersion() || z["kind"] != r.Kind {
				t.Errorf("apiVersion/kind = %v/%v, want %s/%s", z["apiVersion"], z["kind"], r.GroupVersion(), r.Kind)
			}
			z["metadata"].(map[string]any)["name"] = "changed"
			if again := ZeroObjectFor(r.GroupVersion(), r.Kind); len(again["metadata"].(map[string]any)) != 0 {
				t.Errorf("ZeroObject shares its result: %v", again)
			}
		})
	}
	for kind, want := range map[string]string{
		"Pod":       `{"apiVersion":"v1","kind":"Pod","metadata":{},"spec":{"containers":null},"status":{}}`,
		"ConfigMap": `{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}`,
	} {
		t.Run("exact/"+kind, func(t *testing.T) {
			got, _ := jsonx.Marshal(ZeroObject(kind))
			if string(got) != want {
				t.Errorf("ZeroObject(%q) = %s, want %s", kind, got, want)
			}
		})
	}
	if ZeroObject("Widget") != nil {
		t.Error("ZeroObject(Widget) != nil")
	}
}
