package apiserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// fakePolicies is a CEL engine whose Admit answers what a test sets and
// records every request; CheckPolicy finds nothing.
type fakePolicies struct {
	mu    sync.Mutex
	calls []cel.AdmissionRequest
	resp  cel.AdmissionResponse
	err   error
}

func (f *fakePolicies) CheckCRD(cel.CheckCRDRequest) ([]cel.Cause, error) { return nil, nil }
func (f *fakePolicies) ValidateCustomResource(cel.CustomResourceRequest) (cel.CustomResourceResponse, error) {
	return cel.CustomResourceResponse{}, nil
}
func (f *fakePolicies) CheckPolicy(cel.CheckPolicyRequest) ([]cel.Cause, error) { return nil, nil }
func (f *fakePolicies) TypeCheck(cel.TypeCheckRequest) ([]cel.ExpressionWarning, error) {
	return nil, nil
}
func (f *fakePolicies) Admit(r cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r)
	return f.resp, f.err
}

func (f *fakePolicies) take() []cel.AdmissionRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

const (
	admPolicies = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies"
	admBindings = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings"
	admCMs      = "/api/v1/namespaces/default/configmaps"
	admPolicy   = `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"p"},"spec":{"paramKind":{"apiVersion":"v1","kind":"ConfigMap"},"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["*"],"resources":["configmaps"]}]},"validations":[{"expression":"true"}]}}`
	admBinding  = `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"b"},"spec":{"policyName":"p","paramRef":{"name":"limits","parameterNotFoundAction":"Allow"},"validationActions":["Deny"]}}`
)

func admDo(s http.Handler, method, path, ctype, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// The validating-admission step: which writes reach the engine, with what,
// and how its verdicts are answered.
func TestValidatingAdmission(t *testing.T) {
	f := &fakePolicies{}
	s := New(Options{CEL: f})
	defer s.Close()
	cm := func(name string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"},"data":{"a":"b"}}`
	}

	t.Run("no policy and binding: the engine is not asked", func(t *testing.T) {
		if w := admDo(s, "POST", admCMs, hooksJSON, cm("before")); w.Code != 201 {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
		if w := admDo(s, "POST", admPolicies, hooksJSON, admPolicy); w.Code != 201 {
			t.Fatalf("policy: %d %s", w.Code, w.Body)
		}
		if w := admDo(s, "POST", admCMs, hooksJSON, cm("policy-only")); w.Code != 201 {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
		if c := f.take(); len(c) != 0 {
			t.Fatalf("engine asked %d times without a binding", len(c))
		}
		if w := admDo(s, "POST", admBindings, hooksJSON, admBinding); w.Code != 201 {
			t.Fatalf("binding: %d %s", w.Code, w.Body)
		}
		f.take() // the binding's own create was admitted
	})

	t.Run("create: the request carries the write, policies, bindings, params and namespace", func(t *testing.T) {
		if w := admDo(s, "POST", admCMs, hooksJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"limits"},"data":{"max":"3"}}`); w.Code != 201 {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
		f.take()
		if w := admDo(s, "POST", admCMs+"?dryRun=All", hooksJSON, cm("c1")); w.Code != 201 {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
		c := f.take()
		if len(c) != 1 {
			t.Fatalf("%d calls, want 1", len(c))
		}
		r := c[0]
		if r.Operation != "CREATE" || r.Name != "c1" || r.Namespace != "default" || !r.DryRun || r.Resource.Resource != "configmaps" || r.Kind.Kind != "ConfigMap" || r.Old != nil {
			t.Errorf("request: %+v", r)
		}
		if len(r.Policies) != 1 || r.Policies[0].ParamScope != "Namespaced" || len(r.Bindings) != 1 || len(r.Bindings[0].Params) != 1 {
			t.Fatalf("policies %d (scope %q), bindings %d", len(r.Policies), r.Policies[0].ParamScope, len(r.Bindings))
		}
		var param map[string]any
		_ = json.Unmarshal(r.Bindings[0].Params[0], &param)
		if param["kind"] != "ConfigMap" || metaOf(param)["name"] != "limits" {
			t.Errorf("param: %v", param)
		}
		var ns map[string]any
		_ = json.Unmarshal(r.NamespaceObject, &ns)
		if metaOf(ns)["name"] != "default" {
			t.Errorf("namespace object: %s", r.NamespaceObject)
		}
	})

	t.Run("update, patch and delete are UPDATE and DELETE", func(t *testing.T) {
		admDo(s, "PATCH", admCMs+"/c0", hooksMerge, `{}`) // not found: no call
		admDo(s, "POST", admCMs, hooksJSON, cm("c2"))
		f.take()
		if w := admDo(s, "PATCH", admCMs+"/c2", hooksMerge, `{"data":{"x":"y"}}`); w.Code != 200 {
			t.Fatalf("patch: %d %s", w.Code, w.Body)
		}
		if w := admDo(s, "DELETE", admCMs+"/c2", "", ""); w.Code != 200 {
			t.Fatalf("delete: %d %s", w.Code, w.Body)
		}
		c := f.take()
		if len(c) != 2 || c[0].Operation != "UPDATE" || c[0].Old == nil || c[0].Object == nil || c[1].Operation != "DELETE" || c[1].Object != nil || c[1].Old == nil {
			t.Fatalf("calls: %+v", c)
		}
	})

	t.Run("Warn texts become Warning headers", func(t *testing.T) {
		f.resp = cel.AdmissionResponse{Warnings: []string{"Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': careful"}}
		defer func() { f.resp = cel.AdmissionResponse{} }()
		w := admDo(s, "POST", admCMs, hooksJSON, cm("warned"))
		if w.Code != 201 || w.Header().Get("Warning") != `299 - "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': careful"` {
			t.Fatalf("%d %q", w.Code, w.Header().Values("Warning"))
		}
	})

	t.Run("a denial is the engine's Status and nothing is stored", func(t *testing.T) {
		f.resp = cel.AdmissionResponse{Denied: json.RawMessage(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \"denied\" is forbidden: no","reason":"Forbidden","details":{"name":"denied","kind":"configmaps","causes":[{"message":"no"}]},"code":403}`)}
		defer func() { f.resp = cel.AdmissionResponse{} }()
		w := admDo(s, "POST", admCMs, hooksJSON, cm("denied"))
		if w.Code != 403 || !strings.Contains(w.Body.String(), `"message":"configmaps \"denied\" is forbidden: no"`) {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
		if w := admDo(s, "GET", admCMs+"/denied", "", ""); w.Code != 404 {
			t.Fatalf("stored after a denial: %d", w.Code)
		}
	})

	t.Run("an engine failure is an InternalError", func(t *testing.T) {
		f.err = errors.New("transport closed")
		defer func() { f.err = nil }()
		w := admDo(s, "POST", admCMs, hooksJSON, cm("broken"))
		if w.Code != 500 || !strings.Contains(w.Body.String(), `"reason":"InternalError"`) {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	})

	t.Run("a deletecollection asks once per item, without a name", func(t *testing.T) {
		f.take()
		if w := admDo(s, "DELETE", admCMs+"?labelSelector=!nothing", "", ""); w.Code != 200 {
			t.Fatalf("deletecollection: %d %s", w.Code, w.Body)
		}
		c := f.take()
		if len(c) < 3 {
			t.Fatalf("%d calls", len(c))
		}
		for _, r := range c {
			if r.Operation != "DELETE" || r.Name != "" {
				t.Errorf("item request: %s %q", r.Operation, r.Name)
			}
		}
	})
}

// Without an engine policies are stored and nothing is evaluated.
func TestValidatingAdmissionWithoutEngine(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	for _, b := range []struct{ path, body string }{{admPolicies, admPolicy}, {admBindings, admBinding}} {
		if w := admDo(s, "POST", b.path, hooksJSON, b.body); w.Code != 201 {
			t.Fatalf("%s: %d %s", b.path, w.Code, w.Body)
		}
	}
	if w := admDo(s, "POST", admCMs, hooksJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`); w.Code != 201 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}
