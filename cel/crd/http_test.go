package crd_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// widgetCRD is the CRD: spec.replicas <= spec.maxReplicas, plus an
// immutable field; rules=false leaves the rules out.
func widgetCRD(rules bool) string {
	xv := `"x-kubernetes-validations":[{"rule":"self.replicas <= self.maxReplicas"}],`
	idRule := `,"x-kubernetes-validations":[{"rule":"self == oldSelf","message":"id is immutable"}]`
	if !rules {
		xv, idRule = "", ""
	}
	return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object",` + xv + `"properties":{"replicas":{"type":"integer"},"maxReplicas":{"type":"integer"},"id":{"type":"string"` + idRule + `}}},
"status":{"type":"object","properties":{"ready":{"type":"integer"}}}}}}}]}}`
}

const widgets = "/apis/example.com/v1/namespaces/default/widgets"

// countingEngine counts the calls reaching the real engine and can fail
// them all.
type countingEngine struct {
	*engine.Engine
	checks, validates atomic.Int32
	fail              error
}

func (c *countingEngine) CheckCRD(r cel.CheckCRDRequest) ([]cel.Cause, error) {
	c.checks.Add(1)
	if c.fail != nil {
		return nil, c.fail
	}
	return c.Engine.CheckCRD(r)
}

func (c *countingEngine) ValidateCustomResource(r cel.CustomResourceRequest) (cel.CustomResourceResponse, error) {
	c.validates.Add(1)
	if c.fail != nil {
		return cel.CustomResourceResponse{}, c.fail
	}
	return c.Engine.ValidateCustomResource(r)
}

type answer struct {
	code int
	body map[string]any
}

func do(t *testing.T, h http.Handler, method, path, ctype, body string) answer {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", ctype)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	b, _ := io.ReadAll(rec.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return answer{rec.Code, m}
}

// causes renders a Status's causes as "field: message".
func causes(a answer) []string {
	var out []string
	d, _ := a.body["details"].(map[string]any)
	cs, _ := d["causes"].([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		f, _ := m["field"].(string)
		msg, _ := m["message"].(string)
		out = append(out, f+": "+msg)
	}
	return out
}

// TestRulesThroughHandler drives writes through the HTTP handler with the
// engine and checks the answers kube-apiserver gives (the transcripts hold
// the recorded ones).
func TestRulesThroughHandler(t *testing.T) {
	const (
		jsonType  = "application/json"
		mergeType = "application/merge-patch+json"
		applyType = "application/apply-patch+yaml"
	)
	type step struct {
		method, path, ctype, body string
		code                      int
		causes                    []string
	}
	cases := []struct {
		name  string
		crd   string
		steps []step
	}{
		{"the issue's rule refuses a bad create", widgetCRD(true), []step{
			{"POST", widgets, jsonType, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":5,"maxReplicas":3}}`,
				422, []string{"spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"}},
			{"GET", widgets + "/w", "", "", 404, nil},
		}},
		{"a good create, then a merge patch and an apply breaking the rule", widgetCRD(true), []step{
			{"POST", widgets, jsonType, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":1,"maxReplicas":3,"id":"a"}}`, 201, nil},
			{"PATCH", widgets + "/w", mergeType, `{"spec":{"replicas":4}}`, 422, []string{"spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"}},
			{"PATCH", widgets + "/w?fieldManager=t&force=true", applyType, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":9}}`, 422, []string{"spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"}},
			{"PATCH", widgets + "/w?dryRun=All", mergeType, `{"spec":{"replicas":4}}`, 422, []string{"spec: Invalid value: failed rule: self.replicas <= self.maxReplicas"}},
			{"PATCH", widgets + "/w", mergeType, `{"spec":{"id":"b"}}`, 422, []string{`spec.id: Invalid value: "b": id is immutable`}},
			{"PATCH", widgets + "/w", mergeType, `{"spec":{"replicas":2}}`, 200, nil},
		}},
		{"a blocking schema error leaves the rules unchecked", widgetCRD(true), []step{
			{"POST", widgets, jsonType, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":"five","maxReplicas":3}}`,
				422, []string{
					`spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
					"<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"}},
		}},
		{"without rules anything goes", widgetCRD(false), []step{
			{"POST", widgets, jsonType, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":5,"maxReplicas":3}}`, 201, nil},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api := apiserver.New(apiserver.Options{CEL: engine.New()})
			defer api.Close()
			if a := do(t, api, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", jsonType, c.crd); a.code != 201 {
				t.Fatalf("CRD create: %d %v", a.code, a.body)
			}
			for i, s := range c.steps {
				a := do(t, api, s.method, s.path, s.ctype, s.body)
				if a.code != s.code {
					t.Fatalf("step %d %s %s: %d, want %d: %v", i, s.method, s.path, a.code, s.code, a.body)
				}
				if got := causes(a); strings.Join(got, "\n") != strings.Join(s.causes, "\n") {
					t.Errorf("step %d causes:\n got %q\nwant %q", i, got, s.causes)
				}
			}
		})
	}
}

// TestCRDCheckThroughHandler: a CRD whose rule does not compile is refused
// with kube's cause; the engine is asked only about CRDs with rules and
// only when the spec changes.
func TestCRDCheckThroughHandler(t *testing.T) {
	crds := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	bad := strings.Replace(widgetCRD(true), "self.replicas <= self.maxReplicas", "self.replicas <=", 1)
	cases := []struct {
		name   string
		crd    string
		code   int
		field  string
		checks int32
	}{
		{"a rule that does not compile", bad, 422, "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule", 1},
		{"good rules", widgetCRD(true), 201, "", 1},
		{"no rules: the engine is not asked", widgetCRD(false), 201, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &countingEngine{Engine: engine.New()}
			api := apiserver.New(apiserver.Options{CEL: e})
			defer api.Close()
			a := do(t, api, "POST", crds, "application/json", c.crd)
			if a.code != c.code {
				t.Fatalf("%d, want %d: %v", a.code, c.code, a.body)
			}
			if c.field != "" {
				got := causes(a)
				if len(got) != 1 || !strings.HasPrefix(got[0], c.field+": Invalid value: {\"Rule\":") || !strings.Contains(got[0], "compilation failed") {
					t.Errorf("causes %q, want one at %s", got, c.field)
				}
			}
			if a.code == 201 {
				// a label changes no spec: no second check
				if a := do(t, api, "PATCH", crds+"/widgets.example.com", "application/merge-patch+json", `{"metadata":{"labels":{"a":"b"}}}`); a.code != 200 {
					t.Fatalf("label patch: %d %v", a.code, a.body)
				}
			}
			if n := e.checks.Load(); n != c.checks {
				t.Errorf("CheckCRD called %d times, want %d", n, c.checks)
			}
		})
	}
}

// TestEngineFailureIsInternalError: an engine that fails (the browser's
// transport, say) answers 500 InternalError and stores nothing.
func TestEngineFailureIsInternalError(t *testing.T) {
	e := &countingEngine{Engine: engine.New()}
	api := apiserver.New(apiserver.Options{CEL: e})
	defer api.Close()
	if a := do(t, api, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", widgetCRD(true)); a.code != 201 {
		t.Fatalf("CRD create: %d %v", a.code, a.body)
	}
	e.fail = errors.New("transport closed")
	cases := []struct{ name, method, path, ctype, body string }{
		{"create", "POST", widgets, "application/json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":1,"maxReplicas":3}}`},
		{"CRD update", "PATCH", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com", "application/json-patch+json",
			`[{"op":"replace","path":"/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/rule","value":"self.replicas < self.maxReplicas"}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, api, c.method, c.path, c.ctype, c.body)
			if a.code != 500 || a.body["reason"] != "InternalError" || !strings.Contains(a.body["message"].(string), "transport closed") {
				t.Errorf("%d %v, want 500 InternalError", a.code, a.body)
			}
		})
	}
	if a := do(t, api, "GET", widgets+"/w", "", ""); a.code != 404 {
		t.Errorf("w stored after a failed check: %d", a.code)
	}
}

// TestRatchetingThroughHandler: a rule added after an object was stored
// does not refuse an update leaving the offending value as it was — its
// failure is a Warning header (kube's ratcheting) — but does refuse one
// changing it.
func TestRatchetingThroughHandler(t *testing.T) {
	api := apiserver.New(apiserver.Options{CEL: engine.New()})
	defer api.Close()
	crds := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	if a := do(t, api, "POST", crds, "application/json", widgetCRD(false)); a.code != 201 {
		t.Fatalf("CRD create: %d %v", a.code, a.body)
	}
	if a := do(t, api, "POST", widgets, "application/json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":5,"maxReplicas":3}}`); a.code != 201 {
		t.Fatalf("create: %d %v", a.code, a.body)
	}
	if a := do(t, api, "PATCH", crds+"/widgets.example.com", "application/json-patch+json",
		`[{"op":"add","path":"/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/replicas/x-kubernetes-validations","value":[{"rule":"self < 4","message":"replicas must be below 4"}]}]`); a.code != 200 {
		t.Fatalf("CRD patch: %d %v", a.code, a.body)
	}
	const warn = `299 - "spec.replicas: Invalid value: 5: replicas must be below 4"`
	cases := []struct {
		name, body string
		code       int
		warning    string
	}{
		{"an unchanged value is ratcheted", `{"spec":{"maxReplicas":9}}`, 200, warn},
		{"a changed value is checked", `{"spec":{"replicas":6}}`, 422, ""},
		{"a change to a valid value passes", `{"spec":{"replicas":2}}`, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("PATCH", widgets+"/w", strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/merge-patch+json")
			rec := httptest.NewRecorder()
			api.ServeHTTP(rec, req)
			if rec.Code != c.code {
				t.Fatalf("%d, want %d: %s", rec.Code, c.code, rec.Body)
			}
			if got := rec.Header().Get("Warning"); got != c.warning {
				t.Errorf("Warning %q, want %q", got, c.warning)
			}
		})
	}
}
