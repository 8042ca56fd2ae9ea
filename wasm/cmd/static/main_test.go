package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func testServer(t *testing.T) *server {
	t.Helper()
	root, web := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(root, "index.html"):           "<!doctype html>",
		filepath.Join(web, "sandbox.js"):            "export {}",
		filepath.Join(web, "sw.js"):                 "'use strict';",
		filepath.Join(web, "kubesandbox.wasm"):      "\x00asm-raw",
		filepath.Join(web, "kubesandbox.wasm.br"):   "brotli",
		filepath.Join(web, "kubesandbox.wasm.gz"):   "gzip",
		filepath.Join(filepath.Dir(root), "secret"): "no",
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := newServer(root, []string{"/web/=" + web}, true)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestServe(t *testing.T) {
	s := testServer(t)
	tests := []struct {
		name, path, acceptEncoding string
		status                     int
		body                       string
		header                     map[string]string
	}{
		{"index at root", "/", "", 200, "<!doctype html>", map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{"javascript type", "/web/sandbox.js", "", 200, "export {}", map[string]string{"Content-Type": "text/javascript; charset=utf-8"}},
		{"service worker may control the origin", "/web/sw.js", "", 200, "'use strict';", map[string]string{"Service-Worker-Allowed": "/"}},
		{"raw wasm", "/web/kubesandbox.wasm", "", 200, "\x00asm-raw", map[string]string{"Content-Type": "application/wasm", "Content-Encoding": "", "Vary": "Accept-Encoding"}},
		{"brotli preferred", "/web/kubesandbox.wasm", "gzip, deflate, br", 200, "brotli", map[string]string{"Content-Type": "application/wasm", "Content-Encoding": "br", "X-Uncompressed-Length": "8"}},
		{"gzip when br is refused", "/web/kubesandbox.wasm", "br;q=0, gzip", 200, "gzip", map[string]string{"Content-Encoding": "gzip"}},
		{"API is never answered here", "/version", "", 404, "", nil},
		{"API list neither", "/api/v1/namespaces", "", 404, "", nil},
		{"no escape from the root", "/../secret", "", 404, "", nil},
		{"no escape from a mount", "/web/../../secret", "", 404, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tc.path, nil)
			if tc.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tc.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d", rec.Code, tc.status)
			}
			if tc.body != "" && rec.Body.String() != tc.body {
				t.Errorf("body %q, want %q", rec.Body.String(), tc.body)
			}
			for k, v := range tc.header {
				if got := rec.Header().Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
	t.Run("POST is refused", func(t *testing.T) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/namespaces", nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("status %d", rec.Code)
		}
	})
}

func TestAcceptsEncoding(t *testing.T) {
	tests := []struct {
		header, token string
		want          bool
	}{
		{"gzip, deflate, br", "br", true},
		{"gzip, deflate, br", "gzip", true},
		{"gzip", "br", false},
		{"BR;q=0.5", "br", true},
		{"br; q=0", "br", false},
		{"br;q=0.0", "br", false},
		{"", "gzip", false},
		{"brotli", "br", false},
	}
	for _, tc := range tests {
		t.Run(tc.header+"/"+tc.token, func(t *testing.T) {
			if got := acceptsEncoding(tc.header, tc.token); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func FuzzAcceptsEncoding(f *testing.F) {
	for _, s := range []string{"gzip, deflate, br", "br;q=0", ";;,,q=", "br;q=abc", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		br := acceptsEncoding(header, "br")
		if br && acceptsEncoding(header+", br;q=0", "br") != br {
			t.Fatalf("first mention of br should decide: %q", header)
		}
	})
}

func FuzzResolve(f *testing.F) {
	s := &server{dirs: []mount{{"/web/", f.TempDir()}, {"/", f.TempDir()}}}
	for _, p := range []string{"/", "/web/", "/../x", "/web/../../etc/passwd", "//", "/web"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		file, ok := s.resolve(p)
		if ok {
			rel0, err0 := filepath.Rel(s.dirs[0].dir, file)
			rel1, err1 := filepath.Rel(s.dirs[1].dir, file)
			if (err0 != nil || filepath.IsAbs(rel0) || len(rel0) > 1 && rel0[:2] == "..") &&
				(err1 != nil || filepath.IsAbs(rel1) || len(rel1) > 1 && rel1[:2] == "..") {
				t.Fatalf("%q resolved outside the served directories: %s", p, file)
			}
		}
	})
}
