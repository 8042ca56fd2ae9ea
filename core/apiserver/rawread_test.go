package apiserver

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStoredReadsEqualDecodedReads: GETs and lists answered from the
// stored bytes and the protobuf cache (rawread.go, rawlist.go) are byte
// for byte — headers included — what decoding every stored object and
// encoding the answer gives (decodeReads), for built-in kinds with
// quantities, bytes, int-or-strings and times, a custom resource and a
// cluster-scoped kind; with the cache cold, warm, and after an update.
func TestStoredReadsEqualDecodedReads(t *testing.T) {
	s := New(Options{})
	seed(t, s) // namespace team, configmap team/cfg, CRD widgets, widget team/w1
	for _, r := range []struct{ path, body string }{
		{"/api/v1/namespaces/team/secrets", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"dmFsdWU="},"stringData":{"x":"y"}}`},
		{"/api/v1/namespaces/team/pods", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"0.5","memory":"1Gi"}}}]}}`},
		{"/apis/apps/v1/namespaces/team/deployments", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"a"}},"strategy":{"rollingUpdate":{"maxSurge":"50%","maxUnavailable":1}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`},
		{"/api/v1/namespaces/team/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"quote","annotations":{"a":"<&>\"é"}},"data":{"k":"line\nnext\u2028"}}`},
	} {
		if code, out := do(t, s, "POST", r.path, "application/json", r.body); code != 201 {
			t.Fatalf("POST %s: %d %v", r.path, code, out)
		}
	}
	const pb = "application/vnd.kubernetes.protobuf"
	read := func(path, accept string, decoded bool) *httptest.ResponseRecorder {
		s.decodeReads = decoded
		defer func() { s.decodeReads = false }()
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	check := func(t *testing.T, path, accept string) {
		t.Helper()
		want := read(path, accept, true)
		for _, pass := range []string{"cold", "warm"} {
			got := read(path, accept, false)
			if got.Code != want.Code || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
				t.Fatalf("%s %s (%s): %d %q\nwant %d %q", path, accept, pass, got.Code, got.Body.Bytes(), want.Code, want.Body.Bytes())
			}
			for _, h := range []string{"Content-Type", "Warning"} {
				if g, w := got.Header().Values(h), want.Header().Values(h); len(g) != len(w) || len(g) > 0 && g[0] != w[0] {
					t.Errorf("%s %s: %s %q, want %q", path, accept, h, g, w)
				}
			}
		}
	}
	paths := []string{
		"/api/v1/namespaces/team/configmaps/cfg", "/api/v1/namespaces/team/configmaps/quote", "/api/v1/namespaces/team/configmaps",
		"/api/v1/namespaces/team/secrets/s", "/api/v1/namespaces/team/secrets",
		"/api/v1/namespaces/team/pods/p", "/api/v1/namespaces/team/pods", "/api/v1/pods",
		"/apis/apps/v1/namespaces/team/deployments/d", "/apis/apps/v1/deployments",
		"/api/v1/namespaces/team", "/api/v1/namespaces",
		"/apis/example.com/v1/namespaces/team/widgets/w1", "/apis/example.com/v1/namespaces/team/widgets",
		"/api/v1/namespaces/team/configmaps/missing", "/api/v1/namespaces/team/configmaps?limit=1",
		"/api/v1/namespaces/team/pods/p/status", "/apis/extensions/v1beta1/namespaces/team/deployments/d",
	}
	for _, accept := range []string{"application/json", pb, pb + ", application/json", "application/yaml", "*/*"} {
		for _, p := range paths {
			t.Run(accept+" "+p, func(t *testing.T) { check(t, p, accept) })
		}
	}
	t.Run("after an update the new version is answered", func(t *testing.T) {
		check(t, "/api/v1/namespaces/team/configmaps/cfg", pb) // cached
		if code, out := do(t, s, "PUT", "/api/v1/namespaces/team/configmaps/cfg", "application/json",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg"},"data":{"k":"changed"}}`); code != 200 {
			t.Fatalf("PUT: %d %v", code, out)
		}
		for _, p := range []string{"/api/v1/namespaces/team/configmaps/cfg", "/api/v1/namespaces/team/configmaps"} {
			for _, accept := range []string{pb, "application/json"} {
				check(t, p, accept)
				if w := read(p, accept, false); !bytes.Contains(w.Body.Bytes(), []byte("changed")) {
					t.Errorf("%s %s: the old version answered: %q", p, accept, w.Body.Bytes())
				}
			}
		}
	})
}

// TestCreateAnswersStoredBytes: a create's JSON answer (the stored bytes
// when nothing changes the object after the write) is what a decoding GET
// of the new object answers, as the encoding path's answer is.
func TestCreateAnswersStoredBytes(t *testing.T) {
	s := New(Options{})
	seed(t, s)
	for _, r := range []struct{ name, coll, body string }{
		{"configmap", "/api/v1/namespaces/team/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME","labels":{"a":"b"}},"data":{"k":"<&>\u2028é"}}`},
		{"secret", "/api/v1/namespaces/team/secrets", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"NAME"},"stringData":{"x":"y"}}`},
		{"pod", "/api/v1/namespaces/team/pods", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"NAME"},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":"0.5"}}}]}}`},
		{"deployment", "/apis/apps/v1/namespaces/team/deployments", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"NAME"},"spec":{"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`},
		{"custom resource", "/apis/example.com/v1/namespaces/team/widgets", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"NAME"},"spec":{"size":1}}`},
		{"namespace", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"NAME"}}`},
		{"unknown field warned", "/api/v1/namespaces/team/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"NAME"},"bogus":1}`},
	} {
		for _, decoded := range []bool{false, true} {
			name := fmt.Sprintf("%s-%v", strings.ReplaceAll(r.name, " ", "-"), decoded)
			t.Run(name, func(t *testing.T) {
				s.decodeReads = decoded
				req := httptest.NewRequest("POST", r.coll, strings.NewReader(strings.Replace(r.body, "NAME", name, 1)))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				s.ServeHTTP(w, req)
				s.decodeReads = true
				defer func() { s.decodeReads = false }()
				g := httptest.NewRecorder()
				s.ServeHTTP(g, httptest.NewRequest("GET", r.coll+"/"+name, nil))
				if w.Code != 201 || !bytes.Equal(w.Body.Bytes(), g.Body.Bytes()) || w.Header().Get("Content-Type") != g.Header().Get("Content-Type") {
					t.Fatalf("POST %d %s %q\nGET %d %s %q", w.Code, w.Header().Get("Content-Type"), w.Body.Bytes(), g.Code, g.Header().Get("Content-Type"), g.Body.Bytes())
				}
				if r.name == "unknown field warned" && len(w.Header().Values("Warning")) != 1 {
					t.Errorf("warnings %q", w.Header().Values("Warning"))
				}
			})
		}
	}
}
