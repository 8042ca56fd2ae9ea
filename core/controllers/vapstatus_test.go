package controllers_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

// typeChecker is a CEL engine whose TypeCheck records its requests and
// warns about every expression naming "replicass" (the real check is the
// cel module's, replayed against kube-controller-manager's transcript
// cel-vap-status there).
type typeChecker struct {
	mu   sync.Mutex
	reqs []cel.TypeCheckRequest
}

func (f *typeChecker) CheckCRD(cel.CheckCRDRequest) ([]cel.Cause, error) { return nil, nil }
func (f *typeChecker) ValidateCustomResource(cel.CustomResourceRequest) (cel.CustomResourceResponse, error) {
	return cel.CustomResourceResponse{}, nil
}
func (f *typeChecker) CheckPolicy(cel.CheckPolicyRequest) ([]cel.Cause, error) { return nil, nil }
func (f *typeChecker) Admit(cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	return cel.AdmissionResponse{}, nil
}
func (f *typeChecker) TypeCheck(r cel.TypeCheckRequest) ([]cel.ExpressionWarning, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
	var p struct {
		Spec struct{ Validations []struct{ Expression string } }
	}
	if err := json.Unmarshal(r.Policy, &p); err != nil {
		return nil, err
	}
	var out []cel.ExpressionWarning
	for i, v := range p.Spec.Validations {
		if strings.Contains(v.Expression, "replicass") {
			out = append(out, cel.ExpressionWarning{FieldRef: "spec.validations[" + string(rune('0'+i)) + "].expression", Warning: "undefined field 'replicass'"})
		}
	}
	return out, nil
}

func (f *typeChecker) requests() []cel.TypeCheckRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]cel.TypeCheckRequest(nil), f.reqs...)
}

// startWithEngine runs the controllers (no Nodes) beside a server with e.
func startWithEngine(t *testing.T, e cel.Engine) *env {
	t.Helper()
	return startWith(t, apiserver.Options{CEL: e}, controllers.Options{})
}

const vapPath = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies"

func policy(name string, rules []m, exprs ...string) m {
	var vs []any
	for _, x := range exprs {
		vs = append(vs, m{"expression": x})
	}
	var rs []any
	for _, r := range rules {
		rs = append(rs, r)
	}
	return m{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
		"metadata": m{"name": name},
		"spec":     m{"matchConstraints": m{"resourceRules": rs}, "validations": vs}}
}

var deploymentsRule = m{"apiGroups": []any{"apps"}, "apiVersions": []any{"v1"}, "operations": []any{"CREATE"}, "resources": []any{"deployments"}}

// waitObserved waits for status.observedGeneration to reach gen.
func (e *env) waitObserved(name string, gen int64) m {
	e.t.Helper()
	var p m
	e.eventually(name+" observedGeneration", func() (bool, string) {
		p = e.must(200, "GET", vapPath+"/"+name, "", nil)
		return geti(p, "status", "observedGeneration") == gen, string(jsonOf(get(p, "status")))
	})
	return p
}

func jsonOf(v any) []byte { b, _ := json.Marshal(v); return b }

func TestPolicyStatus(t *testing.T) {
	tc := &typeChecker{}
	e := startWithEngine(t, tc)
	t.Run("warnings and observedGeneration, applied by the status controller", func(t *testing.T) {
		e.must(201, "POST", vapPath, "application/json", policy("bad", []m{deploymentsRule}, "object.spec.replicas < 5", "object.spec.replicass < 5"))
		p := e.waitObserved("bad", 1)
		if got, want := string(jsonOf(get(p, "status", "typeChecking"))), `{"expressionWarnings":[{"fieldRef":"spec.validations[1].expression","warning":"undefined field 'replicass'"}]}`; got != want {
			t.Errorf("typeChecking = %s, want %s", got, want)
		}
		mf, _ := get(p, "metadata", "managedFields").([]any)
		var managers []string
		for _, f := range mf {
			managers = append(managers, gets(f, "manager")+" "+gets(f, "operation")+" "+gets(f, "subresource"))
		}
		if !strings.Contains(strings.Join(managers, ","), "validatingadmissionpolicy-status Apply status") {
			t.Errorf("managedFields managers = %v", managers)
		}
	})
	t.Run("the request: kinds and schemas of the named group-versions", func(t *testing.T) {
		reqs := tc.requests()
		if len(reqs) == 0 {
			t.Fatal("no TypeCheck")
		}
		r := reqs[0]
		found := false
		for _, k := range r.Kinds {
			if k.Resource.Resource == "deployments" && k.Kind.Kind == "Deployment" && k.Kind.Group == "apps" {
				found = true
			}
			if strings.Contains(k.Resource.Resource, "/") {
				t.Errorf("subresource %s among the kinds", k.Resource.Resource)
			}
		}
		if !found {
			t.Errorf("kinds = %v, want deployments → apps/v1 Deployment", r.Kinds)
		}
		if doc := r.Schemas["apis/apps/v1"]; !strings.Contains(string(doc), `"io.k8s.api.apps.v1.Deployment"`) {
			t.Errorf("schemas = %d documents, want apis/apps/v1 with Deployment", len(r.Schemas))
		}
	})
	t.Run("no warnings: an empty typeChecking", func(t *testing.T) {
		e.must(201, "POST", vapPath, "application/json", policy("ok", []m{deploymentsRule}, "object.spec.replicas < 5"))
		p := e.waitObserved("ok", 1)
		if got := string(jsonOf(get(p, "status"))); got != `{"observedGeneration":1,"typeChecking":{}}` {
			t.Errorf("status = %s", got)
		}
	})
	t.Run("paramKind's schema; wildcards name no group-version", func(t *testing.T) {
		before := len(tc.requests())
		wild := m{"apiGroups": []any{"*"}, "apiVersions": []any{"v1"}, "operations": []any{"CREATE"}, "resources": []any{"deployments"}}
		p := policy("wild", []m{wild}, "object.spec.replicass < 5")
		p["spec"].(m)["paramKind"] = m{"apiVersion": "v1", "kind": "ConfigMap"}
		e.must(201, "POST", vapPath, "application/json", p)
		e.waitObserved("wild", 1)
		reqs := tc.requests()[before:]
		if len(reqs) != 1 {
			t.Fatalf("%d TypeCheck calls, want 1", len(reqs))
		}
		if len(reqs[0].Kinds) != 0 || len(reqs[0].Schemas) != 1 || !strings.Contains(string(reqs[0].Schemas["api/v1"]), `"io.k8s.api.core.v1.ConfigMap"`) {
			t.Errorf("kinds = %v, schemas = %d (want none, and api/v1 for the params)", reqs[0].Kinds, len(reqs[0].Schemas))
		}
	})
	t.Run("a new generation is checked again, a label change is not", func(t *testing.T) {
		e.must(200, "PATCH", vapPath+"/ok", "application/merge-patch+json", m{"spec": m{"validations": []any{m{"expression": "object.spec.replicass < 3"}}}})
		p := e.waitObserved("ok", 2)
		if n := len(get(p, "status", "typeChecking", "expressionWarnings").([]any)); n != 1 {
			t.Errorf("%d warnings, want 1", n)
		}
		e.idle()
		before := len(tc.requests())
		e.must(200, "PATCH", vapPath+"/ok", "application/merge-patch+json", m{"metadata": m{"labels": m{"team": "a"}}})
		e.idle()
		if n := len(tc.requests()) - before; n != 0 {
			t.Errorf("%d TypeCheck calls after a label change, want 0", n)
		}
	})
}

// Without a CEL engine nothing is checked and no status is written.
func TestPolicyStatusWithoutEngine(t *testing.T) {
	e := startNodes(t, 0)
	e.must(201, "POST", vapPath, "application/json", policy("p", []m{deploymentsRule}, "object.spec.replicas < 5"))
	e.idle()
	if st, _ := get(e.must(200, "GET", vapPath+"/p", "", nil), "status").(map[string]any); len(st) != 0 {
		t.Errorf("status = %v, want it empty", st)
	}
}
