package testserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t testing.TB, s *Server, path, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func TestTestMode(t *testing.T) {
	s := StartT(t, Options{})
	if !strings.HasPrefix(s.URL, "https://127.0.0.1:") || s.Token == "" || s.CAData == nil {
		t.Fatalf("server %+v", s)
	}
	for _, c := range []struct {
		name, path, token string
		code              int
		message           string
	}{
		{"with the token", "/api/v1/namespaces/default", s.Token, 200, ""},
		{"without a token", "/api/v1/namespaces", "", 401, "Unauthorized"},
		{"with another token", "/api/v1/namespaces", "nope", 401, "Unauthorized"},
		{"health is open", "/readyz", "", 200, ""},
		{"version is open", "/version", "", 200, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := get(t, s, c.path, c.token)
			if code != c.code || (c.message != "" && (out["message"] != c.message || out["reason"] != "Unauthorized" || out["kind"] != "Status")) {
				t.Fatalf("%d %v, want %d %q", code, out, c.code, c.message)
			}
		})
	}
	kc := string(s.Kubeconfig())
	for _, want := range []string{"server: " + s.URL, "certificate-authority-data: ", "token: " + s.Token, "current-context: kubesandbox"} {
		if !strings.Contains(kc, want) {
			t.Errorf("kubeconfig lacks %q:\n%s", want, kc)
		}
	}
}

func TestStopOnContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, Options{PlainHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-s.done
	if _, err := http.Get(s.URL + "/readyz"); err == nil {
		t.Errorf("still serving after the context ended")
	}
}

// BenchmarkStart measures start-up to the first answered request and
// shutdown: the test mode against a bare TLS net/http server (the floor
// any in-process server pays) in the same run.
func BenchmarkStart(b *testing.B) {
	b.Run("testserver", func(b *testing.B) {
		for b.Loop() {
			s, err := Start(context.Background(), Options{})
			if err != nil {
				b.Fatal(err)
			}
			if code, _ := get(b, s, "/api/v1/namespaces/default", s.Token); code != 200 {
				b.Fatal(code)
			}
			s.Stop()
		}
	})
	b.Run("baseline-tls-httptest", func(b *testing.B) {
		for b.Loop() {
			hs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) }))
			resp, err := hs.Client().Get(hs.URL)
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
			hs.Close()
		}
	})
}
