package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// put writes value at key unconditionally.
func put(t testing.TB, s *Store, key, value string) KV {
	t.Helper()
	kv, ok, err := s.Update(key, func(*KV, Revision) (Op, error) { return PutOp([]byte(value)), nil })
	if err != nil || !ok {
		t.Fatalf("put %s: ok=%v err=%v", key, ok, err)
	}
	return kv
}

func del(t testing.TB, s *Store, key string) KV {
	t.Helper()
	kv, ok, err := s.Update(key, func(*KV, Revision) (Op, error) { return DeleteOp(), nil })
	if err != nil || !ok {
		t.Fatalf("delete %s: ok=%v err=%v", key, ok, err)
	}
	return kv
}

// fakeClock is a settable clock for the age limit.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestRevisions(t *testing.T) {
	s := New(Options{})
	if got := s.Rev(); got != 1 {
		t.Fatalf("new store at rev %d, want 1", got)
	}
	steps := []struct {
		name    string
		fn      UpdateFunc
		key     string
		wantRev Revision // store revision after the step
		wantOK  bool
		wantErr error
		check   func(t *testing.T, kv KV)
	}{
		{"create takes rev 2", func(cur *KV, next Revision) (Op, error) {
			if cur != nil || next != 2 {
				return Op{}, fmt.Errorf("cur=%v next=%d", cur, next)
			}
			return PutOp([]byte("A")), nil
		}, "/w/a", 2, true, nil, func(t *testing.T, kv KV) {
			if kv.CreateRev != 2 || kv.ModRev != 2 || string(kv.Value) != "A" {
				t.Errorf("kv = %+v", kv)
			}
		}},
		{"update keeps CreateRev", func(cur *KV, next Revision) (Op, error) {
			if cur == nil || string(cur.Value) != "A" || next != 3 {
				return Op{}, fmt.Errorf("cur=%v next=%d", cur, next)
			}
			return PutOp([]byte("A'")), nil
		}, "/w/a", 3, true, nil, func(t *testing.T, kv KV) {
			if kv.CreateRev != 2 || kv.ModRev != 3 {
				t.Errorf("kv = %+v", kv)
			}
		}},
		{"no-op takes no revision", func(*KV, Revision) (Op, error) { return NoOp(), nil }, "/w/a", 3, false, nil,
			func(t *testing.T, kv KV) {
				if kv.ModRev != 3 || string(kv.Value) != "A'" {
					t.Errorf("no-op returns current, got %+v", kv)
				}
			}},
		{"error takes no revision", func(*KV, Revision) (Op, error) { return PutOp(nil), errors.New("boom") }, "/w/a", 3, false, errors.New("boom"), nil},
		{"delete of a missing key", func(*KV, Revision) (Op, error) { return DeleteOp(), nil }, "/w/missing", 3, false, ErrNotFound, nil},
		{"delete returns the value at the delete's revision", func(*KV, Revision) (Op, error) { return DeleteOp(), nil }, "/w/a", 4, true, nil,
			func(t *testing.T, kv KV) {
				if kv.ModRev != 4 || kv.CreateRev != 2 || string(kv.Value) != "A'" {
					t.Errorf("kv = %+v", kv)
				}
			}},
		{"re-create gets a new CreateRev", func(cur *KV, next Revision) (Op, error) {
			if cur != nil {
				return Op{}, errors.New("deleted key visible")
			}
			return PutOp([]byte("B")), nil
		}, "/w/a", 5, true, nil, func(t *testing.T, kv KV) {
			if kv.CreateRev != 5 || kv.ModRev != 5 {
				t.Errorf("kv = %+v", kv)
			}
		}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			kv, ok, err := s.Update(st.key, st.fn)
			if (err == nil) != (st.wantErr == nil) || (err != nil && err.Error() != st.wantErr.Error()) {
				t.Fatalf("err = %v, want %v", err, st.wantErr)
			}
			if ok != st.wantOK {
				t.Errorf("ok = %v, want %v", ok, st.wantOK)
			}
			if got := s.Rev(); got != st.wantRev {
				t.Errorf("rev = %d, want %d", got, st.wantRev)
			}
			if st.check != nil {
				st.check(t, kv)
			}
		})
	}
}

func TestReadsAtOldRevisions(t *testing.T) {
	s := New(Options{})
	put(t, s, "/w/a", "a1")                 // 2
	put(t, s, "/w/b", "b1")                 // 3
	put(t, s, "/w/a", "a2")                 // 4
	del(t, s, "/w/b")                       // 5
	put(t, s, "/x/z", "z1")                 // 6
	put(t, s, "/w/c", "c1")                 // 7
	put(t, s, "/w/b", "b2")                 // 8
	want := map[Revision]map[string]string{ // under /w/
		1: {},
		2: {"/w/a": "a1"},
		3: {"/w/a": "a1", "/w/b": "b1"},
		4: {"/w/a": "a2", "/w/b": "b1"},
		5: {"/w/a": "a2"},
		6: {"/w/a": "a2"},
		7: {"/w/a": "a2", "/w/c": "c1"},
		8: {"/w/a": "a2", "/w/b": "b2", "/w/c": "c1"},
	}
	for rev := Revision(1); rev <= 8; rev++ {
		t.Run(fmt.Sprintf("rev %d", rev), func(t *testing.T) {
			kvs, readRev, remaining, err := s.List("/w/", "", rev, nil, 0)
			if err != nil || readRev != rev || remaining != 0 {
				t.Fatalf("List: readRev=%d remaining=%d err=%v", readRev, remaining, err)
			}
			got := map[string]string{}
			for _, kv := range kvs {
				got[kv.Key] = string(kv.Value)
			}
			if !reflect.DeepEqual(got, want[rev]) {
				t.Errorf("List at %d = %v, want %v", rev, got, want[rev])
			}
			for _, k := range []string{"/w/a", "/w/b", "/w/c"} {
				kv, cur, err := s.Get(k, rev)
				w, ok := want[rev][k]
				switch {
				case !ok && err != ErrNotFound:
					t.Errorf("Get %s at %d: err=%v, want ErrNotFound", k, rev, err)
				case ok && (err != nil || string(kv.Value) != w):
					t.Errorf("Get %s at %d = %q, %v; want %q", k, rev, kv.Value, err, w)
				}
				if cur != 8 {
					t.Errorf("Get returns current revision %d, want 8", cur)
				}
			}
		})
	}
	t.Run("latest is rev 0", func(t *testing.T) {
		kvs, readRev, _, _ := s.List("/w/", "", 0, nil, 0)
		if readRev != 8 || len(kvs) != 3 {
			t.Errorf("readRev=%d len=%d", readRev, len(kvs))
		}
	})
	t.Run("limit, from and remaining", func(t *testing.T) {
		kvs, _, remaining, _ := s.List("/w/", "", 8, nil, 1)
		if len(kvs) != 1 || kvs[0].Key != "/w/a" || remaining != 2 {
			t.Fatalf("page 1 = %v remaining %d", kvs, remaining)
		}
		kvs, _, remaining, _ = s.List("/w/", "/w/a\x00", 8, nil, 1)
		if len(kvs) != 1 || kvs[0].Key != "/w/b" || remaining != 1 {
			t.Fatalf("page 2 = %v remaining %d", kvs, remaining)
		}
		kvs, _, remaining, _ = s.List("/w/", "/w/b\x00", 8, nil, 1)
		if len(kvs) != 1 || kvs[0].Key != "/w/c" || remaining != 0 {
			t.Fatalf("page 3 = %v remaining %d", kvs, remaining)
		}
	})
	t.Run("filter counts only matches as remaining", func(t *testing.T) {
		notA := func(kv KV) bool { return kv.Key != "/w/a" }
		kvs, _, remaining, _ := s.List("/w/", "", 8, notA, 1)
		if len(kvs) != 1 || kvs[0].Key != "/w/b" || remaining != 1 {
			t.Fatalf("got %v remaining %d", kvs, remaining)
		}
	})
	t.Run("CreateRev and ModRev at an old revision", func(t *testing.T) {
		kv, _, _ := s.Get("/w/a", 3)
		if kv.CreateRev != 2 || kv.ModRev != 2 {
			t.Errorf("kv = %+v", kv)
		}
	})
}

func TestFutureAndCompactedRevisions(t *testing.T) {
	s := New(Options{HistoryEvents: 3})
	for i := 0; i < 6; i++ { // revs 2..7, window keeps 5,6,7
		put(t, s, fmt.Sprintf("/k/%d", i), "v")
	}
	if got := s.CompactedRev(); got != 4 {
		t.Fatalf("CompactedRev = %d, want 4", got)
	}
	tests := []struct {
		name string
		rev  Revision
		want error
	}{
		{"future", 8, ErrFutureRevision},
		{"current", 7, nil},
		{"oldest readable", 4, nil},
		{"compacted", 3, ErrCompacted},
		{"long compacted", 1, ErrCompacted},
		{"latest", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, _, err := s.List("/k/", "", tt.rev, nil, 0); err != tt.want {
				t.Errorf("List: %v, want %v", err, tt.want)
			}
			if _, _, err := s.Get("/k/0", tt.rev); err != tt.want {
				t.Errorf("Get: %v, want %v", err, tt.want)
			}
			if tt.rev == 0 {
				return
			}
			if _, err := s.Watch("/k/", tt.rev); err != tt.want {
				t.Errorf("Watch: %v, want %v", err, tt.want)
			}
		})
	}
	t.Run("list at the compacted revision still sees every key", func(t *testing.T) {
		kvs, _, _, err := s.List("/k/", "", 4, nil, 0)
		if err != nil || len(kvs) != 3 {
			t.Errorf("List at 4: %d items, %v; want 3", len(kvs), err)
		}
	})
}

func TestCompaction(t *testing.T) {
	t.Run("size limit", func(t *testing.T) {
		s := New(Options{HistoryEvents: 5})
		for i := 0; i < 20; i++ {
			put(t, s, "/k/a", fmt.Sprint(i))
			if n := len(s.log); n > 5 {
				t.Fatalf("log holds %d events, limit 5", n)
			}
		}
		if s.Rev() != 21 || s.CompactedRev() != 16 {
			t.Errorf("rev=%d compacted=%d, want 21, 16", s.Rev(), s.CompactedRev())
		}
		if n := len(s.hist["/k/a"]); n != 6 {
			t.Errorf("history of /k/a holds %d versions, want 6 (revs 16..21)", n)
		}
		kv, _, err := s.Get("/k/a", 16)
		if err != nil || string(kv.Value) != "14" {
			t.Errorf("Get at 16 = %q, %v", kv.Value, err)
		}
	})
	t.Run("deleted keys disappear once compacted", func(t *testing.T) {
		s := New(Options{HistoryEvents: 2})
		put(t, s, "/k/a", "1") // 2
		del(t, s, "/k/a")      // 3
		put(t, s, "/k/b", "1") // 4
		if _, ok := s.hist["/k/a"]; !ok {
			t.Fatal("/k/a dropped while its delete is still in the window")
		}
		put(t, s, "/k/b", "2") // 5: window 4,5, compacted 3
		if _, ok := s.hist["/k/a"]; ok || len(s.keys) != 1 {
			t.Errorf("tombstone kept: keys=%v", s.keys)
		}
	})
	t.Run("age limit with a fake clock", func(t *testing.T) {
		clk := &fakeClock{t: time.Unix(1000, 0)}
		s := New(Options{HistoryEvents: 100, HistoryAge: time.Minute, Now: clk.now})
		for i := 0; i < 50; i++ { // revs 2..51
			put(t, s, fmt.Sprintf("/k/%02d", i), "v")
		}
		clk.advance(30 * time.Second)
		put(t, s, "/k/x", "v") // 52: nothing is old yet
		if got := s.CompactedRev(); got != 1 {
			t.Fatalf("compacted early: %d", got)
		}
		clk.advance(31 * time.Second)
		put(t, s, "/k/y", "v") // 53: revs 2..51 are old, but a tenth (10) of the limit stays
		if got, want := s.CompactedRev(), Revision(43); got != want {
			t.Errorf("CompactedRev = %d, want %d", got, want)
		}
		if n := len(s.log); n != 10 {
			t.Errorf("log holds %d events, want 10", n)
		}
		if _, _, _, err := s.List("/k/", "", 42, nil, 0); err != ErrCompacted {
			t.Errorf("List at 42: %v, want ErrCompacted", err)
		}
		kvs, _, _, err := s.List("/k/", "", 43, nil, 0)
		if err != nil || len(kvs) != 42 {
			t.Errorf("List at 43: %d items, %v; want 42", len(kvs), err)
		}
	})
	t.Run("a quiet store keeps its history", func(t *testing.T) {
		clk := &fakeClock{t: time.Unix(1000, 0)}
		s := New(Options{HistoryEvents: 100, HistoryAge: time.Minute, Now: clk.now})
		for i := 0; i < 5; i++ {
			put(t, s, "/k/a", "v")
		}
		clk.advance(time.Hour)
		put(t, s, "/k/a", "v")
		if got := s.CompactedRev(); got != 1 {
			t.Errorf("CompactedRev = %d, want 1 (6 events < a tenth of 100)", got)
		}
	})
}

// TestCompactionMatchesModel replays random writes against a map model and
// checks every retained revision reads exactly the model's state then.
func TestCompactionMatchesModel(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			rng := newRand(seed)
			s := New(Options{HistoryEvents: 1 + rng.Intn(40)})
			states := map[Revision]map[string]string{1: {}}
			cur := map[string]string{}
			for i := 0; i < 300; i++ {
				k := fmt.Sprintf("/k/%d", rng.Intn(8))
				if _, ok := cur[k]; ok && rng.Intn(3) == 0 {
					del(t, s, k)
					delete(cur, k)
				} else {
					v := fmt.Sprint(i)
					put(t, s, k, v)
					cur[k] = v
				}
				snap := map[string]string{}
				for k, v := range cur {
					snap[k] = v
				}
				states[s.Rev()] = snap
			}
			for rev := Revision(1); rev <= s.Rev(); rev++ {
				kvs, _, _, err := s.List("/k/", "", rev, nil, 0)
				if rev < s.CompactedRev() {
					if err != ErrCompacted {
						t.Fatalf("List at %d (< %d): %v", rev, s.CompactedRev(), err)
					}
					continue
				}
				got := map[string]string{}
				for _, kv := range kvs {
					got[kv.Key] = string(kv.Value)
				}
				if !reflect.DeepEqual(got, states[rev]) {
					t.Fatalf("List at %d = %v, want %v", rev, got, states[rev])
				}
			}
		})
	}
}

func TestPersisterAndOnCommit(t *testing.T) {
	s := New(Options{})
	p := &failingPersister{failAt: 3}
	s.SetPersister(p)
	var seen []Revision
	s.OnCommit(func(ev Event) { seen = append(seen, ev.KV.ModRev) })
	put(t, s, "/k/a", "1")
	if _, ok, err := s.Update("/k/a", func(*KV, Revision) (Op, error) { return PutOp([]byte("2")), nil }); ok || err == nil {
		t.Fatalf("a failing Commit must abort the write: ok=%v err=%v", ok, err)
	}
	if s.Rev() != 2 {
		t.Errorf("aborted write took a revision: %d", s.Rev())
	}
	kv, _, _ := s.Get("/k/a", 0)
	if string(kv.Value) != "1" {
		t.Errorf("aborted write visible: %q", kv.Value)
	}
	s.SetPersister(nil)
	put(t, s, "/k/a", "3")
	if !reflect.DeepEqual(seen, []Revision{2, 3}) {
		t.Errorf("OnCommit saw %v, want [2 3]", seen)
	}
	if !reflect.DeepEqual(p.revs, []Revision{2, 3}) {
		t.Errorf("Commit saw %v, want [2 3] (3 failed)", p.revs)
	}
}

type failingPersister struct {
	failAt Revision
	revs   []Revision
}

func (p *failingPersister) Commit(ev Event) error {
	p.revs = append(p.revs, ev.KV.ModRev)
	if ev.KV.ModRev == p.failAt {
		return errors.New("disk full")
	}
	return nil
}

func TestSnapshotRestore(t *testing.T) {
	a := New(Options{})
	var events []Event
	a.OnCommit(func(ev Event) { events = append(events, ev) })
	put(t, a, "/k/a", "1") // 2
	put(t, a, "/k/b", "1") // 3
	del(t, a, "/k/a")      // 4
	snap, snapRev := a.Snapshot()
	if snapRev != 4 || len(snap) != 1 || snap[0].Key != "/k/b" {
		t.Fatalf("Snapshot = %v at %d", snap, snapRev)
	}
	put(t, a, "/k/c", "1") // 5
	put(t, a, "/k/b", "2") // 6
	del(t, a, "/k/c")      // 7

	b := New(Options{})
	if err := b.Restore(snap, snapRev, events); err != nil { // events ≤ snapRev are skipped
		t.Fatal(err)
	}
	t.Run("same state and revision", func(t *testing.T) {
		if b.Rev() != 7 || b.CompactedRev() != 4 {
			t.Errorf("rev=%d compacted=%d, want 7, 4", b.Rev(), b.CompactedRev())
		}
		for rev := Revision(4); rev <= 7; rev++ {
			ka, _, _, _ := a.List("/", "", rev, nil, 0)
			kb, _, _, err := b.List("/", "", rev, nil, 0)
			if err != nil || !reflect.DeepEqual(ka, kb) {
				t.Errorf("at %d: restored %v (%v), original %v", rev, kb, err, ka)
			}
		}
		if _, _, _, err := b.List("/", "", 3, nil, 0); err != ErrCompacted {
			t.Errorf("before the snapshot: %v, want ErrCompacted", err)
		}
	})
	t.Run("watch resumes from the snapshot", func(t *testing.T) {
		w, err := b.Watch("/k/", 4)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		evs, err := w.Next(ctx)
		if err != nil || len(evs) != 3 || evs[0].KV.ModRev != 5 || evs[2].Type != Delete {
			t.Errorf("events = %+v, %v", evs, err)
		}
	})
	t.Run("writes continue upward", func(t *testing.T) {
		if kv := put(t, b, "/k/d", "1"); kv.ModRev != 8 {
			t.Errorf("next write at %d, want 8", kv.ModRev)
		}
	})
}

func TestWaitForRev(t *testing.T) {
	s := New(Options{})
	done := make(chan error, 1)
	go func() { done <- s.WaitForRev(context.Background(), 3) }()
	put(t, s, "/k/a", "1")
	select {
	case <-done:
		t.Fatal("returned at rev 2")
	case <-time.After(20 * time.Millisecond):
	}
	put(t, s, "/k/a", "2")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := s.WaitForRev(ctx, 100); err != context.DeadlineExceeded {
		t.Errorf("err = %v, want DeadlineExceeded", err)
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct {
		name, p, want string
		ok            bool
	}{
		{"a key prefix", "/registry/configmaps/default/", "/registry/configmaps/default0", true},
		{"a high byte", "a\x7f", "a\x80", true},
		{"trailing 0xff bytes carry", "a\xff\xff", "b", true},
		{"all 0xff", "\xff\xff", "", false},
		{"empty", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := prefixEnd(tc.p)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("prefixEnd(%q) = %q, %v; want %q, %v", tc.p, got, ok, tc.want, tc.ok)
			}
		})
	}
}
