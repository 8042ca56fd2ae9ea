package store

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"
)

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }

// drain reads events from w until it has n of them (or fails the test).
func drain(t *testing.T, w *Watch, n int) []Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out []Event
	for len(out) < n {
		evs, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("after %d of %d events: %v", len(out), n, err)
		}
		out = append(out, evs...)
	}
	if len(out) != n {
		t.Fatalf("got %d events, want %d", len(out), n)
	}
	return out
}

func TestWatchDeliversEveryEventInOrder(t *testing.T) {
	t.Run("sequential writes, prefix filter", func(t *testing.T) {
		s := New(Options{})
		w, err := s.Watch("/w/", s.Rev())
		if err != nil {
			t.Fatal(err)
		}
		put(t, s, "/w/a", "1") // 2
		put(t, s, "/x/a", "1") // 3: other prefix
		put(t, s, "/w/a", "2") // 4
		del(t, s, "/w/a")      // 5
		put(t, s, "/w", "1")   // 6: the prefix itself without slash is not under /w/
		put(t, s, "/w/b", "1") // 7
		evs := drain(t, w, 4)
		want := []struct {
			typ  EventType
			rev  Revision
			prev string
		}{{Put, 2, ""}, {Put, 4, "1"}, {Delete, 5, "2"}, {Put, 7, ""}}
		for i, ev := range evs {
			if ev.Type != want[i].typ || ev.KV.ModRev != want[i].rev {
				t.Errorf("event %d = %v@%d, want %v@%d", i, ev.Type, ev.KV.ModRev, want[i].typ, want[i].rev)
			}
			prev := ""
			if ev.Prev != nil {
				prev = string(ev.Prev.Value)
			}
			if prev != want[i].prev {
				t.Errorf("event %d prev = %q, want %q", i, prev, want[i].prev)
			}
		}
		if w.Progress() != 7 {
			t.Errorf("Progress = %d, want 7", w.Progress())
		}
	})
	t.Run("watch from an older revision replays history", func(t *testing.T) {
		s := New(Options{})
		for i := 0; i < 10; i++ {
			put(t, s, "/w/a", fmt.Sprint(i))
		}
		w, err := s.Watch("/w/", 5)
		if err != nil {
			t.Fatal(err)
		}
		evs := drain(t, w, 6) // revs 6..11
		for i, ev := range evs {
			if ev.KV.ModRev != Revision(6+i) {
				t.Fatalf("event %d at rev %d", i, ev.KV.ModRev)
			}
		}
	})
	t.Run("concurrent writers", func(t *testing.T) {
		s := New(Options{HistoryEvents: 100000})
		const writers, each = 4, 2000
		w, _ := s.Watch("/", s.Rev())
		var wg sync.WaitGroup
		for g := 0; g < writers; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < each; i++ {
					put(t, s, fmt.Sprintf("/g%d/%d", g, i%10), fmt.Sprint(i))
				}
			}(g)
		}
		evs := drain(t, w, writers*each)
		wg.Wait()
		last := map[string]int{}
		for i, ev := range evs {
			if ev.KV.ModRev != Revision(2+i) {
				t.Fatalf("event %d has rev %d: gap or reorder", i, ev.KV.ModRev)
			}
			// per writer, values arrive in the order written
			g := ev.KV.Key[:3]
			var v int
			fmt.Sscan(string(ev.KV.Value), &v)
			if p, ok := last[g]; ok && v != p+1 {
				t.Fatalf("writer %s: value %d after %d", g, v, p)
			}
			last[g] = v
		}
	})
	t.Run("Next honours its context", func(t *testing.T) {
		s := New(Options{})
		w, _ := s.Watch("/", s.Rev())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		if _, err := w.Next(ctx); err != context.DeadlineExceeded {
			t.Errorf("err = %v", err)
		}
	})
}

func TestWatchFallsOutOfWindow(t *testing.T) {
	tests := []struct {
		name     string
		window   int
		read     int // events read before the burst
		burst    int
		wantErr  bool
		wantRead int // events delivered by the first Next after the burst
	}{
		{"burst within the window", 10, 0, 10, false, 10},
		{"burst one past the window", 10, 0, 11, true, 0},
		{"reader in the middle, then overtaken", 10, 3, 12, true, 0},
		{"reader in the middle, burst fits", 10, 3, 10, false, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Options{HistoryEvents: tt.window})
			w, err := s.Watch("/", s.Rev())
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < tt.read; i++ {
				put(t, s, "/k", "pre")
			}
			if tt.read > 0 {
				drain(t, w, tt.read)
			}
			for i := 0; i < tt.burst; i++ {
				put(t, s, "/k", fmt.Sprint(i))
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			evs, err := w.Next(ctx)
			if tt.wantErr {
				if err != ErrCompacted || len(evs) != 0 {
					t.Fatalf("got %d events, err %v; want ErrCompacted and nothing", len(evs), err)
				}
				// and it stays failed: never a silent resumption after a gap
				if _, err := w.Next(ctx); err != ErrCompacted {
					t.Errorf("second Next: %v", err)
				}
				return
			}
			if err != nil || len(evs) != tt.wantRead {
				t.Fatalf("got %d events, err %v; want %d", len(evs), err, tt.wantRead)
			}
		})
	}
}

// TestSlowWatcherNeverBlocksWriters: a watcher that never reads must not
// slow writers down or pin memory; once it reads it learns it is too late.
func TestSlowWatcherNeverBlocksWriters(t *testing.T) {
	s := New(Options{HistoryEvents: 1000})
	w, err := s.Watch("/", s.Rev())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		v := []byte("value")
		for i := 0; i < 100000; i++ {
			s.Update(fmt.Sprintf("/k/%d", i%100), func(*KV, Revision) (Op, error) { return PutOp(v), nil })
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("writers blocked by a watcher that never reads")
	}
	if s.Rev() != 100001 {
		t.Fatalf("rev = %d", s.Rev())
	}
	if n := len(s.log); n > 1000 {
		t.Errorf("log grew to %d events (window 1000)", n)
	}
	if _, err := w.Next(context.Background()); err != ErrCompacted {
		t.Errorf("slow watcher: %v, want ErrCompacted", err)
	}
}
