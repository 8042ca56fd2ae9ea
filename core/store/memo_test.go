package store

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMemo: a logged event carries one Memo that every watcher sees; each
// key is computed once however many readers ask at once; another key is
// computed apart; past memoWindow an event's memo computes every time and
// keeps nothing.
func TestMemo(t *testing.T) {
	s := New(Options{HistoryEvents: 4 * memoWindow})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var watches []*Watch
	for range 8 {
		w, err := s.Watch("/w/", s.Rev())
		if err != nil {
			t.Fatal(err)
		}
		watches = append(watches, w)
	}
	put(t, s, "/w/a", "1")
	var calls, otherCalls atomic.Int32
	var wg sync.WaitGroup
	got := make([]any, len(watches))
	other := make([]any, len(watches))
	var first Event
	for i, w := range watches {
		evs, err := w.Next(ctx)
		if err != nil || len(evs) != 1 || evs[0].Memo() == nil {
			t.Fatalf("watcher %d: %d events, err %v", i, len(evs), err)
		}
		if i == 0 {
			first = evs[0]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = evs[0].Memo().Do("k", func() any { calls.Add(1); return new(int) })
			other[i] = evs[0].Memo().Do(struct{ n int }{1}, func() any { otherCalls.Add(1); return new(int) })
		}()
	}
	wg.Wait()
	t.Run("one call per key, one value for every reader", func(t *testing.T) {
		if calls.Load() != 1 || otherCalls.Load() != 1 {
			t.Fatalf("computed %d and %d times, want once each", calls.Load(), otherCalls.Load())
		}
		for i := range got {
			if got[i] != got[0] || other[i] != other[0] {
				t.Fatalf("watcher %d got another value", i)
			}
		}
		if got[0] == other[0] {
			t.Fatal("two keys share one value")
		}
	})
	t.Run("nil memo computes each time", func(t *testing.T) {
		var m *Memo
		n := 0
		for range 3 {
			m.Do("k", func() any { n++; return n })
		}
		if n != 3 {
			t.Fatalf("computed %d times, want 3", n)
		}
		if (Event{}).Memo() != nil {
			t.Fatal("an event never logged has a memo")
		}
	})
	t.Run("past the window", func(t *testing.T) {
		for i := range memoWindow {
			put(t, s, fmt.Sprintf("/w/b%d", i), "1")
		}
		n := 0
		for range 2 {
			first.Memo().Do("late", func() any { n++; return n })
		}
		if n != 2 || len(first.Memo().entries) != 0 {
			t.Fatalf("computed %d times, %d entries kept; want 2 and 0", n, len(first.Memo().entries))
		}
		w, _ := s.Watch("/w/", s.Rev()-1)
		evs, err := w.Next(ctx)
		if err != nil || len(evs) != 1 || evs[0].Memo().dropped {
			t.Fatalf("the newest event: %d events, err %v, or its memo dropped", len(evs), err)
		}
	})
}
