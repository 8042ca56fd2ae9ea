package apiserver

import (
	"bufio"
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// Metadata-only answers (Accept: ...;as=PartialObjectMetadata(List)) and
// Table v1beta1, as kube-apiserver v1.37.2 answers them (compared at the
// oracle).
func TestPartialObjectMetadata(t *testing.T) {
	s := New(Options{})
	seed(t, s) // configmap team/cfg, widget team/w1
	const (
		cm  = "/api/v1/namespaces/team/configmaps/cfg"
		cms = "/api/v1/namespaces/team/configmaps"
		pom = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	)
	get := func(t *testing.T, path, accept string) (int, map[string]any) {
		t.Helper()
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v", w.Body.Bytes(), err)
		}
		return w.Code, out
	}
	_, full := get(t, cm, "application/json")
	for _, tc := range []struct {
		name, path, accept string
		code               int
		kind, apiVersion   string
		message            string // of a 406
	}{
		{"object", cm, pom, 200, "PartialObjectMetadata", "meta.k8s.io/v1", ""},
		{"object v1beta1", cm, "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1", 200, "PartialObjectMetadata", "meta.k8s.io/v1beta1", ""},
		{"list", cms, "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", 200, "PartialObjectMetadataList", "meta.k8s.io/v1", ""},
		// (with protobuf first in the list: protobuf_test.go)
		{"client-go's metadata client (JSON)", cms, "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json", 200, "PartialObjectMetadataList", "meta.k8s.io/v1", ""},
		{"custom resource", "/apis/example.com/v1/namespaces/team/widgets/w1", pom, 200, "PartialObjectMetadata", "meta.k8s.io/v1", ""},
		{"a list asked as an object", cms, pom, 406, "Status", "v1", "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)"},
		{"an object asked as a list", cm, "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", 406, "Status", "v1", "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)"},
		{"custom resources asked as an object", "/apis/example.com/v1/namespaces/team/widgets", pom, 406, "Status", "v1", "you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)"},
		{"an error stays a Status", cms + "/nope", pom, 404, "Status", "v1", ""},
		{"unknown version", cm, "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2", 406, "Status", "v1", ""},
		{"table v1beta1", cm, "application/json;as=Table;g=meta.k8s.io;v=v1beta1", 200, "Table", "meta.k8s.io/v1beta1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := get(t, tc.path, tc.accept)
			if code != tc.code || out["kind"] != tc.kind || out["apiVersion"] != tc.apiVersion {
				t.Fatalf("%d %v %v, want %d %s %s: %v", code, out["kind"], out["apiVersion"], tc.code, tc.kind, tc.apiVersion, out)
			}
			if tc.message != "" && (out["message"] != tc.message || out["reason"] != "NotAcceptable") {
				t.Errorf("answer %v", out)
			}
			switch tc.kind {
			case "PartialObjectMetadata":
				if len(out) != 3 || out["metadata"] == nil {
					t.Errorf("not metadata only: %v", out)
				}
			case "PartialObjectMetadataList":
				items, _ := out["items"].([]any)
				if len(items) != 1 {
					t.Fatalf("items %v", items)
				}
				it := items[0].(map[string]any)
				b1, _ := json.Marshal(it["metadata"])
				b2, _ := json.Marshal(full["metadata"])
				if it["kind"] != "PartialObjectMetadata" || string(b1) != string(b2) {
					t.Errorf("item %v, want the metadata of %v", it, full)
				}
			case "Table":
				rows, _ := out["rows"].([]any)
				if obj := rows[0].(map[string]any)["object"].(map[string]any); obj["apiVersion"] != "meta.k8s.io/v1beta1" {
					t.Errorf("row object %v", obj)
				}
			}
		})
	}
	t.Run("watch", func(t *testing.T) {
		req := httptest.NewRequest("GET", cms+"?watch=1&timeoutSeconds=1", nil)
		req.Header.Set("Accept", pom)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req) // the initial ADDED events, then the timeout ends it
		sc := bufio.NewScanner(w.Body)
		n := 0
		for sc.Scan() {
			var ev struct {
				Type   string         `json:"type"`
				Object map[string]any `json:"object"`
			}
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatal(err)
			}
			n++
			if ev.Type != "ADDED" || ev.Object["kind"] != "PartialObjectMetadata" || ev.Object["apiVersion"] != "meta.k8s.io/v1" || len(ev.Object) != 3 {
				t.Errorf("event %s %v", ev.Type, ev.Object)
			}
		}
		if n != 1 {
			t.Errorf("%d events, want 1", n)
		}
	})
}
