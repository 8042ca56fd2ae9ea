package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// The discovery facts kube-apiserver v1.37.2 (the oracle) answers that
// `kubectl api-resources` does not show: each resource's storageVersionHash
// (of its storage encoding: CustomResourceDefinitions are encoded as
// v1beta1, events.k8s.io/v1 Events are core/v1 Events) and, in aggregated
// discovery, a built-in's own responseKind without group or version and
// its own subresources beside status.
func TestDiscoveryFacts(t *testing.T) {
	s := New(Options{})
	hashes := map[string]string{}
	for _, gv := range []string{"/api/v1", "/apis/events.k8s.io/v1", "/apis/apiextensions.k8s.io/v1"} {
		_, out := do(t, s, "GET", gv, "", "")
		for _, r := range out["resources"].([]any) {
			m := r.(map[string]any)
			if h, ok := m["storageVersionHash"].(string); ok {
				hashes[gv+" "+m["name"].(string)] = h
			}
		}
	}
	for _, tc := range []struct{ name, key, want string }{
		{"pods", "/api/v1 pods", "xPOwRZ+Yhw8="},
		{"configmaps", "/api/v1 configmaps", "qFsyl6wFWjQ="},
		{"podtemplates", "/api/v1 podtemplates", "LIXB2x4IFpk="},
		{"events.k8s.io events are stored as core events", "/apis/events.k8s.io/v1 events", "r2yiGXH7wu8="},
		{"CRDs are encoded as v1beta1", "/apis/apiextensions.k8s.io/v1 customresourcedefinitions", "jfWCUB31mvA="},
	} {
		t.Run("hash "+tc.name, func(t *testing.T) {
			if got := hashes[tc.key]; got != tc.want {
				t.Errorf("storageVersionHash %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("aggregated pods", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/api", nil)
		req.Header.Set("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		var list struct {
			Items []struct {
				Versions []struct {
					Resources []struct {
						Resource     string          `json:"resource"`
						ResponseKind json.RawMessage `json:"responseKind"`
						Subresources []struct {
							Subresource  string          `json:"subresource"`
							ResponseKind json.RawMessage `json:"responseKind"`
						} `json:"subresources"`
					} `json:"resources"`
				} `json:"versions"`
			} `json:"items"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || len(list.Items) != 1 {
			t.Fatalf("aggregated /api: %v %s", err, w.Body.Bytes())
		}
		var got string
		for _, r := range list.Items[0].Versions[0].Resources {
			if r.Resource != "pods" {
				continue
			}
			got = string(r.ResponseKind)
			for _, sub := range r.Subresources {
				got += " " + sub.Subresource + string(sub.ResponseKind)
			}
		}
		// the oracle's also has ephemeralcontainers, proxy and resize,
		// which the sandbox does not serve
		want := `{"group":"","version":"","kind":"Pod"} attach{"group":"","version":"","kind":"PodAttachOptions"} binding{"group":"","version":"","kind":"Binding"} ` +
			`eviction{"group":"policy","version":"v1","kind":"Eviction"} exec{"group":"","version":"","kind":"PodExecOptions"} log{"group":"","version":"","kind":"Pod"} ` +
			`portforward{"group":"","version":"","kind":"PodPortForwardOptions"} status{"group":"","version":"","kind":"Pod"}`
		if got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	})
}
