// Package vtest runs a built-in kind's hooks as the server does before
// storing an object (prepare, default, validate), for the kind packages'
// table tests.
package vtest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
)

// Case is one table row: an object (JSON), on update the stored one it
// replaces, and the errors wanted, each as "field: message".
type Case struct {
	Name     string
	Obj, Old string
	// OldStatus, when set, is the old object's status (which Old loses
	// to PrepareCreate), e.g. `{"startTime":"2026-01-01T00:00:00Z"}`.
	OldStatus string
	Want      []string
}

// Run checks every case against the kind group/plural.
func Run(t *testing.T, group, plural string, cases []Case) {
	t.Helper()
	res := builtin.Lookup(group, plural)
	if res == nil || res.Hooks.Validate == nil {
		t.Fatalf("%s/%s: no validation hook", group, plural)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			obj := Prepared(t, group, plural, c.Obj)
			var old map[string]any
			if c.Old != "" {
				old = Prepared(t, group, plural, c.Old)
				if c.OldStatus != "" {
					var st map[string]any
					if err := json.Unmarshal([]byte(c.OldStatus), &st); err != nil {
						t.Fatal(err)
					}
					old["status"] = toInt64(st)
				}
				if res.Hooks.PrepareUpdate != nil {
					res.Hooks.PrepareUpdate(obj, old)
				}
			}
			var got []string
			for _, e := range res.Hooks.Validate(obj, old) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(c.Want, "\n") {
				t.Errorf("errors\n got: %q\nwant: %q", got, c.Want)
			}
		})
	}
}

// Prepared decodes obj and applies the kind's PrepareCreate and Default
// hooks, with the system fields a create sets.
func Prepared(t testing.TB, group, plural, obj string) map[string]any {
	t.Helper()
	res := builtin.Lookup(group, plural)
	var m map[string]any
	if err := json.Unmarshal([]byte(obj), &m); err != nil {
		t.Fatalf("%v: %s", err, obj)
	}
	toInt64(m)
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		m["metadata"] = meta
	}
	if meta["uid"] == nil {
		meta["uid"] = "0c1f5f1e-8f0b-4c44-9c53-3e7e0e4f2a10"
	}
	if res.Hooks.PrepareCreate != nil {
		res.Hooks.PrepareCreate(m)
	}
	if res.Hooks.Default != nil {
		res.Hooks.Default(m)
	}
	return m
}

// toInt64 turns integral JSON numbers into int64, as the server's decoder does.
func toInt64(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = toInt64(e)
		}
	case []any:
		for i, e := range t {
			t[i] = toInt64(e)
		}
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}
