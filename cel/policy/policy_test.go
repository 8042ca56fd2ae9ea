package policy_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

const (
	vaps  = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies"
	vapbs = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings"
)

func call(t *testing.T, h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if method == "PATCH" {
		r.Header.Set("Content-Type", "application/merge-patch+json")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func must(t *testing.T, w *httptest.ResponseRecorder, code int) {
	t.Helper()
	if w.Code != code {
		t.Fatalf("status %d, want %d: %s", w.Code, code, w.Body)
	}
}

func status(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("%v: %s", err, w.Body)
	}
	return m
}

// A server with the engine: each case writes a policy and a binding, then
// checks writes against them, through the HTTP handler.
func TestPolicies(t *testing.T) {
	srv := apiserver.New(apiserver.Options{CEL: engine.New()})
	defer srv.Close()
	must(t, call(t, srv, "POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"prod","labels":{"environment":"prod"}}}`), 201)
	must(t, call(t, srv, "POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dev"}}`), 201)

	policy := func(name, spec string) string {
		return `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
	}
	binding := func(name, spec string) string {
		return `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
	}
	cmRule := `"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE","UPDATE","DELETE"],"resources":["configmaps"]}]}`
	cm := func(ns, name, data string) (string, string) {
		return "/api/v1/namespaces/" + ns + "/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"},"data":` + data + `}`
	}

	t.Run("deny in namespaces selected by label, allow elsewhere", func(t *testing.T) {
		must(t, call(t, srv, "POST", vaps, policy("small", `{`+cmRule+`,"validations":[{"expression":"object == null || !has(object.data) || size(object.data) <= 1"}]}`)), 201)
		must(t, call(t, srv, "POST", vapbs, binding("small-prod", `{"policyName":"small","validationActions":["Deny"],"matchResources":{"namespaceSelector":{"matchLabels":{"environment":"prod"}}}}`)), 201)
		p, b := cm("prod", "two", `{"a":"1","b":"2"}`)
		w := call(t, srv, "POST", p, b)
		must(t, w, 422)
		if got := status(t, w)["message"]; got != `configmaps "two" is forbidden: ValidatingAdmissionPolicy 'small' with binding 'small-prod' denied request: failed expression: object == null || !has(object.data) || size(object.data) <= 1` {
			t.Errorf("message: %v", got)
		}
		p, b = cm("dev", "two", `{"a":"1","b":"2"}`)
		must(t, call(t, srv, "POST", p, b), 201)
		must(t, call(t, srv, "DELETE", vapbs+"/small-prod", ""), 200)
		p, b = cm("prod", "two", `{"a":"1","b":"2"}`)
		must(t, call(t, srv, "POST", p, b), 201) // the binding is gone
	})

	t.Run("Warn sends a Warning header and admits", func(t *testing.T) {
		must(t, call(t, srv, "POST", vapbs, binding("small-warn", `{"policyName":"small","validationActions":["Warn"]}`)), 201)
		p, b := cm("dev", "three", `{"a":"1","b":"2","c":"3"}`)
		w := call(t, srv, "POST", p, b)
		must(t, w, 201)
		if got := w.Header().Get("Warning"); got != `299 - "Validation failed for ValidatingAdmissionPolicy 'small' with binding 'small-warn': failed expression: object == null || !has(object.data) || size(object.data) <= 1"` {
			t.Errorf("Warning: %q", got)
		}
		must(t, call(t, srv, "DELETE", vapbs+"/small-warn", ""), 200)
	})

	t.Run("params by name; a missing one under Deny", func(t *testing.T) {
		// params are collected before matchConditions are evaluated (as in
		// kube's dispatcher): the params object is written before the binding
		p, b := cm("dev", "limits", `{"max":"1"}`)
		must(t, call(t, srv, "POST", p, b), 201)
		must(t, call(t, srv, "POST", vaps, policy("limit", `{"paramKind":{"apiVersion":"v1","kind":"ConfigMap"},`+cmRule+`,"matchConditions":[{"name":"not-params","expression":"object == null || object.metadata.name != 'limits'"}],"validations":[{"expression":"object == null || !has(object.data) || size(object.data) <= int(params.data.max)","messageExpression":"'at most ' + params.data.max + ' keys'","reason":"Forbidden"}]}`)), 201)
		must(t, call(t, srv, "POST", vapbs, binding("limit-absent", `{"policyName":"limit","paramRef":{"name":"absent","parameterNotFoundAction":"Deny"},"validationActions":["Deny"]}`)), 201)
		p, b = cm("dev", "one", `{"a":"1"}`)
		w := call(t, srv, "POST", p, b)
		must(t, w, 422)
		if got := status(t, w)["message"]; !strings.HasSuffix(got.(string), "denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction") {
			t.Errorf("message: %v", got)
		}
		must(t, call(t, srv, "DELETE", vapbs+"/limit-absent", ""), 200)
		must(t, call(t, srv, "POST", vapbs, binding("limit", `{"policyName":"limit","paramRef":{"name":"limits","parameterNotFoundAction":"Deny"},"validationActions":["Deny"]}`)), 201)
		must(t, call(t, srv, "POST", p, b), 201)
		w = call(t, srv, "PATCH", p+"/one", `{"data":{"b":"2"}}`)
		must(t, w, 403)
		if got := status(t, w)["message"]; got != `configmaps "one" is forbidden: ValidatingAdmissionPolicy 'limit' with binding 'limit' denied request: at most 1 keys` {
			t.Errorf("message: %v", got)
		}
		must(t, call(t, srv, "DELETE", vapbs+"/limit", ""), 200)
	})

	t.Run("an expression that does not compile is refused at creation", func(t *testing.T) {
		w := call(t, srv, "POST", vaps, policy("broken", `{`+cmRule+`,"validations":[{"expression":"object.data <"}]}`))
		must(t, w, 422)
		causes := status(t, w)["details"].(map[string]any)["causes"].([]any)
		c := causes[0].(map[string]any)
		if c["field"] != "spec.validations[0].expression" || !strings.HasPrefix(c["message"].(string), `Invalid value: "object.data <": compilation failed: ERROR: <input>:1:14: Syntax error:`) {
			t.Errorf("cause: %v", c)
		}
	})

	t.Run("request.userInfo is the service account of an issued token", func(t *testing.T) {
		must(t, call(t, srv, "POST", "/api/v1/namespaces/dev/serviceaccounts", `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"robot"}}`), 201)
		w := call(t, srv, "POST", "/api/v1/namespaces/dev/serviceaccounts/robot/token", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}}`)
		must(t, w, 201)
		token := status(t, w)["status"].(map[string]any)["token"].(string)
		must(t, call(t, srv, "POST", vaps, policy("no-robots", `{`+cmRule+`,"validations":[{"expression":"!request.userInfo.username.startsWith('system:serviceaccount:')","messageExpression":"request.userInfo.username + ' may not'"}]}`)), 201)
		must(t, call(t, srv, "POST", vapbs, binding("no-robots", `{"policyName":"no-robots","validationActions":["Deny"]}`)), 201)
		p, b := cm("dev", "by-robot", `{}`)
		r := httptest.NewRequest("POST", p, strings.NewReader(b))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+token)
		w = httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		must(t, w, 422) // no reason: Invalid
		if got := status(t, w)["message"]; got != `configmaps "by-robot" is forbidden: ValidatingAdmissionPolicy 'no-robots' with binding 'no-robots' denied request: system:serviceaccount:dev:robot may not` {
			t.Errorf("message: %v", got)
		}
		must(t, call(t, srv, "POST", p, b), 201) // without the token: the sandbox's admin
		must(t, call(t, srv, "DELETE", vapbs+"/no-robots", ""), 200)
	})

	t.Run("request.userInfo is envtest's admin with the test mode's token", func(t *testing.T) {
		must(t, call(t, srv, "POST", vaps, policy("no-admins", `{`+cmRule+`,"validations":[{"expression":"!('system:masters' in request.userInfo.groups)","messageExpression":"request.userInfo.username + ' in ' + request.userInfo.groups.join(',') + ' may not'"}]}`)), 201)
		must(t, call(t, srv, "POST", vapbs, binding("no-admins", `{"policyName":"no-admins","validationActions":["Deny"]}`)), 201)
		h := apiserver.RequireToken(srv, "s3cret", time.Now)
		p, b := cm("dev", "by-admin", `{}`)
		r := httptest.NewRequest("POST", p, strings.NewReader(b))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer s3cret")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		must(t, w, 422)
		if got := status(t, w)["message"]; got != `configmaps "by-admin" is forbidden: ValidatingAdmissionPolicy 'no-admins' with binding 'no-admins' denied request: admin in system:masters,system:authenticated may not` {
			t.Errorf("message: %v", got)
		}
		must(t, call(t, srv, "DELETE", vapbs+"/no-admins", ""), 200)
	})

	t.Run("an update keeps a stored expression in the stored environment", func(t *testing.T) {
		w := call(t, srv, "PATCH", vaps+"/small", `{"spec":{"failurePolicy":"Ignore"}}`)
		must(t, w, 200)
	})
}

// Every call of the Policies half goes through core/cel's JSON Dispatch as
// the browser's transport sends it.
func TestDispatch(t *testing.T) {
	e := engine.New()
	for _, tc := range []struct{ name, method, req, want string }{
		{"CheckPolicy of a binding", "CheckPolicy", `{"object":{"kind":"ValidatingAdmissionPolicyBinding"}}`, `null`},
		{"CheckPolicy of a bad expression", "CheckPolicy", `{"object":{"kind":"ValidatingAdmissionPolicy","metadata":{"name":"p"},"spec":{"validations":[{"expression":"1 +"}]}}}`, `"field":"spec.validations[0].expression"`},
		{"Admit without policies", "Admit", `{"operation":"CREATE","kind":{"version":"v1","kind":"ConfigMap"},"resource":{"version":"v1","resource":"configmaps"},"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}}`, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := cel.Dispatch(e, tc.method, []byte(tc.req))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("%s, want %s", out, tc.want)
			}
		})
	}
}

// FuzzAdmit: any JSON request to Admit or CheckPolicy is answered or
// refused with an error, never a panic.
func FuzzAdmit(f *testing.F) {
	f.Add(`{"operation":"CREATE","kind":{"version":"v1","kind":"ConfigMap"},"resource":{"version":"v1","resource":"configmaps"},"namespace":"d","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"d"}},"namespaceObject":{"metadata":{"name":"d"}},"policies":[{"policy":{"metadata":{"name":"p"},"spec":{"paramKind":{"apiVersion":"v1","kind":"ConfigMap"},"matchConstraints":{"namespaceSelector":{},"objectSelector":{},"resourceRules":[{"apiGroups":["*"],"apiVersions":["*"],"operations":["*"],"resources":["*"]}]},"validations":[{"expression":"params.data.a == 'b'"}]}},"paramScope":"Namespaced"}],"bindings":[{"binding":{"metadata":{"name":"b"},"spec":{"policyName":"p","paramRef":{"selector":{},"parameterNotFoundAction":"Deny"},"validationActions":["Deny"]}},"params":[{"metadata":{"name":"c","namespace":"d"},"data":{"a":"b"}}]}]}`)
	f.Add(`{"operation":"DELETE","old":{"kind":"X"},"policies":[{"policy":{"metadata":{"name":"p"},"spec":{"variables":[{"name":"v","expression":"1"}]}}}],"bindings":[{"binding":{"spec":{"policyName":"p"}}}]}`)
	f.Add(`{"object":{"kind":"ValidatingAdmissionPolicy","spec":{"matchConditions":[{"expression":"x"}]}},"old":{"spec":{}}}`)
	e := engine.New()
	f.Fuzz(func(t *testing.T, req string) {
		_, _ = cel.Dispatch(e, "Admit", []byte(req))
		_, _ = cel.Dispatch(e, "CheckPolicy", []byte(req))
	})
}
