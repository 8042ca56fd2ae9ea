package apiserver

import (
	"reflect"
	"strconv"
	"testing"
)

// A create carrying metadata.resourceVersion, as kube-apiserver v1.37.2
// answers it (recorded at the oracle): etcd3's Create refuses a parsable,
// non-zero one with a plain 500 after validation and before the existence
// check; a dry run never reaches etcd and answers with the object as sent;
// apply's create stores it with a new one.
func TestCreateWithResourceVersion(t *testing.T) {
	const cms = "/api/v1/namespaces/team/configmaps"
	status500 := map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": "resourceVersion should not be set on objects to be created", "code": float64(500)}
	for _, tc := range []struct {
		name, method, path, ctype, body string
		code                            int
		status                          map[string]any // whole Status, when the answer is one
		reason                          string
		rv                              string // the answer's resourceVersion; "new": a fresh one
		stored                          bool
	}{
		{name: "create", method: "POST", path: cms, body: `{"metadata":{"name":"rv1","resourceVersion":"123"}}`, code: 500, status: status500},
		{name: "create dry run", method: "POST", path: cms + "?dryRun=All", body: `{"metadata":{"name":"rv1","resourceVersion":"123"}}`, code: 201, rv: "123"},
		{name: "create 0", method: "POST", path: cms, body: `{"metadata":{"name":"rv0","resourceVersion":"0"}}`, code: 201, rv: "new", stored: true},
		{name: "create unparsable", method: "POST", path: cms, body: `{"metadata":{"name":"rvabc","resourceVersion":"abc"}}`, code: 201, rv: "new", stored: true},
		{name: "existing object", method: "POST", path: cms, body: `{"metadata":{"name":"cfg","resourceVersion":"5"}}`, code: 500, status: status500},
		{name: "existing object dry run", method: "POST", path: cms + "?dryRun=All", body: `{"metadata":{"name":"cfg","resourceVersion":"5"}}`, code: 409, reason: "AlreadyExists"},
		{name: "invalid object", method: "POST", path: cms, body: `{"metadata":{"name":"Bad_Name","resourceVersion":"5"}}`, code: 422, reason: "Invalid"},
		{name: "missing namespace", method: "POST", path: "/api/v1/namespaces/nope/configmaps", body: `{"metadata":{"name":"x","resourceVersion":"5"}}`, code: 404, reason: "NotFound"},
		{name: "apply", method: "PATCH", path: cms + "/rv2?fieldManager=m", ctype: "application/apply-patch+yaml",
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"rv2","resourceVersion":"123"},"data":{"a":"b"}}`, code: 201, rv: "new", stored: true},
		{name: "apply dry run", method: "PATCH", path: cms + "/rv3?fieldManager=m&dryRun=All", ctype: "application/apply-patch+yaml",
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"rv3","resourceVersion":"123"},"data":{"a":"b"}}`, code: 201, rv: "123"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			seed(t, s)
			before := s.Store().Rev()
			ctype := tc.ctype
			if ctype == "" {
				ctype = "application/json"
			}
			code, out := do(t, s, tc.method, tc.path, ctype, tc.body)
			if code != tc.code {
				t.Fatalf("%d, want %d: %v", code, tc.code, out)
			}
			if tc.status != nil && !reflect.DeepEqual(out, tc.status) {
				t.Errorf("answer %v\nwant %v", out, tc.status)
			}
			if tc.reason != "" && out["reason"] != tc.reason {
				t.Errorf("reason %v, want %s", out["reason"], tc.reason)
			}
			rv, _ := metaOf(out)["resourceVersion"].(string)
			switch tc.rv {
			case "":
			case "new":
				if want := s.Store().Rev(); rv != strconv.FormatInt(int64(want), 10) {
					t.Errorf("resourceVersion %q, want the store's %d", rv, want)
				}
			default:
				if rv != tc.rv {
					t.Errorf("resourceVersion %q, want %q", rv, tc.rv)
				}
			}
			if wrote := s.Store().Rev() != before; wrote != tc.stored {
				t.Errorf("stored: %v, want %v", wrote, tc.stored)
			}
		})
	}
}
