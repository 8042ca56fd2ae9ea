package respbuf

import (
	"net/http"
	"testing"
)

func TestWriter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		serve http.HandlerFunc
		code  int
		body  string
	}{
		{"nothing written", func(w http.ResponseWriter, r *http.Request) {}, 200, ""},
		{"body only", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hi")) }, 200, "hi"},
		{"status then body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte("no"))
		}, 409, "no"},
		{"a later status is ignored", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("a"))
			w.WriteHeader(http.StatusInternalServerError)
		}, 200, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := New()
			tc.serve(w, nil)
			if w.Code() != tc.code || w.Body.String() != tc.body {
				t.Errorf("got %d %q, want %d %q", w.Code(), w.Body.String(), tc.code, tc.body)
			}
		})
	}
}
