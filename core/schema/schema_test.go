package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

func mustSchema(t *testing.T, js string) *Schema {
	t.Helper()
	s := new(Schema)
	if err := json.Unmarshal([]byte(js), s); err != nil {
		t.Fatalf("decode %s: %v", js, err)
	}
	return s
}

func mustObj(t *testing.T, js string) map[string]any {
	t.Helper()
	m, err := jsonx.DecodeObject([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func jsonOf(v any) string {
	b, _ := jsonx.Marshal(v)
	return string(b)
}

func TestUnmarshalSchema(t *testing.T) {
	t.Run("additionalProperties as a schema", func(t *testing.T) {
		s := mustSchema(t, `{"type":"object","additionalProperties":{"type":"string"}}`)
		if s.AdditionalProperties == nil || s.AdditionalProperties.Type != "string" || s.AdditionalPropertiesBool != nil {
			t.Fatalf("got %+v", s)
		}
	})
	t.Run("additionalProperties as a boolean", func(t *testing.T) {
		s := mustSchema(t, `{"type":"object","additionalProperties":false}`)
		if s.AdditionalProperties != nil || s.AdditionalPropertiesBool == nil || *s.AdditionalPropertiesBool {
			t.Fatalf("got %+v", s)
		}
		b, _ := json.Marshal(s)
		if string(b) != `{"type":"object","additionalProperties":false}` {
			t.Fatalf("re-encoded as %s", b)
		}
	})
	t.Run("default and enum keep integers", func(t *testing.T) {
		s := mustSchema(t, `{"type":"integer","default":1,"enum":[1,2.5,"x"]}`)
		if s.Default != int64(1) || !reflect.DeepEqual(s.Enum, []any{int64(1), 2.5, "x"}) {
			t.Fatalf("default %#v enum %#v", s.Default, s.Enum)
		}
	})
	t.Run("items as a schema, nested", func(t *testing.T) {
		s := mustSchema(t, `{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","default":"z"}}}}`)
		if s.Items.Properties["a"].Default != "z" {
			t.Fatalf("got %+v", s.Items)
		}
	})
	for name, bad := range map[string]string{
		"items as an array":      `{"items":[{"type":"string"}]}`,
		"enum not an array":      `{"enum":3}`,
		"type not a string":      `{"type":["string","null"]}`,
		"additionalProperties 1": `{"additionalProperties":1}`,
	} {
		t.Run("rejects "+name, func(t *testing.T) {
			if err := json.Unmarshal([]byte(bad), new(Schema)); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}

func TestLoad(t *testing.T) {
	doc := `{"definitions":{
	  "Node":{"type":"object","properties":{
	    "name":{"type":"string"},
	    "children":{"type":"array","items":{"$ref":"#/definitions/Node"}},
	    "parent":{"$ref":"Node","description":"the parent"},
	    "meta":{"allOf":[{"$ref":"#/definitions/Meta"}],"default":{}}}},
	  "Meta":{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}}}},
	  "Alias":{"$ref":"Meta"}}}`
	defs, err := Load([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	node := defs["Node"]
	if node.Properties["children"].Items != node {
		t.Error("children items should link back to Node (a cycle)")
	}
	parent := node.Properties["parent"]
	if parent.Ref != "" || parent.Description != "the parent" || parent.Properties["children"].Items != node {
		t.Errorf("parent should be a copy of Node with its own description: %+v", parent)
	}
	meta := node.Properties["meta"]
	if meta.Ref != "" || meta.Type != "object" || !reflect.DeepEqual(meta.Default, map[string]any{}) ||
		meta.Properties["labels"] != defs["Meta"].Properties["labels"] {
		t.Errorf("allOf-$ref with a default should become Meta with that default: %+v", meta)
	}
	if defs["Alias"] != defs["Meta"] {
		t.Error("an alias definition should be its target")
	}
	// Walkers work through the graph: defaulting through the copy.
	obj := map[string]any{"meta": nil}
	Default(node, obj)
	if jsonOf(obj) != `{"meta":{}}` {
		t.Errorf("defaulting through refs: %s", jsonOf(obj))
	}
	for name, bad := range map[string]string{
		"unresolved": `{"definitions":{"A":{"properties":{"x":{"$ref":"Missing"}}}}}`,
		"circular":   `{"definitions":{"A":{"$ref":"B"},"B":{"$ref":"A"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Load([]byte(bad)); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}

func TestDefault(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
	  "a":{"type":"string","default":"A"},
	  "n":{"type":"string","nullable":true,"default":"N"},
	  "obj":{"type":"object","default":{},"properties":{"inner":{"type":"integer","default":7}}},
	  "list":{"type":"array","items":{"type":"object","default":{"k":"d"},"properties":{"k":{"type":"string"},"p":{"type":"string","default":"P"}}}},
	  "map":{"type":"object","additionalProperties":{"type":"object","default":{},"properties":{"x":{"type":"integer","default":1}}}}}}`)
	cases := []struct{ name, in, want string }{
		{"missing properties get defaults, recursively into defaults", `{}`,
			`{"a":"A","n":"N","obj":{"inner":7}}`},
		{"non-nullable null is defaulted, nullable null is kept", `{"a":null,"n":null}`,
			`{"a":"A","n":null,"obj":{"inner":7}}`},
		{"list items: null item takes the items default, objects get defaults", `{"list":[null,{"k":"x"}]}`,
			`{"a":"A","list":[{"k":"d","p":"P"},{"k":"x","p":"P"}],"n":"N","obj":{"inner":7}}`},
		{"map values", `{"map":{"m1":null,"m2":{"x":5}}}`,
			`{"a":"A","map":{"m1":{"x":1},"m2":{"x":5}},"n":"N","obj":{"inner":7}}`},
		{"existing values are left alone", `{"a":"given","obj":{"inner":3}}`,
			`{"a":"given","n":"N","obj":{"inner":3}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := mustObj(t, tc.in)
			Default(s, obj)
			if got := jsonOf(obj); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	t.Run("defaults are copied, not shared", func(t *testing.T) {
		o1, o2 := map[string]any{}, map[string]any{}
		Default(s, o1)
		Default(s, o2)
		o1["obj"].(map[string]any)["inner"] = int64(99)
		if jsonOf(o2["obj"]) != `{"inner":7}` || jsonOf(s.Properties["obj"].Default) != `{}` {
			t.Error("default values leaked between objects")
		}
	})
}

func TestPrune(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
	  "spec":{"type":"object","properties":{
	    "keep":{"type":"string"},
	    "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"typed":{"type":"object","properties":{"x":{"type":"string"}}}}},
	    "list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},
	    "map":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
	    "nullable":{"type":"string","nullable":true},
	    "plain":{"type":"string"},
	    "template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}}}}}}`)
	cases := []struct {
		name, in, want string
		unknown        []string
	}{
		{"unknown fields at every level, sorted",
			`{"apiVersion":"v","kind":"K","metadata":{"name":"n"},"zz":1,"spec":{"keep":"k","bogus":1,"list":[{"a":"1","b":2}],"map":{"m":{"v":"1","w":2}}}}`,
			`{"apiVersion":"v","kind":"K","metadata":{"name":"n"},"spec":{"keep":"k","list":[{"a":"1"}],"map":{"m":{"v":"1"}}}}`,
			[]string{"spec.bogus", "spec.list[0].b", "spec.map.m.w", "zz"}},
		{"preserve-unknown-fields keeps unknowns but prunes typed children",
			`{"spec":{"free":{"any":{"thing":[1]},"typed":{"x":"1","y":2}}}}`,
			`{"spec":{"free":{"any":{"thing":[1]},"typed":{"x":"1"}}}}`,
			[]string{"spec.free.typed.y"}},
		{"non-nullable nulls without default are dropped, nullable kept",
			`{"spec":{"plain":null,"nullable":null}}`,
			`{"spec":{"nullable":null}}`, nil},
		{"metadata unknown fields come first, then pruned fields",
			`{"metadata":{"name":"n","bogusMeta":1,"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"o","uid":"u","extra":true}]},"spec":{"bogus":true}}`,
			`{"metadata":{"name":"n","ownerReferences":[{"apiVersion":"v1","kind":"K","name":"o","uid":"u"}]},"spec":{}}`,
			[]string{"metadata.bogusMeta", "metadata.ownerReferences[0].extra", "spec.bogus"}},
		{"embedded resource keeps apiVersion/kind/metadata and normalises its metadata",
			`{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"},"junk":1,"annotations":{}},"spec":{"x":1},"other":2}}}`,
			`{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"}},"spec":{}}}}`,
			[]string{"spec.template.other", "spec.template.spec.x", "spec.template.metadata.junk"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := mustObj(t, tc.in)
			got := Prune(s, obj, true)
			if !reflect.DeepEqual(got, tc.unknown) {
				t.Errorf("unknown: got %q want %q", got, tc.unknown)
			}
			if jsonOf(obj) != jsonOf(mustObj(t, tc.want)) {
				t.Errorf("object:\n got %s\nwant %s", jsonOf(obj), jsonOf(mustObj(t, tc.want)))
			}
		})
	}
	t.Run("not a resource root: top-level apiVersion is pruned", func(t *testing.T) {
		obj := mustObj(t, `{"apiVersion":"v","spec":{}}`)
		if got := Prune(s, obj, false); !reflect.DeepEqual(got, []string(nil)) || jsonOf(obj) != `{"spec":{}}` {
			t.Errorf("got %q %s", got, jsonOf(obj))
		}
	})
}

func TestCoerce(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
	  "t":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}`)
	cases := []struct{ name, in, wantErr string }{
		{"labels of the wrong type", `{"metadata":{"name":"x","labels":"oops"}}`,
			"json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string"},
		{"metadata not an object", `{"metadata":"x"}`,
			"json: cannot unmarshal string into Go value of type v1.ObjectMeta"},
		{"bad creationTimestamp", `{"metadata":{"creationTimestamp":"yesterday"}}`,
			`parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{"embedded kind not a string", `{"spec":{"t":{"apiVersion":"v1","kind":5}}}`,
			"spec.t.kind: Invalid value: 5: must be a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Coerce(s, mustObj(t, tc.in), true)
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("got %v, want %s", err, tc.wantErr)
			}
		})
	}
	t.Run("Prune drops malformed metadata fields instead", func(t *testing.T) {
		obj := mustObj(t, `{"metadata":{"name":"x","labels":"oops","generation":2}}`)
		Prune(s, obj, true)
		if jsonOf(obj) != `{"metadata":{"generation":2,"name":"x"}}` {
			t.Errorf("got %s", jsonOf(obj))
		}
	})
}

func TestValidateValue(t *testing.T) {
	cases := []struct {
		name, schema, value string
		want                []string
	}{
		{"nullable accepts null", `{"type":"object","properties":{"a":{"type":"string","nullable":true}}}`, `{"a":null}`, nil},
		{"null without nullable", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":null}`,
			[]string{`a: Invalid value: "null": a in body must be of type string: "null"`}},
		{"int-or-string accepts both", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true},"b":{"x-kubernetes-int-or-string":true}}}`, `{"a":1,"b":"50%"}`, nil},
		{"int-or-string rejects a boolean", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true}}}`, `{"a":true}`,
			[]string{`a: Invalid value: "boolean": a in body must be of type integer,string: "boolean"`}},
		{"integer accepts 2.0", `{"type":"object","properties":{"a":{"type":"integer"}}}`, `{"a":2.0}`, nil},
		{"integer rejects 2.5", `{"type":"object","properties":{"a":{"type":"integer"}}}`, `{"a":2.5}`,
			[]string{`a: Invalid value: "number": a in body must be of type integer: "number"`}},
		{"pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]+$"}}}`, `{"a":"A1"}`,
			[]string{`a: Invalid value: "A1": a in body should match '^[a-z]+$'`}},
		{"minLength counts characters", `{"type":"object","properties":{"a":{"type":"string","minLength":3}}}`, `{"a":"éé"}`,
			[]string{`a: Invalid value: "éé": a in body should be at least 3 chars long`}},
		{"maxItems", `{"type":"object","properties":{"l":{"type":"array","maxItems":1,"items":{"type":"string"}}}}`, `{"l":["a","b"]}`,
			[]string{`l: Too many: 2: must have at most 1 items`}},
		{"minItems", `{"type":"object","properties":{"l":{"type":"array","minItems":2,"items":{"type":"string"}}}}`, `{"l":["a"]}`,
			[]string{`l: Invalid value: 1: l in body should have at least 2 items`}},
		{"exclusive maximum and multipleOf", `{"type":"object","properties":{"n":{"type":"integer","maximum":10,"exclusiveMaximum":true,"multipleOf":3}}}`, `{"n":10}`,
			[]string{`n: Invalid value: 10: n in body should be a multiple of 3`, `n: Invalid value: 10: n in body should be less than 10`}},
		{"number bound keeps the float", `{"type":"object","properties":{"n":{"type":"number","minimum":0.5}}}`, `{"n":0.25}`,
			[]string{`n: Invalid value: 0.25: n in body should be greater than or equal to 0.5`}},
		{"date-time format", `{"type":"object","properties":{"t":{"type":"string","format":"date-time"}}}`, `{"t":"yesterday"}`,
			[]string{`t: Invalid value: "yesterday": t in body must be of type date-time: "yesterday"`}},
		{"unsupported format is ignored", `{"type":"object","properties":{"t":{"type":"string","format":"colour"}}}`, `{"t":"x"}`, nil},
		{"valid formats", `{"type":"object","properties":{"a":{"type":"string","format":"ipv4"},"b":{"type":"string","format":"uuid"},"c":{"type":"string","format":"date"},"d":{"type":"string","format":"byte"}}}`,
			`{"a":"10.0.0.1","b":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","c":"2024-02-29","d":"aGk="}`, nil},
		{"enum of integers", `{"type":"object","properties":{"n":{"type":"integer","enum":[1,2]}}}`, `{"n":3}`,
			[]string{`n: Unsupported value: 3: supported values: "1", "2"`}},
		{"required at the root and nested", `{"type":"object","required":["spec"],"properties":{"status":{"type":"object","required":["phase"]}}}`, `{"status":{}}`,
			[]string{`status.phase: Required value`, `spec: Required value`}},
		{"map values are validated with a dotted path", `{"type":"object","properties":{"config":{"type":"object","additionalProperties":{"type":"string"}}}}`, `{"config":{"k":1}}`,
			[]string{`config.k: Invalid value: "integer": config.k in body must be of type string: "integer"`}},
		{"additionalProperties false", `{"type":"object","properties":{"o":{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}}}`, `{"o":{"a":"x","b":1}}`,
			[]string{`o: Invalid value: "b": o.b in body is a forbidden property`}},
		{"anyOf summary", `{"type":"object","properties":{"a":{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^x"}]}}}`, `{"a":"yy"}`,
			[]string{`<nil>: Invalid value: "": "a" must validate at least one schema (anyOf)`, `a: Too long: may not be more than 1 bytes`}},
		{"maxProperties", `{"type":"object","properties":{"m":{"type":"object","maxProperties":1,"additionalProperties":{"type":"string"}}}}`, `{"m":{"a":"1","b":"2"}}`,
			[]string{`m: Too many: 2: must have at most 1 items`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSchema(t, tc.schema)
			var got []string
			for _, e := range ValidateValue(s, mustObj(t, tc.value)) {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestValidateListsAndEmbedded(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
	  "set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
	  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","properties":{"name":{"type":"string"}}}},
	  "pairs":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],"items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}},
	  "t":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`)
	cases := []struct {
		name, obj string
		want      []string
	}{
		// Duplicates are compared on field, type and bad value: how a map
		// bad value is rendered belongs to core/field (apimachinery prints
		// it with %#v: map[string]interface {}{"name":"http"}).
		{"set duplicates", `{"set":["a","b","a","a"]}`, []string{`set[2] FieldValueDuplicate "a"`}},
		{"map keys", `{"ports":[{"name":"http"},{"name":"http"}]}`, []string{`ports[1] FieldValueDuplicate {"name":"http"}`}},
		{"composite map keys", `{"pairs":[{"a":"x","b":1},{"a":"x","b":1},{"a":"x","b":2}]}`, []string{`pairs[1] FieldValueDuplicate {"a":"x","b":1}`}},
		{"embedded resource without apiVersion and kind", `{"t":{"metadata":{}}}`, []string{`t.apiVersion: Required value`, `t.kind: Required value`}},
		{"embedded resource with a bad kind", `{"t":{"apiVersion":"a/b/c","kind":"Not_Ok"}}`, []string{
			`t.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
			`t.kind: Invalid value: "Not_Ok": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range Validate(s, mustObj(t, tc.obj)) {
				if e.Type == field.TypeDuplicate {
					got = append(got, e.Field+" "+string(e.Type)+" "+jsonOf(e.BadValue))
				} else {
					got = append(got, e.Error())
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	t.Run("embedded ObjectMeta hook", func(t *testing.T) {
		var seen map[string]any
		errs := ValidateWithOptions(s, mustObj(t, `{"t":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"a":"b"}}}}`), Options{
			EmbeddedObjectMeta: func(meta map[string]any, namespaced bool, p *field.Path) field.ErrorList {
				seen = meta
				return field.ErrorList{field.Invalid(p.Child("name"), meta["name"], "checked")}
			}})
		if jsonOf(seen) != `{"labels":{"a":"b"},"name":"fakename"}` || len(errs) != 1 || errs[0].Field != "t.metadata.name" {
			t.Errorf("got %s %v", jsonOf(seen), errs)
		}
	})
}

func TestValidateStructural(t *testing.T) {
	root := field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema")
	cases := []struct {
		name, schema string
		want         []string
	}{
		{"the Widget schema is structural", "", nil},
		{"missing types", `{"properties":{"spec":{"properties":{"a":{}}},"list":{"type":"array","items":{}}}}`, []string{
			"spec.versions[0].schema.openAPIV3Schema.properties[list].items.type: Required value: must not be empty for specified array items",
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields",
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
			"spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root",
		}},
		{"preserve-unknown-fields and int-or-string need no type", `{"type":"object","properties":{"a":{"x-kubernetes-preserve-unknown-fields":true},"b":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, nil},
		{"array without items, root not an object", `{"type":"array"}`, []string{
			`spec.versions[0].schema.openAPIV3Schema.items: Required value: must be specified`,
			`spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "array": must be object at the root`,
		}},
		{"nested junctor keywords", `{"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string","description":"d"}]}}}`, []string{
			"spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[0].description: Forbidden: must be empty to be structural",
			"spec.versions[0].schema.openAPIV3Schema.properties[a].anyOf[0].type: Forbidden: must be empty to be structural",
		}},
		{"metadata restricted at the root", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`, []string{
			"spec.versions[0].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
		}},
		{"metadata name allowed", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10}}}}}`, nil},
		{"embedded resource", `{"type":"object","properties":{"t":{"x-kubernetes-embedded-resource":true}}}`, []string{
			"spec.versions[0].schema.openAPIV3Schema.properties[t].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
			"spec.versions[0].schema.openAPIV3Schema.properties[t].type: Required value: must be object if x-kubernetes-embedded-resource is true",
		}},
		{"bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, []string{
			"spec.versions[0].schema.openAPIV3Schema.properties[a].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s *Schema
			if tc.schema == "" {
				s = widgetSchema(t)
			} else {
				s = mustSchema(t, tc.schema)
			}
			var got []string
			for _, e := range ValidateStructural(s, root) {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tc.want, "\n     "))
			}
		})
	}
}

func TestHasRules(t *testing.T) {
	rule := []any{map[string]any{"rule": "self.a > 0"}}
	cases := []struct {
		name string
		raw  any
		want bool
	}{
		{"none", map[string]any{"type": "object"}, false},
		{"empty list", map[string]any{"x-kubernetes-validations": []any{}}, false},
		{"root", map[string]any{"x-kubernetes-validations": rule}, true},
		{"nested property", map[string]any{"properties": map[string]any{"spec": map[string]any{"x-kubernetes-validations": rule}}}, true},
		{"list items", map[string]any{"items": map[string]any{"x-kubernetes-validations": rule}}, true},
		{"default value mentioning the key is data", map[string]any{"default": map[string]any{"x-kubernetes-validations": "x"}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := HasRules(c.raw); got != c.want {
				t.Errorf("HasRules = %v, want %v", got, c.want)
			}
		})
	}
}
