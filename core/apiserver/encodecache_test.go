package apiserver

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// TestEncodeCacheNeverServesAnOlderRevision: an entry is found only for
// the stored version it was made from — not for the key's next revision,
// nor for other bytes at the same revision, nor in another schema — one
// by one and for a list's items at once.
func TestEncodeCacheNeverServesAnOlderRevision(t *testing.T) {
	cm := builtin.Definition("io.k8s.api.core.v1.ConfigMap")
	kept := store.KV{Key: "/cm/a", Value: []byte(`{"v":1}`), CreateRev: 2, ModRev: 5}
	var c encodeCache
	c.put(keyOf(cm, kept), encoded{msg: []byte("v1"), kind: "ConfigMap"})
	for _, tc := range []struct {
		name string
		s    bool // the schema the entry was made in
		kv   store.KV
		hit  bool
	}{
		{"the same version", true, kept, true},
		{"the next revision", true, store.KV{Key: "/cm/a", Value: []byte(`{"v":1}`), CreateRev: 2, ModRev: 6}, false},
		{"other bytes at the revision", true, store.KV{Key: "/cm/a", Value: []byte(`{"v":10}`), CreateRev: 2, ModRev: 5}, false},
		{"another key", true, store.KV{Key: "/cm/b", Value: []byte(`{"v":1}`), CreateRev: 2, ModRev: 5}, false},
		{"the JSON cut of the version", false, kept, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sch := cm
			if !tc.s {
				sch = nil
			}
			e, ok := c.get(keyOf(sch, tc.kv))
			if ok != tc.hit || ok && string(e.msg) != "v1" {
				t.Fatalf("get: %q, %v; want a hit: %v", e.msg, ok, tc.hit)
			}
			all := make([]encoded, 2)
			c.getAll(sch, []store.KV{tc.kv, kept}, all)
			if (all[0].msg != nil) != tc.hit {
				t.Fatalf("getAll: %q; want a hit: %v", all[0].msg, tc.hit)
			}
		})
	}
}
