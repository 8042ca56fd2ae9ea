package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// Store-level benchmarks (make bench): the cost of the MVCC layer alone,
// below JSON and HTTP.

var benchValue = make([]byte, 1024)

func benchPut(s *Store, key string) {
	s.Update(key, func(*KV, Revision) (Op, error) { return PutOp(benchValue), nil })
}

// BenchmarkPut: a write to a store whose history window is full, so every
// write also moves the window (the steady state of a busy server).
func BenchmarkPut(b *testing.B) {
	for _, window := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("window=%d", window), func(b *testing.B) {
			s := New(Options{HistoryEvents: window})
			keys := make([]string, 10000)
			for i := range keys {
				keys[i] = fmt.Sprintf("/core/configmaps/default/cm-%05d", i)
				benchPut(s, keys[i])
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				benchPut(s, keys[i%len(keys)])
			}
		})
	}
}

func populatedStore(n int) *Store {
	s := New(Options{})
	for i := 0; i < n; i++ {
		benchPut(s, fmt.Sprintf("/core/configmaps/default/cm-%05d", i))
	}
	return s
}

// BenchmarkList: 10,000 keys, at the latest and at an older revision, whole
// and as the first page of 500.
func BenchmarkList(b *testing.B) {
	s := populatedStore(10000)
	old := s.Rev() - 5000
	for _, tt := range []struct {
		name  string
		rev   Revision
		limit int
	}{{"latest", 0, 0}, {"old-rev", old, 0}, {"page500", 0, 500}} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				kvs, _, _, err := s.List("/core/configmaps/", "", tt.rev, nil, tt.limit)
				if err != nil || len(kvs) == 0 {
					b.Fatal(len(kvs), err)
				}
			}
		})
	}
}

// BenchmarkWatchFanout: one write, 100 store watchers; an op ends when all
// have the event.
func BenchmarkWatchFanout(b *testing.B) {
	const watchers = 100
	s := populatedStore(100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	got := make(chan struct{}, watchers)
	for w := 0; w < watchers; w++ {
		wt, err := s.Watch("/core/", s.Rev())
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				evs, err := wt.Next(ctx)
				if err != nil {
					return
				}
				for range evs {
					got <- struct{}{}
				}
			}
		}()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchPut(s, "/core/configmaps/default/cm-00001")
		for w := 0; w < watchers; w++ {
			<-got
		}
	}
	b.StopTimer()
	cancel()
	wg.Wait()
}
