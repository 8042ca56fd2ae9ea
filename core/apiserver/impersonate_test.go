package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Impersonation headers name who a request is, as kube-apiserver v1.37.2
// answered the same SelfSubjectReviews (recorded from the oracle).
func TestImpersonation(t *testing.T) {
	s := New(Options{})
	h := RequireToken(s, "s3cret", time.Now)
	for _, c := range []struct {
		name    string
		headers [][2]string
		code    int
		want    string
	}{
		{"a user", [][2]string{{"Impersonate-User", "jane"}}, 201,
			`{"groups":["system:authenticated"],"username":"jane"}`},
		{"a user with groups", [][2]string{{"Impersonate-User", "jane"}, {"Impersonate-Group", "devs"}, {"Impersonate-Group", "ops"}}, 201,
			`{"groups":["devs","ops","system:authenticated"],"username":"jane"}`},
		{"system:authenticated given keeps its place", [][2]string{{"Impersonate-User", "jane"}, {"Impersonate-Group", "system:authenticated"}, {"Impersonate-Group", "a"}}, 201,
			`{"groups":["system:authenticated","a"],"username":"jane"}`},
		{"system:unauthenticated given", [][2]string{{"Impersonate-User", "jane"}, {"Impersonate-Group", "system:unauthenticated"}}, 201,
			`{"groups":["system:unauthenticated"],"username":"jane"}`},
		{"uid and extra", [][2]string{{"Impersonate-User", "jane"}, {"Impersonate-Uid", "u1"}, {"Impersonate-Extra-My%2Fkey", "a"}, {"Impersonate-Extra-my%2fkey", "b"}}, 201,
			`{"extra":{"my/key":["a","b"]},"groups":["system:authenticated"],"uid":"u1","username":"jane"}`},
		{"a service account", [][2]string{{"Impersonate-User", "system:serviceaccount:ns1:sa1"}}, 201,
			`{"groups":["system:serviceaccounts","system:serviceaccounts:ns1","system:authenticated"],"username":"system:serviceaccount:ns1:sa1"}`},
		{"a service account with groups", [][2]string{{"Impersonate-User", "system:serviceaccount:ns1:sa1"}, {"Impersonate-Group", "g"}}, 201,
			`{"groups":["g","system:authenticated"],"username":"system:serviceaccount:ns1:sa1"}`},
		{"not a service account name", [][2]string{{"Impersonate-User", "system:serviceaccount:Bad_NS:x"}}, 201,
			`{"groups":["system:authenticated"],"username":"system:serviceaccount:Bad_NS:x"}`},
		{"a node", [][2]string{{"Impersonate-User", "system:node:n1"}}, 201,
			`{"groups":["system:nodes","system:authenticated"],"username":"system:node:n1"}`},
		{"anonymous", [][2]string{{"Impersonate-User", "system:anonymous"}, {"Impersonate-Group", "a"}}, 201,
			`{"groups":["a","system:unauthenticated"],"username":"system:anonymous"}`},
		{"groups without a user", [][2]string{{"Impersonate-Group", "devs"}, {"Impersonate-Uid", "u1"}, {"Impersonate-Extra-Scopes", "a"}}, 400,
			`{"apiVersion":"v1","code":400,"kind":"Status","message":"requested \u0026user.DefaultInfo{Name:\"\", UID:\"u1\", Groups:[]string{\"devs\"}, Extra:map[string][]string{\"scopes\":[]string{\"a\"}}} without impersonating a user name","metadata":{},"reason":"BadRequest","status":"Failure"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", ssrPath, strings.NewReader(`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer s3cret")
			for _, kv := range c.headers {
				req.Header.Add(kv[0], kv[1])
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var out map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &out)
			got := jsonOf(out)
			if rec.Code == 201 {
				got = jsonOf(out["status"].(map[string]any)["userInfo"])
			}
			if rec.Code != c.code || got != c.want {
				t.Fatalf("%d %s\nwant %d %s", rec.Code, got, c.code, c.want)
			}
		})
	}
	t.Run("without the token impersonation is 401", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/api/v1/namespaces", nil)
		req.Header.Set("Impersonate-User", "jane")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 401 {
			t.Fatalf("%d %s", rec.Code, rec.Body)
		}
	})
	t.Run("writes are the impersonated user's", func(t *testing.T) {
		req := httptest.NewRequest("POST", csrPath, strings.NewReader(csrJSON("as-jane", csrRequest(t), "example.com/signer", `["client auth"]`)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer s3cret")
		req.Header.Set("Impersonate-User", "jane")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		spec, _ := out["spec"].(map[string]any)
		if rec.Code != 201 || spec["username"] != "jane" || jsonOf(spec["groups"]) != `["system:authenticated"]` {
			t.Fatalf("%d %v", rec.Code, out)
		}
	})
}
