package schema

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// The built-in document, as the builtin package embeds it.
func builtinDoc(t testing.TB) []byte {
	b, err := os.ReadFile("../builtin/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unmarshalDocument is the reference decoder: encoding/json through
// Schema.UnmarshalJSON.
func unmarshalDocument(doc []byte) (map[string]*Schema, error) {
	var d struct {
		Definitions map[string]*Schema `json:"definitions"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	return d.Definitions, nil
}

func TestLoadOnePassMatchesUnmarshalJSON(t *testing.T) {
	docs := map[string][]byte{
		"builtin": builtinDoc(t),
		"keywords": []byte(`{"definitions":{"a":{"type":"object","nullable":true,
			"properties":{"n":{"type":"integer","minimum":1,"maximum":5.5,"exclusiveMaximum":true,"multipleOf":2,"default":3,"enum":[1,3]},
			"s":{"type":"string","minLength":1,"maxLength":9,"pattern":"^a","format":"byte"},
			"l":{"type":"array","items":{"$ref":"b"},"minItems":0,"maxItems":3,"uniqueItems":true,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"]},
			"m":{"type":"object","additionalProperties":false,"maxProperties":2,"minProperties":1,"x-kubernetes-map-type":"atomic"},
			"x":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"not":{"required":["z"]}},
			"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"additionalProperties":{"type":"string"}},
			"p":{"allOf":[{"$ref":"#/definitions/b"}],"default":{},"x-kubernetes-patch-strategy":"merge","x-kubernetes-patch-merge-key":"k","description":"d"}},
			"required":["n"],"oneOf":[{"required":["s"]},null],"x-kubesandbox-proto":"n=1"},
			"b":{"type":"object","properties":{"k":{"type":"string"}}},"c":null,"d":{"$ref":"b"}}}`),
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			want, err := unmarshalDocument(doc)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fromDocument(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				for k := range want {
					if !reflect.DeepEqual(got[k], want[k]) {
						g, _ := json.Marshal(got[k])
						w, _ := json.Marshal(want[k])
						t.Errorf("%s:\n got %s\nwant %s", k, g, w)
					}
				}
				t.Fatal("one-pass decode differs from UnmarshalJSON")
			}
			// And linked: the same graph.
			lw, err := link(want)
			if err != nil {
				t.Fatal(err)
			}
			lg, err := Load(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(lg, lw) {
				t.Fatal("linked graphs differ")
			}
		})
	}
}

func TestLoadRejectsMalformed(t *testing.T) {
	for name, doc := range map[string]string{
		"not json":         `{"definitions":`,
		"not an object":    `[]`,
		"definitions list": `{"definitions":[]}`,
		"type number":      `{"definitions":{"a":{"type":1}}}`,
		"items list":       `{"definitions":{"a":{"items":[{}]}}}`,
		"properties list":  `{"definitions":{"a":{"properties":[]}}}`,
		"bad maxLength":    `{"definitions":{"a":{"maxLength":1.5}}}`,
		"enum object":      `{"definitions":{"a":{"enum":{}}}}`,
		"dangling ref":     `{"definitions":{"a":{"$ref":"nope"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Load([]byte(doc)); err == nil {
				t.Fatal("accepted")
			}
			if _, err := unmarshalDocument([]byte(doc)); err == nil && name != "dangling ref" {
				t.Fatal("the reference decoder accepts it: the case tests nothing")
			}
		})
	}
}

// BenchmarkLoad/one-pass against BenchmarkLoad/unmarshaljson: the ratio is
// what start-up gains (the builtin package loads the document once).
func BenchmarkLoad(b *testing.B) {
	doc := builtinDoc(b)
	b.Run("one-pass", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Load(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshaljson", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d, err := unmarshalDocument(doc)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := link(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}
