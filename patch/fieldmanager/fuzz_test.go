package fieldmanager

import (
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// FuzzDecodeManagedFields: any JSON as metadata.managedFields decodes or
// fails cleanly, and Update with it never panics nor errors.
func FuzzDecodeManagedFields(f *testing.F) {
	f.Add([]byte(`[{"manager":"a","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:a":{}}}}]`))
	f.Add([]byte(`[{}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"manager":"a","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"k:{\"name\":\"x\"}":{".":{}}},"time":"2030-01-01T00:00:00Z"}]`))
	m := widgetManager(f, testGV)
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := jsonx.Decode(b)
		if err != nil {
			return
		}
		o := map[string]any{"apiVersion": testGV, "kind": "Widget",
			"metadata": map[string]any{"name": "w1", "managedFields": v}, "spec": map[string]any{"replicas": int64(1)}}
		_, _ = DecodeManagedFields(o)
		if _, err := m.Update(nil, o, "fuzz", "", time.Unix(0, 0)); err != nil {
			t.Fatalf("Update failed: %v", err)
		}
	})
}

// FuzzApply: random apply bodies against the Widget schema, applied to a
// live object twice by two managers, never panic.
func FuzzApply(f *testing.F) {
	f.Add("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {replicas: 2, color: red}\n", false)
	f.Add("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, labels: {a: b}, finalizers: [x, x]}\nspec:\n  ports:\n  - name: http\n    port: 80\n  - name: http\n", true)
	f.Add("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {extra: {a: [1, {b: c}]}, config: {k: v}, tags: [a, a]}\nstatus: {phase: x}\n", false)
	f.Add("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"ownerReferences\":[{\"uid\":\"u\"}]}}", true)
	m := widgetManager(f, testGV)
	f.Fuzz(func(t *testing.T, body string, force bool) {
		applied, err := ParseApplyBody([]byte(body))
		if err != nil {
			return
		}
		live, err := m.Apply(nil, applied, "alice", "", force, time.Unix(0, 0))
		noPanic(t, err)
		if err != nil {
			return
		}
		if md, ok := live["metadata"].(map[string]any); ok {
			md["uid"] = "u1"
		}
		again, err := ParseApplyBody([]byte(body))
		if err != nil {
			t.Fatalf("second parse failed: %v", err)
		}
		next, err := m.Apply(live, again, "bob", "status", force, time.Unix(1, 0))
		noPanic(t, err)
		if err == nil {
			_, err = m.Update(next, jsonx.CopyObject(next), "carol", "", time.Unix(2, 0))
			noPanic(t, err)
		}
	})
}

// noPanic fails on the errors Apply and Update make of a recovered panic.
func noPanic(t *testing.T, err error) {
	t.Helper()
	if err != nil && (strings.HasPrefix(err.Error(), "apply failed: ") || strings.HasPrefix(err.Error(), "failed to update managedFields: ")) {
		t.Fatalf("recovered panic: %v", err)
	}
}
