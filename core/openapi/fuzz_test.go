package openapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// FuzzAggregatedDiscoveryMedia: any Accept header gives a stable answer
// and only a media type this server encodes.
func FuzzAggregatedDiscoveryMedia(f *testing.F) {
	f.Add("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
	f.Add("application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.5,*/*")
	f.Add(";;,/,*,a/b/c;q=x;=;g=")
	f.Fuzz(func(t *testing.T, accept string) {
		m1, ok1 := AggregatedDiscoveryMedia(accept)
		m2, ok2 := AggregatedDiscoveryMedia(accept)
		if m1 != m2 || ok1 != ok2 {
			t.Fatal("unstable")
		}
		if ok1 != (m1 == "application/json" || m1 == "application/yaml") {
			t.Fatalf("media %q ok %v", m1, ok1)
		}
	})
}

// FuzzCustomResourceDocuments: any CRD schema that decodes gives valid v3
// and v2 documents whose references all resolve.
func FuzzCustomResourceDocuments(f *testing.F) {
	f.Add([]byte(widgetSchema))
	f.Add([]byte(`{"type":"object","x-kubernetes-preserve-unknown-fields":true}`))
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"array","nullable":true,"items":{"anyOf":[{"type":"string"}],"not":{}}},"b":{"additionalProperties":false}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := jsonx.Decode(raw)
		if err != nil {
			return
		}
		s, err := schema.FromCRD(v)
		if err != nil {
			return
		}
		r := &resource.Resource{Group: "x.example.com", Version: "v1", Resource: "things", Singular: "thing", Kind: "Thing", CRD: true, Schema: s, Status: true}
		v3, ok := V3GroupVersion([]*resource.Resource{r}, "apis/x.example.com/v1")
		if !ok {
			t.Fatal("no document")
		}
		checkDocument(t, v3, "#/components/schemas/", "components", "schemas")
		checkDocument(t, V2([]*resource.Resource{r}), "#/definitions/", "definitions")
	})
}

func checkDocument(t *testing.T, b []byte, prefix string, defsPath ...string) {
	t.Helper()
	if !json.Valid(b) {
		t.Fatalf("invalid JSON %.200s", b)
	}
	doc, err := jsonx.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	defs := doc
	for _, k := range defsPath {
		m, _ := defs.(map[string]any)
		defs = m[k]
	}
	dm, _ := defs.(map[string]any)
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				if _, found := dm[strings.TrimPrefix(ref, prefix)]; !found || !strings.HasPrefix(ref, prefix) {
					t.Fatalf("dangling $ref %q", ref)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
}
