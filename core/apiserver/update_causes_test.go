package apiserver

import "testing"

// An update with a bad label key and a bad annotation key reports each
// cause once for a built-in kind, whose declarative validation merges the
// generic metadata checks with the kind's own (ErrorList.Filter
// de-duplicates them), and three times for a custom resource and a
// CustomResourceDefinition, whose strategies run none (kube-apiserver
// v1.37.2; tests/conformance bi-status-metadata).
func TestUpdateMetadataCauses(t *testing.T) {
	const bad = `{"metadata":{"labels":{"bad key":"x"},"annotations":{"bad/key/":"v"}}}`
	dep := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	for _, c := range []struct {
		name, method, path, ctype, body string
		each                            int // causes per bad key
	}{
		{"ConfigMap PUT", "PUT", "/api/v1/namespaces/team/configmaps/cfg", hooksJSON,
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","labels":{"bad key":"x"},"annotations":{"bad/key/":"v"}}}`, 1},
		{"ConfigMap merge patch", "PATCH", "/api/v1/namespaces/team/configmaps/cfg", hooksMerge, bad, 1},
		{"Deployment merge patch", "PATCH", "/apis/apps/v1/namespaces/team/deployments/d", hooksMerge, bad, 1},
		{"Deployment status patch", "PATCH", "/apis/apps/v1/namespaces/team/deployments/d/status", hooksMerge,
			`{"metadata":{"annotations":{"bad/key/":"v"}}}`, 1},
		{"CustomResourceDefinition merge patch", "PATCH", hooksCRD, hooksMerge, bad, 3},
		{"custom resource merge patch", "PATCH", hooksWidgets + "/w1", hooksMerge, bad, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			seed(t, s)
			mustDo(t, s, 201, "POST", "/apis/apps/v1/namespaces/team/deployments", hooksJSON, dep)
			out := mustDo(t, s, 422, c.method, c.path, c.ctype, c.body)
			d, _ := out["details"].(map[string]any)
			causes, _ := d["causes"].([]any)
			count := map[string]int{}
			for _, cs := range causes {
				cs, _ := cs.(map[string]any)
				count[cs["field"].(string)]++
			}
			for f, n := range count {
				if n != c.each {
					t.Errorf("%s reported %d times, want %d: %v", f, n, c.each, causes)
				}
			}
			if len(count) == 0 {
				t.Errorf("no causes: %v", out)
			}
		})
	}
}
