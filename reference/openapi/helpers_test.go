package openapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/openapi"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// widgetSchema is a CRD's openAPIV3Schema with the features the documents
// must carry: a list map, an atomic map, defaults, an int-or-string, a
// nullable field, preserved unknown fields and an embedded resource.
const widgetSchema = `{"type":"object","properties":{
 "spec":{"type":"object","required":["color"],"properties":{
  "color":{"type":"string","enum":["red","green","blue"],"default":"blue"},
  "replicas":{"type":"integer","format":"int32","minimum":0},
  "port":{"x-kubernetes-int-or-string":true},
  "note":{"type":"string","nullable":true},
  "labels":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"atomic"},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
   "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer","maximum":65535}}}},
  "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}},
 "status":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"}}}}}`

// widget is a CustomResourceDefinition's resource built by hand, as
// core/apiserver's crdResources builds it.
func widget(t testing.TB) *resource.Resource {
	t.Helper()
	v, err := jsonx.Decode([]byte(widgetSchema))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.FromCRD(v)
	if err != nil {
		t.Fatal(err)
	}
	return &resource.Resource{
		Group: "stable.example.com", Version: "v1", Resource: "widgets", Singular: "widget",
		Kind: "Widget", ListKind: "WidgetList", Namespaced: true,
		ShortNames: []string{"wdg"}, Categories: []string{"all"},
		Status: true, Scale: &resource.Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ".status.selector"},
		Schema: s, CRD: true, StorageVersion: "v1", SelectableFields: []string{"spec.color"},
	}
}

func allResources(t testing.TB) []*resource.Resource {
	return append(builtin.Resources(), widget(t))
}

// server serves the documents the way core/apiserver is to wire them:
// /openapi/v2, /openapi/v3, /openapi/v3/<gv> (a stale ?hash= redirects to
// the current one, as kube-openapi does), and /api, /apis with aggregated
// discovery chosen by the Accept header; ETag and If-None-Match as the
// real handlers do.
func server(t testing.TB, resources []*resource.Resource) *httptest.Server {
	var cache openapi.Cache
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		docs := cache.For(resources)
		p := r.URL.Path
		switch {
		case (p == "/openapi/v2" || strings.HasPrefix(p, "/openapi/v3/")) && !openapi.AcceptsJSON(r.Header.Get("Accept")):
			w.WriteHeader(http.StatusNotAcceptable)
		case p == "/openapi/v2":
			serve(w, r, "application/json", docs.V2())
		case p == "/openapi/v3":
			serve(w, r, "application/json", docs.V3Root())
		case strings.HasPrefix(p, "/openapi/v3/"):
			gv := strings.TrimPrefix(p, "/openapi/v3/")
			b, ok := docs.V3GroupVersion(gv)
			if !ok {
				http.NotFound(w, r)
				return
			}
			if h := r.URL.Query().Get("hash"); h != "" && h != openapi.Hash(b) {
				http.Redirect(w, r, "/openapi/v3/"+gv+"?hash="+openapi.Hash(b), http.StatusMovedPermanently)
				return
			}
			serve(w, r, "application/json", b)
		case p == "/api" || p == "/apis":
			if _, ok := openapi.AggregatedDiscoveryMedia(r.Header.Get("Accept")); ok {
				serve(w, r, openapi.AggregatedDiscoveryContentType, docs.AggregatedDiscovery(p == "/api"))
				return
			}
			// The unaggregated documents are core/apiserver's; the
			// clients here always ask for the aggregated ones.
			w.Header().Set("Content-Type", "application/json")
			if p == "/api" {
				_ = json.NewEncoder(w).Encode(map[string]any{"kind": "APIVersions", "versions": []string{"v1"}})
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": []any{}})
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func serve(w http.ResponseWriter, r *http.Request, contentType string, b []byte) {
	etag := `"` + openapi.Hash(b) + `"`
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Etag", etag)
	w.Header().Set("Vary", "Accept")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	_, _ = w.Write(b)
}
