//go:build !js

package apiserver

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestResponseCompression: natively, answers over 128 KiB are gzipped for
// a client that accepts gzip, as kube-apiserver v1.37.2 answers (checked
// against it: a list of 150 ConfigMaps of 1 KB gzipped with Vary:
// Accept-Encoding, the same list with limit=5 and the discovery documents
// not); a watch stream never is.
func TestResponseCompression(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	const cms = "/api/v1/namespaces/default/configmaps"
	for i := 0; i < 150; i++ {
		body := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gz-%d"},"data":{"a":%q}}`, i, strings.Repeat("x", 1000))
		res, err := client.Post(srv.URL+cms, "application/json", strings.NewReader(body))
		if err != nil || res.StatusCode != 201 {
			t.Fatalf("create: %v %v", err, res)
		}
		res.Body.Close()
	}
	get := func(path, accept, encoding string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, b
	}
	const proto = "application/vnd.kubernetes.protobuf"
	for _, c := range []struct {
		name, path, accept, encoding string
		gzipped                      bool
	}{
		{"a list of 150 KB, gzip accepted", cms, "", "gzip", true},
		{"gzip among other encodings", cms, "", "deflate, gzip", true},
		{"gzip with a q value is not kube's token", cms, "", "gzip;q=1.0", false},
		{"no Accept-Encoding", cms, "", "", false},
		{"a protobuf list", cms, proto, "gzip", true},
		{"a page of 5", cms + "?limit=5", "", "gzip", false},
		{"one object", cms + "/gz-1", "", "gzip", false},
		{"a Status error", cms + "/nope", "", "gzip", false},
		{"discovery", "/api/v1", "", "gzip", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, b := get(c.path, c.accept, c.encoding)
			_, plain := get(c.path, c.accept, "")
			enc, vary := res.Header.Get("Content-Encoding"), strings.Join(res.Header.Values("Vary"), ",")
			if !c.gzipped {
				if enc != "" || strings.Contains(vary, "Accept-Encoding") || !bytes.Equal(b, plain) {
					t.Fatalf("Content-Encoding %q, Vary %q, body equal to the plain one: %v", enc, vary, bytes.Equal(b, plain))
				}
				return
			}
			if enc != "gzip" || !strings.Contains(vary, "Accept-Encoding") {
				t.Fatalf("Content-Encoding %q, Vary %q", enc, vary)
			}
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, plain) || len(plain) <= gzipThreshold {
				t.Fatalf("decompressed %d bytes equal to the plain %d: %v", len(got), len(plain), bytes.Equal(got, plain))
			}
			if len(b)*4 > len(plain) {
				t.Errorf("%d bytes gzipped from %d", len(b), len(plain))
			}
		})
	}
	t.Run("a watch stream is never gzipped", func(t *testing.T) {
		big := fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"a":%q}}`, strings.Repeat("y", 200*1024))
		res, err := client.Post(srv.URL+cms, "application/json", strings.NewReader(big))
		if err != nil || res.StatusCode != 201 {
			t.Fatalf("create: %v %v", err, res)
		}
		res.Body.Close()
		res, b := get(cms+"?watch=1&timeoutSeconds=1&resourceVersion=1", "", "gzip")
		if res.Header.Get("Content-Encoding") != "" || !bytes.Contains(b, []byte(`"name":"big"`)) {
			t.Fatalf("Content-Encoding %q, %d bytes", res.Header.Get("Content-Encoding"), len(b))
		}
	})
}
