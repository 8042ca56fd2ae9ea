package apiserver_test

// FuzzServeHTTP throws random requests (method, path, query, Content-Type,
// body) at a populated server. The handler recovers panics into a 500, so
// "never panic" is checked on the wire: no answer may be the recovered
// panic's "Internal error occurred: panic: ...". Every non-2xx JSON answer
// must be a well-formed Status (the root's 404 path index excepted), and
// every request must finish: watches run under a short deadline.
//
// Seeds live in testdata/fuzz/FuzzServeHTTP. Run:
//
//	go test ./core/apiserver -run '^$' -fuzz '^FuzzServeHTTP$' -fuzztime 60s

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
)

// relFuzzServer is a populated server shared by up to 100 inputs, then
// rebuilt (a fresh fixture per input would cost ~20 ms, a tenth of the
// fuzzing speed); failures print the request, which replays against a
// fresh fixture as a seed.
func relFuzzServer(t *testing.T) *apiserver.Server {
	relFuzzMu.Lock()
	defer relFuzzMu.Unlock()
	if relFuzzUses%100 == 0 {
		relFuzzSrv = relServer(t)
	}
	relFuzzUses++
	return relFuzzSrv
}

var (
	relFuzzMu   sync.Mutex
	relFuzzSrv  *apiserver.Server
	relFuzzUses int
)

var relFuzzMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE", "FROB"}

// relFuzzSeeds are also committed under testdata/fuzz/FuzzServeHTTP.
var relFuzzSeeds = []struct {
	m               uint8
	path, query, ct string
	body            string
}{
	{0, relCMs + "/cm1", "", "", ""},
	{0, relWidgets, "labelSelector=app%3Drel&limit=1", "", ""},
	{0, relWidgets, "watch=1&resourceVersion=1", "", ""},
	{1, relCMs, "", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"f1"},"data":{"a":"b"}}`},
	{1, relWidgets, "fieldValidation=Strict", relJSON, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"f1"},"spec":{"replicas":3,"bogus":1}}`},
	{1, relCMs, "", "application/yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y1\n"},
	{2, relCMs + "/cm1", "dryRun=All", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"},"data":{"count":"1"}}`},
	{2, relWidgets + "/w1/status", "", relJSON, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"status":{"phase":"X"}}`},
	{2, relWidgets + "/w1/scale", "", relJSON, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w1"},"spec":{"replicas":4}}`},
	{3, relCMs + "/cm1", "", relMerge, `{"data":{"count":null}}`},
	{3, relCMs + "/cm1", "", relJPatch, `[{"op":"test","path":"/data/count","value":"0"},{"op":"move","from":"/data/count","path":"/data/n"}]`},
	{3, relCMs + "/cm1", "", relSMP, `{"metadata":{"$patch":"replace"},"data":{"$retainKeys":["count"]}}`},
	{3, relWidgets + "/w1", "fieldManager=zed&force=true", relApply, "apiVersion: rel.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  ports:\n  - name: a\n    port: 80\n"},
	{3, relWidgets + "/w1/scale", "", relMerge, `{"spec":{"replicas":-1}}`},
	{4, relCMs + "/held", "", relJSON, `{"preconditions":{"resourceVersion":"1"},"propagationPolicy":"Foreground"}`},
	{4, relCMs, "labelSelector=app", "", ""},
	{4, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.rel.example.com", "", "", ""},
	{4, relNS + "/rel", "gracePeriodSeconds=x", "", ""},
	{0, "/apis/rel.example.com/v1", "", "", ""},
	{0, "/apis", "", "", ""},
	{0, "/api/v1/namespaces/rel/configmaps/cm1/../../pods", "", "", ""},
	{5, "/healthz/etcd", "verbose=1", "", ""},
	{9, relCMs, "", "", ""},
	{1, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "", relJSON, relWidgetCRD},
}

func FuzzServeHTTP(f *testing.F) {
	for _, s := range relFuzzSeeds {
		f.Add(s.m, s.path, s.query, s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, m uint8, path, query, ct string, body []byte) {
		if len(body) > 1<<20 {
			return
		}
		s := relFuzzServer(t)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		req := httptest.NewRequest("GET", "/", bytes.NewReader(body)).WithContext(ctx)
		req.Method = relFuzzMethods[int(m)%len(relFuzzMethods)]
		req.URL = &url.URL{Path: path, RawQuery: query}
		req.RequestURI = req.URL.RequestURI()
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.ServeHTTP(rec, req)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			buf := make([]byte, 64<<10)
			t.Fatalf("%s %s?%s did not finish; goroutines:\n%s", req.Method, path, query, buf[:runtime.Stack(buf, true)])
		}
		r := relResp{Code: rec.Code, Hdr: rec.Header(), Body: rec.Body.Bytes()}
		if strings.Contains(string(r.Body), "Internal error occurred: panic") {
			t.Fatalf("%s %s?%s (%s) panicked: %s", req.Method, path, query, ct, r.Body)
		}
		if r.Code/100 == 2 || r.Hdr.Get("Content-Type") != "application/json" {
			return
		}
		var probe map[string]any
		if json.Unmarshal(r.Body, &probe) == nil && probe["paths"] != nil && r.Code == 404 {
			return // the root path index
		}
		if _, err := relParseStatus(r); err != nil {
			t.Fatalf("%s %s?%s (%s): %d answer is not a Status: %v", req.Method, path, query, ct, r.Code, err)
		}
	})
}

var _ = http.MethodGet

// relFuzzEndpoints are the write endpoints of FuzzFailedWritesChangeNothing
// (none in the terminating namespace "doomed", whose asynchronous cleanup
// would write between two inputs).
var relFuzzEndpoints = []struct{ method, path string }{
	{"POST", relCMs},
	{"POST", relWidgets},
	{"POST", relNS},
	{"PUT", relCMs + "/cm1"},
	{"PUT", relWidgets + "/w1"},
	{"PUT", relWidgets + "/w1/status"},
	{"PUT", relWidgets + "/w1/scale"},
	{"PATCH", relCMs + "/cm1"},
	{"PATCH", relCMs + "/held"},
	{"PATCH", relWidgets + "/w1"},
	{"PATCH", relWidgets + "/wfin"},
	{"PATCH", relWidgets + "/w1/status"},
	{"PATCH", relWidgets + "/w1/scale"},
	{"PATCH", relWidgets + "/new"},
	{"DELETE", relCMs + "/cm1"},
	{"DELETE", relWidgets + "/w1"},
	{"DELETE", relCMs},
}

var relFuzzTypes = []string{relJSON, "application/yaml", relMerge, relJPatch, relSMP, relApply, "", "text/plain"}

// FuzzFailedWritesChangeNothing: random bodies, content types and options
// on the write endpoints of the fixture. Whatever the answer, a failure
// (or a dry run) leaves the store byte-identical at the same revision.
func FuzzFailedWritesChangeNothing(f *testing.F) {
	f.Add(uint8(3), uint8(0), "", []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","resourceVersion":"2"}}`))
	f.Add(uint8(7), uint8(3), "", []byte(`[{"op":"test","path":"/data/count","value":"1"}]`))
	f.Add(uint8(9), uint8(5), "fieldManager=carol", []byte("apiVersion: rel.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  color: blue\n"))
	f.Add(uint8(9), uint8(2), "dryRun=All", []byte(`{"spec":{"replicas":50}}`))
	f.Add(uint8(8), uint8(2), "", []byte(`{"metadata":{"finalizers":["example.com/hold","x/y"]}}`))
	f.Add(uint8(1), uint8(1), "", []byte("apiVersion: rel.example.com/v1\nkind: Widget\nmetadata:\n  name: n\nspec:\n  color: pink\n"))
	f.Add(uint8(14), uint8(0), "", []byte(`{"preconditions":{"uid":"x"}}`))
	f.Add(uint8(16), uint8(6), "dryRun=All", []byte(nil))
	f.Add(uint8(12), uint8(2), "", []byte(`{"spec":{"replicas":-3}}`))
	f.Fuzz(func(t *testing.T, ep, ct uint8, query string, body []byte) {
		if len(body) > 1<<20 {
			return
		}
		e := relFuzzEndpoints[int(ep)%len(relFuzzEndpoints)]
		s := relFuzzServer(t)
		before, rev := relFingerprint(s)
		req := httptest.NewRequest("GET", "/", bytes.NewReader(body))
		req.Method = e.method
		req.URL = &url.URL{Path: e.path, RawQuery: query}
		if c := relFuzzTypes[int(ct)%len(relFuzzTypes)]; c != "" {
			req.Header.Set("Content-Type", c)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		r := relResp{Code: rec.Code, Hdr: rec.Header(), Body: rec.Body.Bytes()}
		if strings.Contains(string(r.Body), "Internal error occurred: panic") {
			t.Fatalf("%s %s?%s panicked: %s", e.method, e.path, query, r.Body)
		}
		dry := req.URL.Query().Has("dryRun")
		if e.method == "DELETE" && len(body) > 0 {
			// kube's delete handlers read DeleteOptions from the body when
			// there is one and then not the query (handlers/delete.go): a
			// body without dryRun deletes for real, ?dryRun=All or not
			var o struct {
				DryRun []string `json:"dryRun"`
			}
			_ = json.Unmarshal(body, &o)
			dry = slices.Contains(o.DryRun, "All")
		}
		if r.Code/100 == 2 && !dry {
			return
		}
		if r.Code/100 != 2 {
			if _, err := relParseStatus(r); err != nil {
				t.Fatalf("%s %s?%s: %d answer is not a Status: %v", e.method, e.path, query, r.Code, err)
			}
		}
		if after, rev2 := relFingerprint(s); rev2 != rev || !bytes.Equal(after, before) {
			t.Fatalf("%s %s?%s answered %d but changed the store (rev %d → %d):\n%s",
				e.method, e.path, query, r.Code, rev, rev2, relDiffLines(string(before), string(after)))
		}
	})
}
