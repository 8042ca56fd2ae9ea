package apiserver

import (
	"net/http/httptest"
	"testing"
)

// An OpenAPI v3 document of a group version nobody serves is a 404 with an
// empty body whatever the client accepts (kube-apiserver v1.37.2, at the
// oracle); kubectl's validation then reports the unknown kind ("no matches
// for kind ... in version batch/v1beta1"), where a 406 made it fail with
// "the server was unable to respond with a content type that the client
// supports".
func TestOpenAPIV3UnservedGroupVersion(t *testing.T) {
	s := New(Options{})
	const proto = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf"
	for _, tc := range []struct {
		name, path, accept string
		code               int
		empty              bool
	}{
		{"unserved, JSON", "/openapi/v3/apis/batch/v1beta1", "application/json", 404, true},
		{"unserved, protobuf", "/openapi/v3/apis/batch/v1beta1", proto, 404, true},
		{"unknown group, protobuf", "/openapi/v3/apis/nope.example.com/v1", proto, 404, true},
		{"served, JSON", "/openapi/v3/apis/batch/v1", "application/json", 200, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tc.path, nil)
			req.Header.Set("Accept", tc.accept)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			if w.Code != tc.code || (w.Body.Len() == 0) != tc.empty {
				t.Fatalf("%d with %d bytes, want %d (empty %v)", w.Code, w.Body.Len(), tc.code, tc.empty)
			}
		})
	}
}

// kubectl's validation then asks for /openapi/v2 in protobuf: it gets a
// document (gnostic's openapi_v2.Document: swagger and info, no
// definitions), finds no schema for the unserved kind and goes on, as
// against a real server; JSON is still the full document, and a header
// accepting neither is 406.
func TestOpenAPIV2Protobuf(t *testing.T) {
	s := New(Options{})
	const proto = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
	for _, tc := range []struct {
		name, accept, ctype, body string
		code                      int
	}{
		{"protobuf", proto, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "\x0a\x032.0\x12\x15\x0a\x0aKubernetes\x12\x07v1.37.2", 200},
		{"protobuf or JSON", proto + ", application/json", "application/json", "", 200},
		{"neither", "application/yaml", "", "", 406},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/openapi/v2", nil)
			req.Header.Set("Accept", tc.accept)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			if w.Code != tc.code || w.Header().Get("Content-Type") != tc.ctype && tc.ctype != "" {
				t.Fatalf("%d %q, want %d %q", w.Code, w.Header().Get("Content-Type"), tc.code, tc.ctype)
			}
			if tc.body != "" && w.Body.String() != tc.body {
				t.Fatalf("body %q, want %q", w.Body.String(), tc.body)
			}
			if tc.ctype == "application/json" && w.Body.Len() < 1000 {
				t.Fatalf("JSON document of %d bytes", w.Body.Len())
			}
		})
	}
}
