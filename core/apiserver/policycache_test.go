package apiserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// The admission step's policies and bindings come from a snapshot that a
// write of any other kind reuses and that a write of a policy or binding
// (create, update, delete) replaces before the write answers.
func TestPolicyCache(t *testing.T) {
	f := &fakePolicies{}
	s := New(Options{CEL: f})
	defer s.Close()
	cm := func(name string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"}}`
	}
	must := func(t *testing.T, method, path, ctype, body string, code int) {
		t.Helper()
		if w := admDo(s, method, path, ctype, body); w.Code != code {
			t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
		}
	}
	expressions := func() []string {
		t.Helper()
		c := f.take()
		if len(c) == 0 {
			return nil
		}
		var out []string
		for _, p := range c[len(c)-1].Policies {
			var pol struct {
				Spec struct{ Validations []struct{ Expression string } }
			}
			_ = json.Unmarshal(p.Policy, &pol)
			for _, v := range pol.Spec.Validations {
				out = append(out, v.Expression)
			}
		}
		return out
	}

	first := s.policySnapshot()
	must(t, "POST", admCMs, hooksJSON, cm("a"), 201)
	must(t, "POST", admCMs, hooksJSON, cm("b"), 201)
	if got := s.policySnapshot(); got != first || !got.empty() {
		t.Fatalf("writes of other kinds replaced the snapshot (%p → %p) or it is not empty", first, got)
	}
	must(t, "POST", admPolicies, hooksJSON, admPolicy, 201)
	must(t, "POST", admBindings, hooksJSON, admBinding, 201)
	withBoth := s.policySnapshot()
	if withBoth == first || len(withBoth.policies) != 1 || len(withBoth.bindings) != 1 {
		t.Fatalf("after a policy and a binding: %d policies, %d bindings", len(withBoth.policies), len(withBoth.bindings))
	}
	f.take()

	for _, tc := range []struct {
		name, method, path, ctype, body string
		code                            int
		want                            string // the expressions the next write carries ("": no call)
	}{
		{"a write of another kind reuses it", "POST", admCMs, hooksJSON, cm("c"), 201, "true"},
		{"an update of the policy is seen by the next write", "PATCH", admPolicies + "/p", hooksMerge,
			`{"spec":{"validations":[{"expression":"object.data.size() < 4"}]}}`, 200, "object.data.size() < 4"},
		{"deleting the binding leaves nothing to judge", "DELETE", admBindings + "/b", "", "", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			must(t, tc.method, tc.path, tc.ctype, tc.body, tc.code)
			f.take()
			must(t, "POST", admCMs, hooksJSON, cm("x-"+strings.ReplaceAll(strings.ToLower(tc.name[:5]), " ", "")), 201)
			if got := strings.Join(expressions(), ","); got != tc.want {
				t.Errorf("the write carried %q, want %q", got, tc.want)
			}
		})
	}
	if s.policySnapshot() == withBoth {
		t.Error("the snapshot outlived the policy update")
	}
}
