package schema

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// TestValidateTypeErrorsAreValidateValues: the type errors
// (FieldValueTypeInvalid) of Validate are exactly those of ValidateValue —
// its other walks (embedded resources, list sets and maps) report other
// types — so a caller keeping only type errors (core/apiserver's
// schemaValidate for a built-in with its own validation) may call
// ValidateValue alone.
func TestValidateTypeErrorsAreValidateValues(t *testing.T) {
	var s Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"n":{"type":"integer"},
		"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"lmap":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string"}}}},
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"m":{"type":"object","additionalProperties":{"type":"string"}}}}`), &s); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, obj     string
		types, others bool // type errors expected; errors of the other walks expected
	}{
		{"valid", `{"n":1,"set":["a","b"],"lmap":[{"k":"a"}],"emb":{"apiVersion":"v1","kind":"K"},"m":{"a":"b"}}`, false, false},
		{"wrong types", `{"n":"x","set":"a","lmap":{},"emb":[],"m":{"a":1}}`, true, false},
		{"duplicates and embedded", `{"set":["a","a"],"lmap":[{"k":"a"},{"k":"a"}],"emb":{"kind":5,"metadata":{"name":1}}}`, false, true},
		{"both", `{"n":1.5,"set":["a",1,"a"],"lmap":[{"k":1},{"k":1}],"emb":{"apiVersion":"a/b/c"},"m":{"a":null}}`, true, true},
	}
	typeErrs := func(errs field.ErrorList) field.ErrorList {
		var out field.ErrorList
		for _, e := range errs {
			if e.Type == field.TypeTypeInvalid {
				out = append(out, e)
			}
		}
		return out
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj, err := jsonx.DecodeObject([]byte(c.obj))
			if err != nil {
				t.Fatal(err)
			}
			all, value := Validate(&s, obj), ValidateValue(&s, obj)
			if !reflect.DeepEqual(typeErrs(all), typeErrs(value)) {
				t.Fatalf("Validate's type errors %v, ValidateValue's %v", typeErrs(all), typeErrs(value))
			}
			if got := len(typeErrs(all)) > 0; got != c.types {
				t.Fatalf("type errors: %v, want some: %v", all, c.types)
			}
			if got := len(all) > len(value); got != c.others {
				t.Fatalf("Validate %v, ValidateValue %v: want more from the other walks: %v", all, value, c.others)
			}
		})
	}
}
