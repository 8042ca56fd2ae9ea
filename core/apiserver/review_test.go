package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// The review APIs (virtual resources, builtin/auth.go), answered as
// kube-apiserver v1.37.2 with AlwaysAllow answers them (each want is the
// oracle's answer, its managedFields time and creationTimestamp
// normalised to "T"; the sandbox's user is system:anonymous where the
// oracle's proxy is an admin).
func TestReviews(t *testing.T) {
	const (
		authn = "/apis/authentication.k8s.io/v1/"
		authz = "/apis/authorization.k8s.io/v1/"
	)
	mf := func(fields string) string {
		return `"managedFields":[{"apiVersion":"authorization.k8s.io/v1","fieldsType":"FieldsV1","fieldsV1":` + fields + `,"manager":"test","operation":"Update","time":"T"}]`
	}
	invalid := func(causes, msg string) string {
		return `{"apiVersion":"v1","code":422,"details":{"causes":` + causes + `,"group":"authorization.k8s.io"},"kind":"Status","message":` + msg + `,"metadata":{},"reason":"Invalid","status":"Failure"}`
	}
	for _, tc := range []struct {
		name, method, path, body string
		code                     int
		want                     string // the whole answer, keys sorted
	}{
		{"whoami", "POST", authn + "selfsubjectreviews", `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview","metadata":{"name":"x"}}`, 201,
			`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview","metadata":{"creationTimestamp":"T"},"status":{"userInfo":{"groups":["system:unauthenticated"],"username":"system:anonymous"}}}`},
		{"token review", "POST", authn + "tokenreviews", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"abc"}}`, 201,
			`{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","metadata":{"managedFields":[{"apiVersion":"authentication.k8s.io/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:token":{}}},"manager":"test","operation":"Update","time":"T"}]},"spec":{"token":"abc"},"status":{"error":"invalid bearer token","user":{}}}`},
		{"token review without token", "POST", authn + "tokenreviews", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{}}`, 400,
			`{"apiVersion":"v1","code":400,"kind":"Status","message":"token is required for TokenReview in authentication","metadata":{},"reason":"BadRequest","status":"Failure"}`},
		{"can-i", "POST", authz + "selfsubjectaccessreviews?dryRun=All", `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"create","resource":"pods","namespace":"default"}}}`, 201,
			`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{` + mf(`{"f:spec":{"f:resourceAttributes":{".":{},"f:namespace":{},"f:resource":{},"f:verb":{}}}}`) + `},"spec":{"resourceAttributes":{"namespace":"default","resource":"pods","verb":"create"}},"status":{"allowed":true}}`},
		{"can-i neither attributes", "POST", authz + "selfsubjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{}}`, 422,
			invalid(`[{"field":"spec","message":"Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified","reason":"FieldValueInvalid"}]`,
				`".authorization.k8s.io \"\" is invalid: spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified"`)},
		{"can-i both attributes", "POST", authz + "selfsubjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"get"},"nonResourceAttributes":{"path":"/x","verb":"get"}}}`, 422,
			invalid(`[{"field":"spec","message":"Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: exactly one of nonResourceAttributes or resourceAttributes must be specified","reason":"FieldValueInvalid"}]`,
				`".authorization.k8s.io \"\" is invalid: spec: Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: exactly one of nonResourceAttributes or resourceAttributes must be specified"`)},
		{"subject access review", "POST", authz + "subjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"pods"}}}`, 201,
			`{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","metadata":{` + mf(`{"f:spec":{"f:resourceAttributes":{".":{},"f:resource":{},"f:verb":{}},"f:user":{}}}`) + `},"spec":{"resourceAttributes":{"resource":"pods","verb":"get"},"user":"bob"},"status":{"allowed":true}}`},
		{"subject access review without subject", "POST", authz + "subjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}`, 422,
			invalid(`[{"field":"spec.user","message":"Invalid value: \"\": at least one of user or group must be specified","reason":"FieldValueInvalid"}]`,
				`".authorization.k8s.io \"\" is invalid: spec.user: Invalid value: \"\": at least one of user or group must be specified"`)},
		{"local review", "POST", authz + "namespaces/team/localsubjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview","spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"pods","namespace":"team"}}}`, 201,
			`{"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview","metadata":{` + mf(`{"f:spec":{"f:resourceAttributes":{".":{},"f:namespace":{},"f:resource":{},"f:verb":{}},"f:user":{}}}`) + `,"namespace":"team"},"spec":{"resourceAttributes":{"namespace":"team","resource":"pods","verb":"get"},"user":"bob"},"status":{"allowed":true}}`},
		{"local review, other namespace", "POST", authz + "namespaces/team/localsubjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview","spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"pods","namespace":"other"}}}`, 422,
			invalid(`[{"field":"spec.resourceAttributes.namespace","message":"Invalid value: \"other\": must match metadata.namespace","reason":"FieldValueInvalid"}]`,
				`".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace: Invalid value: \"other\": must match metadata.namespace"`)},
		{"local review, non-resource", "POST", authz + "namespaces/team/localsubjectaccessreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview","spec":{"nonResourceAttributes":{"path":"/x","verb":"get"}}}`, 422,
			invalid(`[{"field":"spec.user","message":"Invalid value: \"\": at least one of user or group must be specified","reason":"FieldValueInvalid"},{"field":"spec.nonResourceAttributes","message":"Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: disallowed on this kind of request","reason":"FieldValueInvalid"}]`,
				`".authorization.k8s.io \"\" is invalid: [spec.user: Invalid value: \"\": at least one of user or group must be specified, spec.nonResourceAttributes: Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: disallowed on this kind of request]"`)},
		{"rules review", "POST", authz + "selfsubjectrulesreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"default"}}`, 201,
			`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","metadata":{},"spec":{},"status":{"incomplete":false,"nonResourceRules":[{"nonResourceURLs":["*"],"verbs":["*"]}],"resourceRules":[{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}]}}`},
		{"rules review without namespace", "POST", authz + "selfsubjectrulesreviews", `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{}}`, 400,
			`{"apiVersion":"v1","code":400,"kind":"Status","message":"no namespace on request","metadata":{},"reason":"BadRequest","status":"Failure"}`},
		{"list", "GET", authz + "selfsubjectaccessreviews", "", 405,
			`{"apiVersion":"v1","code":405,"details":{},"kind":"Status","message":"the server does not allow this method on the requested resource","metadata":{},"reason":"MethodNotAllowed","status":"Failure"}`},
		{"deletecollection", "DELETE", authz + "selfsubjectaccessreviews", "", 405,
			`{"apiVersion":"v1","code":405,"details":{},"kind":"Status","message":"the server does not allow this method on the requested resource","metadata":{},"reason":"MethodNotAllowed","status":"Failure"}`},
		{"an object", "GET", authz + "selfsubjectaccessreviews/x", "", 404,
			`{"apiVersion":"v1","code":404,"details":{},"kind":"Status","message":"the server could not find the requested resource","metadata":{},"reason":"NotFound","status":"Failure"}`},
		{"create on an object path", "POST", authz + "selfsubjectaccessreviews/x", "{}", 404,
			`{"apiVersion":"v1","code":404,"details":{},"kind":"Status","message":"the server could not find the requested resource","metadata":{},"reason":"NotFound","status":"Failure"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			seed(t, s)
			before := s.Store().Rev()
			path := tc.path
			if tc.method == "POST" {
				if !strings.Contains(path, "?") {
					path += "?fieldManager=test"
				} else {
					path += "&fieldManager=test"
				}
			}
			code, out := do(t, s, tc.method, path, hooksJSON, tc.body)
			if code != tc.code {
				t.Fatalf("%d, want %d: %v", code, tc.code, out)
			}
			if m := metaOf(out); m != nil {
				if _, ok := m["creationTimestamp"]; ok {
					m["creationTimestamp"] = "T"
				}
				if mfs, _ := m["managedFields"].([]any); len(mfs) == 1 {
					mfs[0].(map[string]any)["time"] = "T"
				}
			}
			got, _ := json.Marshal(out)
			if string(got) != tc.want {
				t.Errorf("answer\n%s\nwant\n%s", got, tc.want)
			}
			if s.Store().Rev() != before {
				t.Error("a review was stored")
			}
		})
	}
}

// Discovery lists the reviews with create as their only verb, without a
// storageVersionHash, and (aggregated) with a responseKind that names no
// group or version: kube-apiserver v1.37.2's answers.
func TestReviewDiscovery(t *testing.T) {
	s := New(Options{})
	t.Run("legacy", func(t *testing.T) {
		_, out := do(t, s, "GET", "/apis/authentication.k8s.io/v1", "", "")
		got, _ := json.Marshal(out)
		want := `{"apiVersion":"v1","groupVersion":"authentication.k8s.io/v1","kind":"APIResourceList","resources":[` +
			`{"kind":"SelfSubjectReview","name":"selfsubjectreviews","namespaced":false,"singularName":"selfsubjectreview","verbs":["create"]},` +
			`{"kind":"TokenReview","name":"tokenreviews","namespaced":false,"singularName":"tokenreview","verbs":["create"]}]}`
		if string(got) != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("aggregated", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/apis", nil)
		req.Header.Set("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		json.Unmarshal(w.Body.Bytes(), &list)
		want := `{"metadata":{"name":"authorization.k8s.io"},"versions":[{"version":"v1","resources":[` +
			`{"resource":"localsubjectaccessreviews","responseKind":{"group":"","version":"","kind":"LocalSubjectAccessReview"},"scope":"Namespaced","singularResource":"localsubjectaccessreview","verbs":["create"]},` +
			`{"resource":"selfsubjectaccessreviews","responseKind":{"group":"","version":"","kind":"SelfSubjectAccessReview"},"scope":"Cluster","singularResource":"selfsubjectaccessreview","verbs":["create"]},` +
			`{"resource":"selfsubjectrulesreviews","responseKind":{"group":"","version":"","kind":"SelfSubjectRulesReview"},"scope":"Cluster","singularResource":"selfsubjectrulesreview","verbs":["create"]},` +
			`{"resource":"subjectaccessreviews","responseKind":{"group":"","version":"","kind":"SubjectAccessReview"},"scope":"Cluster","singularResource":"subjectaccessreview","verbs":["create"]}],"freshness":"Current"}]}`
		for _, it := range list.Items {
			if strings.Contains(string(it), `"name":"authorization.k8s.io"`) {
				if string(it) != want {
					t.Errorf("got\n%s\nwant\n%s", it, want)
				}
				return
			}
		}
		t.Errorf("no authorization.k8s.io in %s", w.Body.Bytes())
	})
}
