package persist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// open starts a store persisted on m, restoring what m holds.
func open(t *testing.T, m *Mem, opts Options) (*store.Store, *Log, bool) {
	t.Helper()
	s := store.New(store.Options{HistoryEvents: 100000})
	l := New(m, opts)
	restored, err := s.Open(l)
	if err != nil {
		t.Fatal(err)
	}
	return s, l, restored
}

func put(t *testing.T, s *store.Store, key, val string) store.KV {
	t.Helper()
	kv, _, err := s.Update(key, func(*store.KV, store.Revision) (store.Op, error) { return store.PutOp([]byte(val)), nil })
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

func del(t *testing.T, s *store.Store, key string) {
	t.Helper()
	if _, _, err := s.Update(key, func(*store.KV, store.Revision) (store.Op, error) { return store.DeleteOp(), nil }); err != nil {
		t.Fatal(err)
	}
}

func TestReset(t *testing.T) {
	m := NewMem()
	a, l, _ := open(t, m, Options{})
	put(t, a, "/k/a", "1") // 2
	put(t, a, "/k/b", "1") // 3
	del(t, a, "/k/a")      // 4
	if err := l.Reset(a.HeadRev()); err != nil {
		t.Fatal(err)
	}
	t.Run("writes after the reset fail", func(t *testing.T) {
		_, _, err := a.Update("/k/c", func(*store.KV, store.Revision) (store.Op, error) { return store.PutOp([]byte("x")), nil })
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
	})
	b, _, restored := open(t, m, Options{})
	t.Run("the next store starts empty at the last revision", func(t *testing.T) {
		kvs, _, _, _ := b.List("/", "", 0, nil, 0)
		if restored || len(kvs) != 0 || b.Rev() != 4 || b.CompactedRev() != 4 {
			t.Fatalf("restored=%v keys=%d rev=%d compacted=%d, want false 0 4 4", restored, len(kvs), b.Rev(), b.CompactedRev())
		}
	})
	t.Run("revisions go on increasing", func(t *testing.T) {
		if kv := put(t, b, "/k/a", "2"); kv.ModRev != 5 {
			t.Fatalf("first write after the reset at %d, want 5", kv.ModRev)
		}
	})
	t.Run("a watch from before the reset is told to list again", func(t *testing.T) {
		if _, err := b.Watch("/k/", 2); !errors.Is(err, store.ErrCompacted) {
			t.Fatalf("watch from 2: %v, want ErrCompacted", err)
		}
	})
	t.Run("and the reset state survives a restart", func(t *testing.T) {
		c, _, _ := open(t, m, Options{})
		if kv, _, err := c.Get("/k/a", 0); err != nil || string(kv.Value) != "2" || c.Rev() != 5 {
			t.Fatalf("got %q at %d (%v), want \"2\" at 5", kv.Value, c.Rev(), err)
		}
	})
}

func TestRestart(t *testing.T) {
	m := NewMem()
	a, _, restored := open(t, m, Options{})
	if restored {
		t.Fatal("an empty backend restored something")
	}
	put(t, a, "/k/a", "1") // 2
	put(t, a, "/k/b", "1") // 3
	del(t, a, "/k/a")      // 4
	put(t, a, "/k/b", "2") // 5

	b, _, restored := open(t, m, Options{})
	t.Run("state, revision and history come back", func(t *testing.T) {
		if !restored || b.Rev() != 5 || b.CompactedRev() != 1 {
			t.Fatalf("restored=%v rev=%d compacted=%d", restored, b.Rev(), b.CompactedRev())
		}
		for rev := store.Revision(1); rev <= 5; rev++ {
			ka, _, _, _ := a.List("/", "", rev, nil, 0)
			kb, _, _, err := b.List("/", "", rev, nil, 0)
			if err != nil || !reflect.DeepEqual(ka, kb) {
				t.Errorf("at %d: %v (%v), want %v", rev, kb, err, ka)
			}
		}
	})
	t.Run("a watch resumes across the restart", func(t *testing.T) {
		w, err := b.Watch("/k/", 3)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := w.Next(context.Background())
		if err != nil || len(evs) != 2 || evs[0].Type != store.Delete || string(evs[0].KV.Value) != "1" ||
			evs[1].Prev == nil || string(evs[1].Prev.Value) != "1" {
			t.Fatalf("%+v %v", evs, err)
		}
	})
	t.Run("revisions continue upward", func(t *testing.T) {
		if kv := put(t, b, "/k/c", "1"); kv.ModRev != 6 {
			t.Errorf("next write at %d", kv.ModRev)
		}
		c, _, _ := open(t, m, Options{})
		if c.Rev() != 6 {
			t.Errorf("third start at %d", c.Rev())
		}
	})
}

func TestCompaction(t *testing.T) {
	m := NewMem()
	s, l, _ := open(t, m, Options{SnapshotEvery: 10, KeepEvents: 4})
	for i := 0; i < 95; i++ {
		put(t, s, fmt.Sprintf("/k/%d", i%7), fmt.Sprint(i))
		if i%5 == 0 {
			s.Update(fmt.Sprintf("/k/%d", (i+3)%7), func(cur *store.KV, _ store.Revision) (store.Op, error) {
				if cur == nil {
					return store.NoOp(), nil
				}
				return store.DeleteOp(), nil
			})
		}
	}
	rev := s.Rev()
	snapRev, n, _ := l.Stats()
	if m.Records() > 10 || m.Records() != n || int(rev-snapRev) != n {
		t.Fatalf("log holds %d records (Log says %d), snapshot at %d, rev %d", m.Records(), n, snapRev, rev)
	}
	if n < 4 {
		t.Fatalf("only %d events kept after the snapshot, want ≥ 4", n)
	}
	r, _, _ := open(t, m, Options{SnapshotEvery: 10, KeepEvents: 4})
	if r.Rev() != rev || r.CompactedRev() != snapRev {
		t.Fatalf("restored at %d (compacted %d), want %d (%d)", r.Rev(), r.CompactedRev(), rev, snapRev)
	}
	for at := snapRev; at <= rev; at++ {
		ka, _, _, _ := s.List("/", "", at, nil, 0)
		kb, _, _, err := r.List("/", "", at, nil, 0)
		if err != nil || !reflect.DeepEqual(ka, kb) {
			t.Fatalf("at %d: %v (%v), want %v", at, kb, err, ka)
		}
	}
	if _, err := r.Watch("/", rev-4); err != nil {
		t.Errorf("resuming 4 events back: %v", err)
	}
	if _, err := r.Watch("/", snapRev-1); err != store.ErrCompacted {
		t.Errorf("resuming before the snapshot: %v, want ErrCompacted", err)
	}
}

func TestQuota(t *testing.T) {
	m := NewMem()
	s, _, _ := open(t, m, Options{})
	put(t, s, "/k/a", "small")
	before, recsBefore, _ := m.Load()
	m.Quota = m.Size() + 10
	_, _, err := s.Update("/k/b", func(*store.KV, store.Revision) (store.Op, error) {
		return store.PutOp(bytes.Repeat([]byte("x"), 100)), nil
	})
	if !errors.Is(err, ErrQuota) {
		t.Fatalf("err = %v", err)
	}
	if s.Rev() != 2 {
		t.Errorf("the failed write took a revision: %d", s.Rev())
	}
	if _, _, err := s.Get("/k/b", 0); err != store.ErrNotFound {
		t.Errorf("the failed write is visible: %v", err)
	}
	after, recsAfter, _ := m.Load()
	if !bytes.Equal(before, after) || !reflect.DeepEqual(recsBefore, recsAfter) {
		t.Error("the failed write left something behind")
	}
	m.Quota = 0
	if kv := put(t, s, "/k/b", "ok"); kv.ModRev != 3 {
		t.Errorf("after the quota error, next write at %d", kv.ModRev)
	}
}

func TestLoadDamaged(t *testing.T) {
	ev := func(rev int64) Record {
		return Record{Rev: rev, Data: EncodeEvent(store.Event{KV: store.KV{Key: "/k", Value: []byte("v"), CreateRev: 2, ModRev: store.Revision(rev)}})}
	}
	for _, tt := range []struct {
		name string
		snap []byte
		recs []Record
		want string
	}{
		{"gap", nil, []Record{ev(2), ev(4)}, "the saved log is damaged: record 4 (revision 4) where 3 was expected"},
		{"key and content disagree", nil, []Record{{Rev: 2, Data: ev(3).Data}}, "the saved log is damaged: record 2 (revision 3) where 2 was expected"},
		{"bad record", nil, []Record{{Rev: 2, Data: []byte("E\x00")}}, "the saved log record 2 is damaged: persist: truncated"},
		{"bad snapshot", []byte("S\x05"), nil, "the saved snapshot is damaged: persist: truncated"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMem()
			m.snapshot = tt.snap
			for _, r := range tt.recs {
				m.records[r.Rev] = r.Data
			}
			_, _, _, err := New(m, Options{}).Load()
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %s", err, tt.want)
			}
		})
	}
}

func TestClosed(t *testing.T) {
	m := NewMem()
	s, l, _ := open(t, m, Options{})
	l.Close()
	if _, _, err := s.Update("/k/a", func(*store.KV, store.Revision) (store.Op, error) { return store.PutOp(nil), nil }); err != ErrClosed {
		t.Fatalf("err = %v", err)
	}
}

func TestCodecRoundTrip(t *testing.T) {
	ev := store.Event{Type: store.Delete, KV: store.KV{Key: "/core/configmaps/default/a", Value: []byte("{}"), CreateRev: 5, ModRev: 7}}
	b := EncodeEvent(ev)
	want := append([]byte{'E', 1, 7, 5, 26}, "/core/configmaps/default/a\x02{}"...)
	if !bytes.Equal(b, want) {
		t.Errorf("encoded %q, want %q", b, want)
	}
	got, err := DecodeEvent(b)
	if err != nil || !reflect.DeepEqual(got, ev) {
		t.Errorf("decoded %+v %v", got, err)
	}
	kvs := []store.KV{{Key: "/a", Value: []byte("1"), CreateRev: 2, ModRev: 3}, {Key: "/b", Value: []byte{}, CreateRev: 4, ModRev: 4}}
	sk, rev, err := DecodeSnapshot(EncodeSnapshot(kvs, 9))
	if err != nil || rev != 9 || !reflect.DeepEqual(sk, kvs) {
		t.Errorf("snapshot %+v %d %v", sk, rev, err)
	}
}

func TestBackgroundTiming(t *testing.T) {
	// Group commit on a slow backend: 50 concurrent writers need far fewer
	// than 50 backend writes.
	m := NewMem()
	s, _, _ := open(t, m, Options{})
	slow := &slowBackend{Backend: m, d: 2 * time.Millisecond}
	l := New(slow, Options{})
	l.Bind(s)
	s.SetPersister(l)
	done := make(chan struct{})
	for i := 0; i < 50; i++ {
		go func(i int) {
			put(t, s, fmt.Sprintf("/k/%d", i), "v")
			done <- struct{}{}
		}(i)
	}
	for i := 0; i < 50; i++ {
		<-done
	}
	if m.Writes >= 25 {
		t.Errorf("%d backend writes for 50 concurrent writes", m.Writes)
	}
	t.Logf("%d backend writes for 50 concurrent writes", m.Writes)
}

type slowBackend struct {
	Backend
	d time.Duration
}

func (b *slowBackend) Write(x Batch) error {
	time.Sleep(b.d)
	return b.Backend.Write(x)
}

// Restored values are pieces of the loaded snapshot (no copy): growing
// one must never write into the next one's bytes.
func TestSnapshotValuesShareNothingWritable(t *testing.T) {
	kvs := []store.KV{{Key: "/a", Value: []byte(`{"a":1}`), CreateRev: 2, ModRev: 2}, {Key: "/b", Value: []byte(`{"b":2}`), CreateRev: 3, ModRev: 3}}
	got, _, err := DecodeSnapshot(EncodeSnapshot(kvs, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		grow func([]byte) []byte
	}{
		{"append a byte", func(b []byte) []byte { return append(b, 'X') }},
		{"append many", func(b []byte) []byte { return append(b, bytes.Repeat([]byte("Y"), 64)...) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.grow(got[0].Value)
			if string(got[1].Key) != "/b" || string(got[1].Value) != `{"b":2}` {
				t.Errorf("the next entry became %q = %q", got[1].Key, got[1].Value)
			}
			if string(got[0].Value) != `{"a":1}` {
				t.Errorf("the value itself became %q", got[0].Value)
			}
		})
	}
}
