package persist

import (
	"bytes"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// FuzzDecodeEvent: any input decodes or fails cleanly; what decodes
// re-encodes to the same bytes.
func FuzzDecodeEvent(f *testing.F) {
	f.Add(EncodeEvent(store.Event{Type: store.Put, KV: store.KV{Key: "/core/configmaps/default/a", Value: []byte(`{"a":1}`), CreateRev: 2, ModRev: 9}}))
	f.Add(EncodeEvent(store.Event{Type: store.Delete, KV: store.KV{Key: "/k", CreateRev: 3, ModRev: 3}}))
	f.Add([]byte("E\x00\x80"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ev, err := DecodeEvent(b)
		if err != nil {
			return
		}
		if got := EncodeEvent(ev); !bytes.Equal(got, b) {
			t.Fatalf("re-encoded %q, was %q", got, b)
		}
	})
}

// FuzzDecodeSnapshot: the same for snapshots.
func FuzzDecodeSnapshot(f *testing.F) {
	f.Add(EncodeSnapshot([]store.KV{{Key: "/a", Value: []byte("1"), CreateRev: 2, ModRev: 3}}, 5))
	f.Add(EncodeSnapshot(nil, 1))
	f.Add([]byte("S\x05\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		kvs, rev, err := DecodeSnapshot(b)
		if err != nil {
			return
		}
		if got := EncodeSnapshot(kvs, rev); !bytes.Equal(got, b) {
			t.Fatalf("re-encoded %q, was %q", got, b)
		}
	})
}
