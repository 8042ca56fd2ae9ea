package apiserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// What a new cluster holds, as kube-apiserver v1.37.2 shows it (answers
// recorded at the oracle): the system namespaces and default/kubernetes,
// written by "kube-apiserver", and the namespaces that may not be deleted.
func TestClusterFacts(t *testing.T) {
	s := New(Options{})
	managed := func(t *testing.T, obj map[string]any) (manager, fields string) {
		t.Helper()
		mfs, _ := metaOf(obj)["managedFields"].([]any)
		if len(mfs) != 1 {
			t.Fatalf("managedFields %v", mfs)
		}
		mf := mfs[0].(map[string]any)
		b, _ := json.Marshal(mf["fieldsV1"])
		return mf["manager"].(string), string(b)
	}
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		t.Run("namespace "+ns, func(t *testing.T) {
			obj := mustDo(t, s, 200, "GET", "/api/v1/namespaces/"+ns, "", "")
			if got := metaOf(obj)["labels"]; !reflect.DeepEqual(got, map[string]any{"kubernetes.io/metadata.name": ns}) {
				t.Errorf("labels %v", got)
			}
			if got := obj["spec"]; !reflect.DeepEqual(got, map[string]any{"finalizers": []any{"kubernetes"}}) {
				t.Errorf("spec %v", got)
			}
			if got := obj["status"]; !reflect.DeepEqual(got, map[string]any{"phase": "Active"}) {
				t.Errorf("status %v", got)
			}
			// spec.finalizers and status come from the strategy, after the field manager
			if m, f := managed(t, obj); m != "kube-apiserver" || f != `{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}` {
				t.Errorf("managedFields %s %s", m, f)
			}
		})
	}
	t.Run("service default/kubernetes", func(t *testing.T) {
		obj := mustDo(t, s, 200, "GET", "/api/v1/namespaces/default/services/kubernetes", "", "")
		if got := metaOf(obj)["labels"]; !reflect.DeepEqual(got, map[string]any{"component": "apiserver", "provider": "kubernetes"}) {
			t.Errorf("labels %v", got)
		}
		spec := obj["spec"].(map[string]any)
		want := map[string]any{
			"ports":     []any{map[string]any{"name": "https", "protocol": "TCP", "port": float64(443), "targetPort": float64(6443)}},
			"clusterIP": "10.96.0.1", "clusterIPs": []any{"10.96.0.1"}, "type": "ClusterIP", "sessionAffinity": "None",
			"ipFamilies": []any{"IPv4"}, "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster",
		}
		if !reflect.DeepEqual(spec, want) {
			t.Errorf("spec %v\nwant %v", spec, want)
		}
		if m, _ := managed(t, obj); m != "kube-apiserver" {
			t.Errorf("manager %s", m)
		}
	})
	t.Run("a user's namespace: managedFields without spec.finalizers", func(t *testing.T) {
		obj := mustDo(t, s, 201, "POST", "/api/v1/namespaces?fieldManager=me", hooksJSON, `{"metadata":{"name":"mine"}}`)
		if m, f := managed(t, obj); m != "me" || f != `{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}` {
			t.Errorf("managedFields %s %s", m, f)
		}
	})
	t.Run("export leaves them out", func(t *testing.T) {
		y, err := s.Export()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(y), "kube-system") || strings.Contains(string(y), "name: kubernetes") {
			t.Errorf("export has a bootstrap object:\n%s", y)
		}
	})
}

func TestUndeletableNamespaces(t *testing.T) {
	forbidden := func(ns string) map[string]any {
		return map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
			"message": `namespaces "` + ns + `" is forbidden: this namespace may not be deleted`, "reason": "Forbidden",
			"details": map[string]any{"name": ns, "kind": "namespaces"}, "code": float64(403)}
	}
	for _, tc := range []struct {
		name, path, body string
		code             int
		want             map[string]any // the whole answer, when given
		reason           string
	}{
		{name: "default", path: "default", code: 403, want: forbidden("default")},
		{name: "kube-system", path: "kube-system", code: 403, want: forbidden("kube-system")},
		{name: "kube-public", path: "kube-public", code: 403, want: forbidden("kube-public")},
		{name: "kube-public dry run", path: "kube-public?dryRun=All", code: 403, want: forbidden("kube-public")},
		{name: "kube-node-lease may go", path: "kube-node-lease", code: 200},
		{name: "a failed precondition first", path: "default", body: `{"preconditions":{"uid":"x"}}`, code: 409, reason: "Conflict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			before := s.Store().Rev()
			code, out := do(t, s, "DELETE", "/api/v1/namespaces/"+tc.path, hooksJSON, tc.body)
			if code != tc.code {
				t.Fatalf("%d, want %d: %v", code, tc.code, out)
			}
			if tc.want != nil && !reflect.DeepEqual(out, tc.want) {
				t.Errorf("answer %v\nwant %v", out, tc.want)
			}
			if tc.reason != "" && out["reason"] != tc.reason {
				t.Errorf("reason %v", out["reason"])
			}
			if code != 200 && s.Store().Rev() != before {
				t.Errorf("a refused DELETE wrote")
			}
		})
	}
}
