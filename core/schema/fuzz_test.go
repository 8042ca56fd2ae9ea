package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// FuzzUnmarshalSchema decodes arbitrary bytes as a schema (and as a Load
// document). Whatever decodes must re-encode to a fixed point and survive
// the walkers.
func FuzzUnmarshalSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string","default":"x"}},"additionalProperties":false}`))
	f.Add([]byte(`{"type":"array","items":{"type":"integer","enum":[1,2],"minimum":0}}`))
	f.Add([]byte(`{"definitions":{"A":{"type":"object","properties":{"b":{"$ref":"#/definitions/A"}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if defs, err := Load(data); err == nil {
			for _, s := range defs {
				obj := map[string]any{"a": []any{int64(1), "x", nil}, "b": map[string]any{"c": 1.5}}
				Default(s, obj)
				Prune(s, obj, true)
				_ = Validate(s, obj)
			}
		}
		var s Schema
		if err := json.Unmarshal(data, &s); err != nil {
			return
		}
		b1, err := json.Marshal(&s)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		var s2 Schema
		if err := json.Unmarshal(b1, &s2); err != nil {
			t.Fatalf("decode of re-encoded %s: %v", b1, err)
		}
		b2, err := json.Marshal(&s2)
		if err != nil {
			t.Fatal(err)
		}
		if string(b1) != string(b2) {
			t.Fatalf("not a fixed point:\n%s\n%s", b1, b2)
		}
		_ = ValidateStructural(&s, nil)
		obj := map[string]any{"apiVersion": "v1", "kind": "K", "spec": map[string]any{"x": []any{nil, "y"}}}
		Default(&s, obj)
		Prune(&s, obj, true)
		_ = Validate(&s, obj)
	})
}

// FuzzValidateDefaultPrune runs the create pipeline on arbitrary JSON
// objects against the Widget schema: no panics, defaulting is idempotent,
// and pruning then validating is stable (a second prune finds nothing and
// validation gives the same answer).
func FuzzValidateDefaultPrune(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"g/v1","kind":"Widget","metadata":{"name":"w","bogus":1},"spec":{"replicas":-1,"ports":[{"port":80},{"name":"a"},{"name":"a"}],"junk":1}}`))
	f.Add([]byte(`{"spec":{"color":null,"config":{"a":null,"b":1},"extra":{"x":[{"y":null}]},"tags":[null,1]},"status":{"replicas":"x"}}`))
	f.Add([]byte(`{"metadata":{"labels":"x","ownerReferences":[{"uid":"u","zz":1}],"creationTimestamp":"2024-01-01T00:00:00+02:00"}}`))
	s := widgetSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, err := jsonx.DecodeObject(data)
		if err != nil {
			return
		}
		_, _ = Coerce(s, jsonx.CopyObject(obj), true)
		Prune(s, obj, true)
		Default(s, obj)
		once := jsonx.CopyObject(obj)
		Default(s, obj)
		if !reflect.DeepEqual(once, obj) {
			t.Fatalf("defaulting is not idempotent:\n%s\n%s", jsonOf(once), jsonOf(obj))
		}
		errs1 := Validate(s, obj)
		_ = ValidateScaleSpec(obj, ".spec.replicas")
		_ = ValidateScaleStatus(obj, ".status.replicas", ".status.selector")
		_ = ValidateTypeMeta(obj, "g", "v1", "Widget")
		before := jsonx.CopyObject(obj)
		if strings.Contains(jsonOf(before), `":"-0`) {
			// A timestamp before year 1 re-encodes (as the server's
			// metav1.Time does) to a text RFC 3339 cannot parse back.
			return
		}
		if again := Prune(s, obj, true); len(again) != 0 {
			t.Fatalf("second prune found %q in %s", again, jsonOf(before))
		}
		if !reflect.DeepEqual(before, obj) {
			t.Fatalf("second prune changed the object:\n%s\n%s", jsonOf(before), jsonOf(obj))
		}
		errs2 := Validate(s, obj)
		if len(errs1) != len(errs2) {
			t.Fatalf("validation changed after pruning again: %v vs %v", errs1, errs2)
		}
		for i := range errs1 {
			if errs1[i].Error() != errs2[i].Error() {
				t.Fatalf("validation changed after pruning again: %v vs %v", errs1, errs2)
			}
		}
	})
}
