package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"
	"time"
)

// gate is a GroupPersister whose commits wait until the test releases them
// (release(nil) commits, release(err) fails the group).
type gate struct {
	mu     sync.Mutex
	groups [][]Revision
	enter  chan []Event
	result chan error
}

func newGate() *gate { return &gate{enter: make(chan []Event, 16), result: make(chan error)} }

func (g *gate) Commit(ev Event) error { return g.CommitGroup([]Event{ev}) }

func (g *gate) CommitGroup(evs []Event) error {
	g.enter <- evs
	err := <-g.result
	if err == nil {
		g.mu.Lock()
		var revs []Revision
		for _, ev := range evs {
			revs = append(revs, ev.KV.ModRev)
		}
		g.groups = append(g.groups, revs)
		g.mu.Unlock()
	}
	return err
}

func putAsync(s *Store, key, val string) chan error {
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Update(key, func(*KV, Revision) (Op, error) { return PutOp([]byte(val)), nil })
		done <- err
	}()
	return done
}

func createAsync(s *Store, key, val string) chan error {
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Update(key, func(cur *KV, _ Revision) (Op, error) {
			if cur != nil {
				return NoOp(), ErrExists
			}
			return PutOp([]byte(val)), nil
		})
		done <- err
	}()
	return done
}

func waitStaged(t *testing.T, s *Store, head Revision) {
	t.Helper()
	for i := 0; i < 2000; i++ {
		s.mu.RLock()
		h := s.headRev()
		s.mu.RUnlock()
		if h == head {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("head never reached %d", head)
}

func pending(ch chan error) bool {
	select {
	case err := <-ch:
		ch <- err
		return false
	default:
		return true
	}
}

func TestGroupCommit(t *testing.T) {
	t.Run("a write is visible and acknowledged only once durable; concurrent writes share a group", func(t *testing.T) {
		s := New(Options{})
		g := newGate()
		s.SetPersister(g)
		w1 := putAsync(s, "/k/a", "1")
		first := <-g.enter // group [2] is committing
		w2 := putAsync(s, "/k/b", "1")
		waitStaged(t, s, 3)
		w3 := putAsync(s, "/k/a", "2")
		waitStaged(t, s, 4)
		if s.Rev() != 1 || !pending(w1) || !pending(w2) {
			t.Fatalf("visible before durable: rev %d", s.Rev())
		}
		if _, _, err := s.Get("/k/a", 0); err != ErrNotFound {
			t.Fatalf("staged value readable: %v", err)
		}
		g.result <- nil
		if err := <-w1; err != nil || len(first) != 1 {
			t.Fatal(err, first)
		}
		second := <-g.enter
		if len(second) != 2 || s.Rev() != 2 || !pending(w2) || !pending(w3) {
			t.Fatalf("second group %v, rev %d", second, s.Rev())
		}
		g.result <- nil
		if err := <-w2; err != nil {
			t.Fatal(err)
		}
		if err := <-w3; err != nil {
			t.Fatal(err)
		}
		kv, _, _ := s.Get("/k/a", 0)
		if string(kv.Value) != "2" || kv.ModRev != 4 || kv.CreateRev != 2 {
			t.Errorf("a = %+v", kv)
		}
		if !reflect.DeepEqual(g.groups, [][]Revision{{2}, {3, 4}}) {
			t.Errorf("groups %v", g.groups)
		}
	})

	t.Run("a failed group is rolled back; writes staged after it run again", func(t *testing.T) {
		s := New(Options{})
		g := newGate()
		s.SetPersister(g)
		w, err := s.Watch("/k/", 1)
		if err != nil {
			t.Fatal(err)
		}
		w1 := createAsync(s, "/k/a", "first")
		<-g.enter
		w2 := createAsync(s, "/k/a", "second") // sees a staged: decides AlreadyExists
		w3 := putAsync(s, "/k/b", "1")
		waitStaged(t, s, 3) // [2] in flight, [3] open; w2's decision waits
		g.result <- errors.New("QuotaExceededError")
		if err := <-w1; err == nil || err.Error() != "QuotaExceededError" {
			t.Fatalf("w1: %v", err)
		}
		// w2 and w3 run again on the rolled-back state, in either order
		for n := 0; n < 2; {
			n += len(<-g.enter)
			g.result <- nil
		}
		if err := <-w2; err != nil {
			t.Fatalf("w2 must have been decided again and created a: %v", err)
		}
		if err := <-w3; err != nil {
			t.Fatal(err)
		}
		kv, _, _ := s.Get("/k/a", 0)
		if string(kv.Value) != "second" || s.Rev() != 3 {
			t.Errorf("a = %q at rev %d", kv.Value, s.Rev())
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		var got []Revision
		for len(got) < 2 {
			evs, err := w.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				got = append(got, ev.KV.ModRev)
			}
		}
		if !reflect.DeepEqual(got, []Revision{2, 3}) {
			t.Errorf("watch saw %v, want [2 3]: no gap, nothing rolled back", got)
		}
	})

	t.Run("an UpdateFunc error waits for the staged state it saw", func(t *testing.T) {
		s := New(Options{})
		g := newGate()
		s.SetPersister(g)
		w1 := createAsync(s, "/k/a", "1")
		<-g.enter
		w2 := createAsync(s, "/k/a", "2")
		time.Sleep(20 * time.Millisecond)
		if !pending(w2) {
			t.Fatal("AlreadyExists answered before the write it rests on is durable")
		}
		g.result <- nil
		<-w1
		if err := <-w2; err != ErrExists {
			t.Errorf("w2: %v", err)
		}
	})

	t.Run("a panicking persister fails the write", func(t *testing.T) {
		s := New(Options{})
		s.SetPersister(panicky{})
		if _, _, err := s.Update("/k/a", func(*KV, Revision) (Op, error) { return PutOp([]byte("1")), nil }); err == nil {
			t.Fatal("no error")
		}
		if s.Rev() != 1 || len(s.keys) != 0 {
			t.Errorf("rev %d keys %v", s.Rev(), s.keys)
		}
	})
}

type panicky struct{}

func (panicky) Commit(Event) error        { panic("boom") }
func (panicky) CommitGroup([]Event) error { panic("boom") }

// flaky durably records groups, failing some at random.
type flaky struct {
	mu     sync.Mutex
	rnd    *rand.Rand
	events []Event
}

func (f *flaky) Commit(ev Event) error { return f.CommitGroup([]Event{ev}) }
func (f *flaky) CommitGroup(evs []Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	time.Sleep(time.Duration(f.rnd.Intn(300)) * time.Microsecond)
	if f.rnd.Intn(5) == 0 {
		return errors.New("injected")
	}
	if len(f.events) > 0 && evs[0].KV.ModRev != f.events[len(f.events)-1].KV.ModRev+1 {
		return fmt.Errorf("group starts at %d after %d", evs[0].KV.ModRev, f.events[len(f.events)-1].KV.ModRev)
	}
	f.events = append(f.events, evs...)
	return nil
}

func TestGroupCommitConcurrent(t *testing.T) {
	s := New(Options{HistoryEvents: 100000})
	f := &flaky{rnd: rand.New(rand.NewSource(1))}
	s.SetPersister(f)
	w, _ := s.Watch("/", 1)
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := map[Revision]string{}
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 150; i++ {
				key := fmt.Sprintf("/k/%d", (g*7+i)%13)
				val := fmt.Sprintf("%d-%d", g, i)
				kv, ok, err := s.Update(key, func(cur *KV, _ Revision) (Op, error) {
					if cur != nil && i%3 == 0 {
						return DeleteOp(), nil
					}
					return PutOp([]byte(val)), nil
				})
				if err == nil && ok {
					mu.Lock()
					acked[kv.ModRev] = key
					mu.Unlock()
				}
			}
		}(g)
	}
	wg.Wait()
	// Every acknowledged write is durable, at its revision; nothing else is.
	if len(f.events) != len(acked) || Revision(len(f.events))+1 != s.Rev() {
		t.Fatalf("%d durable, %d acknowledged, rev %d", len(f.events), len(acked), s.Rev())
	}
	for _, ev := range f.events {
		if acked[ev.KV.ModRev] != ev.KV.Key {
			t.Fatalf("durable %d %s not acknowledged as such", ev.KV.ModRev, ev.KV.Key)
		}
	}
	// A fresh store restored from the durable events has the same state.
	r := New(Options{HistoryEvents: 100000})
	if err := r.Restore(nil, 1, f.events); err != nil {
		t.Fatal(err)
	}
	a, _ := s.Snapshot()
	b, _ := r.Snapshot()
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("restored state differs")
	}
	// The watcher saw every durable event, in order, without a gap.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	next := Revision(2)
	for next <= s.Rev() {
		evs, err := w.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.KV.ModRev != next || !reflect.DeepEqual(ev.KV, f.events[next-2].KV) {
				t.Fatalf("watch event %d, want %d", ev.KV.ModRev, next)
			}
			next++
		}
	}
}

func TestRestoreRejects(t *testing.T) {
	ev := func(rev Revision) Event {
		return Event{Type: Put, KV: KV{Key: "/k/a", Value: []byte("v"), CreateRev: 2, ModRev: rev}}
	}
	for _, tt := range []struct {
		name    string
		snap    []KV
		snapRev Revision
		events  []Event
		want    string
	}{
		{"gap", nil, 1, []Event{ev(2), ev(4)}, "store: restored events jump from revision 2 to 4"},
		{"gap after snapshot", nil, 5, []Event{ev(7)}, "store: restored events jump from revision 5 to 7"},
		{"snapshot newer than its revision", []KV{{Key: "/k/a", CreateRev: 2, ModRev: 9}}, 5, nil,
			`store: snapshot at 5 holds key "/k/a" twice or at a later revision`},
		{"revision 0", nil, 0, nil, "store: snapshot revision 0 is before the store's birth (1)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{})
			err := s.Restore(tt.snap, tt.snapRev, tt.events)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %s", err, tt.want)
			}
		})
	}
	t.Run("non-empty store", func(t *testing.T) {
		s := New(Options{})
		s.Update("/k/a", func(*KV, Revision) (Op, error) { return PutOp([]byte("1")), nil })
		if err := s.Restore(nil, 1, nil); err == nil {
			t.Fatal("restored into a used store")
		}
	})
	t.Run("Prev is rebuilt", func(t *testing.T) {
		s := New(Options{})
		if err := s.Restore([]KV{{Key: "/k/a", Value: []byte("0"), CreateRev: 2, ModRev: 2}}, 3, []Event{ev(4)}); err != nil {
			t.Fatal(err)
		}
		w, _ := s.Watch("/k/", 3)
		evs, err := w.Next(context.Background())
		if err != nil || len(evs) != 1 || evs[0].Prev == nil || string(evs[0].Prev.Value) != "0" {
			t.Fatalf("%+v %v", evs, err)
		}
	})
}
