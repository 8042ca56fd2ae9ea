package apiserver

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// What the kinds' hooks (resource.Hooks, implemented in core/builtin) do,
// seen through the API: the generic server calls them and knows no kind.

const (
	hooksCRDs    = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	hooksCRD     = hooksCRDs + "/widgets.example.com"
	hooksWidgets = "/apis/example.com/v1/namespaces/team/widgets"
	hooksJSON    = "application/json"
	hooksMerge   = "application/merge-patch+json"
)

func metaOf(obj map[string]any) map[string]any {
	m, _ := obj["metadata"].(map[string]any)
	return m
}

// conditionStatus returns the status of condition typ of a CRD ("" if none).
func conditionStatus(crd map[string]any, typ string) string {
	st, _ := crd["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		if m, _ := c.(map[string]any); m["type"] == typ {
			s, _ := m["status"].(string)
			return s
		}
	}
	return ""
}

func mustDo(t *testing.T, s *Server, want int, method, path, ctype, body string) map[string]any {
	t.Helper()
	code, out := do(t, s, method, path, ctype, body)
	if code != want {
		t.Fatalf("%s %s: %d, want %d: %v", method, path, code, want, out)
	}
	return out
}

// A CRD's life: created, it is Established and its resource is served at
// once; deleted, its objects go (finalizers or not), then the endpoint,
// then the CRD.
func TestCRDLifecycle(t *testing.T) {
	s := New(Options{})
	seed(t, s) // namespace team, the widgets CRD, widget w1
	mustDo(t, s, 201, "POST", hooksWidgets, hooksJSON, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"pinned","finalizers":["example.com/hold"]}}`)

	t.Run("created: established and served", func(t *testing.T) {
		crd := mustDo(t, s, 200, "GET", hooksCRD, "", "")
		for _, c := range []string{"NamesAccepted", "Established"} {
			if got := conditionStatus(crd, c); got != "True" {
				t.Errorf("condition %s = %q, want True", c, got)
			}
		}
		names, _ := crd["status"].(map[string]any)["acceptedNames"].(map[string]any)
		if names["kind"] != "Widget" || names["plural"] != "widgets" {
			t.Errorf("acceptedNames %v", names)
		}
		list := mustDo(t, s, 200, "GET", hooksWidgets, "", "")
		if items, _ := list["items"].([]any); len(items) != 2 {
			t.Errorf("%d widgets, want 2", len(items))
		}
	})
	t.Run("updated: served as it now is", func(t *testing.T) {
		mustDo(t, s, 200, "PATCH", hooksCRD, hooksMerge, `{"spec":{"names":{"shortNames":["wd"]}}}`)
		list := mustDo(t, s, 200, "GET", "/apis/example.com/v1", "", "")
		rs, _ := list["resources"].([]any)
		var short []any
		for _, r := range rs {
			if m, _ := r.(map[string]any); m["name"] == "widgets" {
				short, _ = m["shortNames"].([]any)
			}
		}
		if len(short) != 1 || short[0] != "wd" {
			t.Errorf("shortNames %v, want [wd]", short)
		}
	})
	t.Run("deleted: objects, endpoint and CRD are gone", func(t *testing.T) {
		out := mustDo(t, s, 200, "DELETE", hooksCRD, "", "")
		if metaOf(out)["deletionTimestamp"] == nil || conditionStatus(out, "Terminating") != "True" {
			t.Errorf("DELETE answered %v", out)
		}
		for _, p := range []string{hooksWidgets + "/pinned", hooksWidgets, hooksCRD} {
			if code, out := do(t, s, "GET", p, "", ""); code != 404 {
				t.Errorf("GET %s: %d %v, want 404", p, code, out)
			}
		}
	})
}

// A DELETE of an object already being deleted changes nothing (not even
// its resourceVersion); a DELETE that finds no finalizer removes it.
func TestDeleteDecisions(t *testing.T) {
	s := New(Options{})
	const cms = "/api/v1/namespaces/default/configmaps"
	mustDo(t, s, 201, "POST", cms, hooksJSON, `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`)
	mustDo(t, s, 201, "POST", cms, hooksJSON, `{"metadata":{"name":"free"}}`)

	first := mustDo(t, s, 200, "DELETE", cms+"/held", "", "")
	if metaOf(first)["deletionTimestamp"] == nil {
		t.Fatalf("held: DELETE did not mark it: %v", metaOf(first))
	}
	rev := s.Store().Rev()
	for _, tc := range []struct {
		name, path string
		want       func(out map[string]any) bool
	}{
		{"again: unchanged", cms + "/held", func(out map[string]any) bool {
			return metaOf(out)["resourceVersion"] == metaOf(first)["resourceVersion"] && s.Store().Rev() == rev
		}},
		{"no finalizer: gone, answered with a Status", cms + "/free", func(out map[string]any) bool {
			return out["kind"] == "Status" && out["status"] == "Success"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out := mustDo(t, s, 200, "DELETE", tc.path, "", ""); !tc.want(out) {
				t.Errorf("DELETE %s answered %v", tc.path, out)
			}
		})
	}
}

// Name rules, allocation, generation and the delete answer are the
// kinds' own (Hooks.Name, Hooks.Allocate, NoGeneration,
// DeleteReturnsObject).
func TestKindHooks(t *testing.T) {
	s := New(Options{})
	t.Run("name rules", func(t *testing.T) {
		for _, tc := range []struct {
			path, body string
			want       int
		}{
			{"/api/v1/namespaces", `{"metadata":{"name":"a.b"}}`, 422},                                                  // DNS label
			{"/api/v1/namespaces/default/services", `{"metadata":{"name":"1svc"},"spec":{"ports":[{"port":80}]}}`, 422}, // DNS-1035 label
			{"/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"a.b"}}`, 201},                               // DNS subdomain
		} {
			if code, out := do(t, s, "POST", tc.path, hooksJSON, tc.body); code != tc.want {
				t.Errorf("POST %s %s: %d, want %d: %v", tc.path, tc.body, code, tc.want, out)
			}
		}
	})
	t.Run("each server allocates its own cluster IPs and node ports", func(t *testing.T) {
		svc := `{"metadata":{"generateName":"s-"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`
		ip := func(out map[string]any) any { return out["spec"].(map[string]any)["clusterIP"] }
		a1 := mustDo(t, s, 201, "POST", "/api/v1/namespaces/default/services", hooksJSON, svc)
		a2 := mustDo(t, s, 201, "POST", "/api/v1/namespaces/default/services", hooksJSON, svc)
		b1 := mustDo(t, New(Options{}), 201, "POST", "/api/v1/namespaces/default/services", hooksJSON, svc)
		if ip(a1) != "10.96.0.11" || ip(a2) != "10.96.0.12" || ip(b1) != ip(a1) {
			t.Errorf("cluster IPs %v %v (another server: %v)", ip(a1), ip(a2), ip(b1))
		}
		port := a1["spec"].(map[string]any)["ports"].([]any)[0].(map[string]any)["nodePort"]
		if port != float64(30000) {
			t.Errorf("nodePort %v, want 30000", port)
		}
	})
	t.Run("generation only where the kind has one", func(t *testing.T) {
		cm := mustDo(t, s, 201, "POST", "/api/v1/namespaces/default/configmaps", hooksJSON, `{"metadata":{"name":"g"}}`)
		if g, ok := metaOf(cm)["generation"]; ok {
			t.Errorf("configmap has generation %v", g)
		}
		dep := mustDo(t, s, 201, "POST", "/apis/apps/v1/namespaces/default/deployments", hooksJSON,
			`{"metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
		if g := metaOf(dep)["generation"]; g != float64(1) {
			t.Errorf("deployment generation %v, want 1", g)
		}
	})
	t.Run("a pod's delete answers the pod, a configmap's a Status", func(t *testing.T) {
		mustDo(t, s, 201, "POST", "/api/v1/namespaces/default/pods", hooksJSON, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
		if out := mustDo(t, s, 200, "DELETE", "/api/v1/namespaces/default/pods/p?gracePeriodSeconds=0", "", ""); out["kind"] != "Pod" {
			t.Errorf("pod DELETE answered %v", out["kind"])
		}
		if out := mustDo(t, s, 200, "DELETE", "/api/v1/namespaces/default/configmaps/g", "", ""); out["kind"] != "Status" {
			t.Errorf("configmap DELETE answered %v", out["kind"])
		}
	})
}

// A write a controller fails to make is not lost: the DELETE is answered as
// kube-apiserver answers it (200, the CRD marked; its controllers run apart
// from the request), the CRD keeps its finalizer, and the next DELETE
// carries the clean-up on.
func TestControllerWriteErrors(t *testing.T) {
	seeded := func() (*persist.Mem, *Server) {
		m := persist.NewMem()
		s, err := NewDurable(Options{}, persist.New(m, persist.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		seed(t, s)
		return m, s
	}
	// the size of the record that marks the CRD deleted, from a twin
	twinMem, twin := seeded()
	rev := int64(twin.Store().Rev())
	mustDo(t, twin, 200, "DELETE", hooksCRD, "", "")
	_, recs, _ := twinMem.Load()
	markSize := -1
	for _, r := range recs {
		if r.Rev == rev+1 {
			markSize = len(r.Data)
		}
	}
	if markSize < 0 {
		t.Fatalf("no record at revision %d", rev+1)
	}

	m, s := seeded()
	m.Quota = m.Size() + markSize + 5 // the mark fits, the clean-up's writes do not
	mustDo(t, s, 200, "DELETE", hooksCRD, "", "")
	crd := mustDo(t, s, 200, "GET", hooksCRD, "", "")
	if metaOf(crd)["deletionTimestamp"] == nil {
		t.Fatalf("the marking write did not happen: %v", metaOf(crd))
	}
	if fins, _ := metaOf(crd)["finalizers"].([]any); len(fins) != 1 {
		t.Fatalf("the CRD lost its finalizer: %v", metaOf(crd)["finalizers"])
	}
	m.Quota = 0
	mustDo(t, s, 200, "DELETE", hooksCRD, "", "")
	for _, p := range []string{hooksWidgets + "/w1", hooksCRD} {
		if code, out := do(t, s, "GET", p, "", ""); code != 404 {
			t.Errorf("GET %s: %d %v, want 404", p, code, out)
		}
	}
}

// A restart resumes the deletions under way: a CRD and a namespace that a
// crash left marked, their clean-up not begun, are cleaned up and removed.
func TestRestartResumesDeletions(t *testing.T) {
	m := persist.NewMem()
	a, err := NewDurable(Options{}, persist.New(m, persist.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	seed(t, a)
	// what a crash between the marking write and the clean-up leaves: the
	// marks written straight to the store, no controller told
	mark := func(group, plural, name string, change func(obj object)) {
		t.Helper()
		res := a.reg.lookup(group, "v1", plural)
		_, _, err := a.store.Update(storageKey(res, "", name), func(cur *store.KV, next store.Revision) (store.Op, error) {
			obj, err := decodeStoredFor(res, *cur)
			if err != nil {
				return store.NoOp(), err
			}
			meta(obj)["deletionTimestamp"] = "2026-01-01T00:00:00Z"
			change(obj)
			b, err := encodeForStore(res, obj, next)
			return store.PutOp(b), err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	mark("apiextensions.k8s.io", "customresourcedefinitions", "widgets.example.com", func(obj object) {
		meta(obj)["finalizers"] = []any{"customresourcecleanup.apiextensions.k8s.io"}
	})
	mark("", "namespaces", "team", func(obj object) { obj["status"] = map[string]any{"phase": "Terminating"} })

	b, err := NewDurable(Options{}, persist.New(m, persist.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{hooksCRD, "/api/v1/namespaces/team", "/api/v1/namespaces/team/configmaps/cfg"} {
		if code, out := do(t, b, "GET", p, "", ""); code != 404 {
			t.Errorf("after restart GET %s: %d %v, want 404", p, code, metaOf(out))
		}
	}
	if n := len(b.reg.forGroupResource("example.com", "widgets")); n != 0 {
		t.Errorf("widgets still served in %d versions", n)
	}
}

// The generic server names no kind: per-kind behaviour is a hook.
func TestGenericServerNamesNoKind(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	branch := regexp.MustCompile(`Kind [!=]= "|switch [\w.]*Kind \{|case "(Namespace|Service|Pod|CustomResourceDefinition)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if branch.MatchString(line) {
				t.Errorf("%s:%d branches on a kind: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
