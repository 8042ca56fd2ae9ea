package store

import "context"

// Watch delivers, in order, every event with revision > from whose key
// starts with prefix. Watchers never block writers: each one reads the
// shared event log at its own pace. A watcher that falls out of the window
// ends with ErrCompacted — never with a silent gap.
type Watch struct {
	s      *Store
	prefix string
	next   Revision // the first revision not yet delivered
}

// Watch starts a watch after revision from (which must be retained).
func (s *Store) Watch(prefix string, from Revision) (*Watch, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if from < s.compact {
		return nil, ErrCompacted
	}
	if from > s.rev {
		return nil, ErrFutureRevision
	}
	return &Watch{s: s, prefix: prefix, next: from + 1}, nil
}

// Next blocks until events are available (or ctx ends) and returns them.
// It returns ErrCompacted once the watcher's position has left the window.
func (w *Watch) Next(ctx context.Context) ([]Event, error) {
	for {
		out, ch, err := w.Poll()
		if err != nil || len(out) > 0 {
			return out, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-ch:
		}
	}
}

// Poll returns the events available now, without waiting, and a channel
// that is closed once the store has written after them — what a caller
// waiting for more selects on, beside its own timers, without a goroutine
// of its own per watcher. It returns ErrCompacted once the watcher's
// position has left the window.
//
//	for {
//		evs, more, err := w.Poll()
//		… send evs …
//		if len(evs) == 0 { select { case <-more: case <-tick.C: … } }
//	}
func (w *Watch) Poll() ([]Event, <-chan struct{}, error) {
	w.s.mu.RLock()
	defer w.s.mu.RUnlock()
	if w.next <= w.s.compact {
		return nil, nil, ErrCompacted
	}
	var out []Event
	if w.next <= w.s.rev {
		first := w.s.log[0].ev.KV.ModRev
		for _, e := range w.s.log[w.next-first:] {
			k := e.ev.KV.Key
			if len(k) >= len(w.prefix) && k[:len(w.prefix)] == w.prefix {
				out = append(out, e.ev)
			}
		}
		w.next = w.s.rev + 1
	}
	return out, w.s.notify, nil
}

// Progress is the revision the watcher has seen up to (for bookmarks).
func (w *Watch) Progress() Revision { return w.next - 1 }

// WaitForRev blocks until the store reaches rev or ctx ends.
func (s *Store) WaitForRev(ctx context.Context, rev Revision) error {
	for {
		s.mu.RLock()
		cur, ch := s.rev, s.notify
		s.mu.RUnlock()
		if cur >= rev {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}
