package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// recorder is a GroupPersister that keeps each group it was given.
type recorder struct {
	groups [][]Event
	fail   error
}

func (r *recorder) Commit(ev Event) error { return r.CommitGroup([]Event{ev}) }
func (r *recorder) CommitGroup(evs []Event) error {
	if r.fail != nil {
		return r.fail
	}
	r.groups = append(r.groups, evs)
	return nil
}

func TestSeed(t *testing.T) {
	kvs := []KV{
		{Key: "/b", Value: []byte("B"), CreateRev: 2, ModRev: 2},
		{Key: "/a", Value: []byte("A"), CreateRev: 3, ModRev: 3},
	}
	t.Run("one durable group, visible as two creates", func(t *testing.T) {
		s := New(Options{})
		rec := &recorder{}
		s.SetPersister(rec)
		w, err := s.Watch("/", 1)
		if err != nil {
			t.Fatal(err)
		}
		var hooked []Revision
		s.OnCommit(func(ev Event) { hooked = append(hooked, ev.KV.ModRev) })
		if err := s.Seed(kvs); err != nil {
			t.Fatal(err)
		}
		if len(rec.groups) != 1 || len(rec.groups[0]) != 2 {
			t.Fatalf("persisted groups: %v, want one of two events", rec.groups)
		}
		if s.Rev() != 3 {
			t.Fatalf("rev %d, want 3", s.Rev())
		}
		got, _ := s.Snapshot()
		want := []KV{kvs[1], kvs[0]}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("snapshot %v, want %v", got, want)
		}
		evs, err := w.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) != 2 || evs[0].KV.Key != "/b" || evs[1].KV.Key != "/a" || evs[0].Prev != nil || evs[0].Type != Put {
			t.Fatalf("watch got %+v, want the creates of /b and /a", evs)
		}
		if !reflect.DeepEqual(hooked, []Revision{2, 3}) {
			t.Fatalf("OnCommit saw %v, want [2 3]", hooked)
		}
		// a later write follows
		kv, _, err := s.Update("/c", func(*KV, Revision) (Op, error) { return PutOp([]byte("C")), nil })
		if err != nil || kv.ModRev != 4 {
			t.Fatalf("write after Seed: %v at %d, want revision 4", err, kv.ModRev)
		}
	})
	refused := []struct {
		name string
		kvs  []KV
	}{
		{"a revision that does not follow the head", []KV{{Key: "/a", CreateRev: 3, ModRev: 3}}},
		{"create and mod revisions differ", []KV{{Key: "/a", CreateRev: 1, ModRev: 2}}},
		{"a key twice", []KV{{Key: "/a", CreateRev: 2, ModRev: 2}, {Key: "/a", CreateRev: 3, ModRev: 3}}},
	}
	for _, c := range refused {
		t.Run("refused: "+c.name, func(t *testing.T) {
			s := New(Options{})
			rec := &recorder{}
			s.SetPersister(rec)
			if err := s.Seed(c.kvs); err == nil {
				t.Fatal("Seed succeeded")
			}
			if got, rev := s.Snapshot(); len(got) != 0 || rev != 1 || len(rec.groups) != 0 {
				t.Fatalf("after a refused Seed: %v at %d, persisted %v", got, rev, rec.groups)
			}
		})
	}
	t.Run("refused: a key that exists", func(t *testing.T) {
		s := New(Options{})
		if _, _, err := s.Update("/a", func(*KV, Revision) (Op, error) { return PutOp([]byte("x")), nil }); err != nil {
			t.Fatal(err)
		}
		if err := s.Seed([]KV{{Key: "/a", CreateRev: 3, ModRev: 3}}); !errors.Is(err, ErrExists) {
			t.Fatalf("Seed over an existing key: %v, want ErrExists", err)
		}
	})
	t.Run("a failed commit writes nothing", func(t *testing.T) {
		s := New(Options{})
		s.SetPersister(&recorder{fail: errors.New("disk full")})
		if err := s.Seed(kvs); err == nil || err.Error() != "disk full" {
			t.Fatalf("Seed: %v, want the persister's error", err)
		}
		if got, rev := s.Snapshot(); len(got) != 0 || rev != 1 {
			t.Fatalf("after a failed Seed: %v at %d", got, rev)
		}
	})
	t.Run("at the revision a restore left", func(t *testing.T) {
		s := New(Options{})
		if err := s.Restore(nil, 41, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.Seed([]KV{{Key: "/a", Value: []byte("A"), CreateRev: 42, ModRev: 42}}); err != nil {
			t.Fatal(err)
		}
		if kv, rev, err := s.Get("/a", 0); err != nil || rev != 42 || string(kv.Value) != "A" {
			t.Fatalf("Get: %v %d %v", kv, rev, err)
		}
	})
}
