package apiserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// ComponentStatuses are computed, read-only and deprecated, as on
// kube-apiserver v1.37.2: the sandbox's controllers are its scheduler and
// controller-manager (healthy where they run, refused connections where
// they do not), its store etcd-0.
func TestComponentStatuses(t *testing.T) {
	const cs = "/api/v1/componentstatuses"
	for _, tc := range []struct {
		name string
		opts Options
		rows [][]any
	}{
		{"controllers run", Options{Controllers: func(context.Context, http.Handler, *store.Store, func() time.Time) {}}, [][]any{
			{"scheduler", "Healthy", "ok", ""},
			{"controller-manager", "Healthy", "ok", ""},
			{"etcd-0", "Healthy", "ok", ""},
		}},
		{"no controllers", Options{}, [][]any{
			{"scheduler", "Unhealthy", `Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused`, ""},
			{"controller-manager", "Unhealthy", `Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused`, ""},
			{"etcd-0", "Healthy", "ok", ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(tc.opts)
			defer s.Close()
			cols, rows := tableCells(t, s, cs)
			if want := []string{"Name", "Status", "Message", "Error"}; !reflect.DeepEqual(cols, want) {
				t.Errorf("columns %v, want %v", cols, want)
			}
			if !reflect.DeepEqual(rows, tc.rows) {
				t.Errorf("rows %v\nwant %v", rows, tc.rows)
			}
		})
	}
	s := New(Options{})
	t.Run("get", func(t *testing.T) {
		out := mustDo(t, s, 200, "GET", cs+"/etcd-0", "", "")
		want := map[string]any{"kind": "ComponentStatus", "apiVersion": "v1", "metadata": map[string]any{"name": "etcd-0"},
			"conditions": []any{map[string]any{"type": "Healthy", "status": "True", "message": "ok"}}}
		if !reflect.DeepEqual(out, want) {
			t.Errorf("got %v", out)
		}
	})
	for _, tc := range []struct {
		name, method, path string
		code               int
		warned             bool
	}{
		{"list", "GET", cs, 200, true},
		{"unknown name", "GET", cs + "/nope", 404, true},
		{"watch", "GET", cs + "?watch=true", 405, true},
		{"create", "POST", cs, 405, false},
		{"delete", "DELETE", cs + "/etcd-0", 405, false},
		{"patch", "PATCH", cs + "/etcd-0", 405, false},
		{"namespaced path", "GET", "/api/v1/namespaces/default/componentstatuses", 404, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			if tc.method == "PATCH" {
				req.Header.Set("Content-Type", "application/merge-patch+json")
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			warned := w.Header().Get("Warning") == `299 - "v1 ComponentStatus is deprecated in v1.19+"`
			if w.Code != tc.code || warned != tc.warned {
				t.Errorf("%d warned=%v, want %d warned=%v: %s", w.Code, warned, tc.code, tc.warned, w.Body)
			}
		})
	}
}
