package store

import "sync"

// memoWindow is how many of the newest events keep their Memo: a watcher
// further behind than that computes its own answer again (correct, just
// not shared), and the encodings of older events are left to the garbage
// collector instead of living as long as the history window.
const memoWindow = 1024

// A Memo is a small cache that travels with one logged event: the values
// its readers derive from it (decoded objects, encoded watch events), each
// computed once per key and shared by every reader asking with that key —
// what kube-apiserver's watch cache does with its cachingObject, which
// serializes an event once per encoder for all its watchers. The store
// never reads it; the key space belongs to the caller.
//
// A worked example: 100 watchers of configmaps in "default" receive the
// event of revision 8. The first to ask calls
//
//	b := ev.Memo().Do(key{res, "MODIFIED"}, encode)
//
// and encodes; the other 99 wait for that call, then get the same value.
// A watcher asking for a Table (another key) encodes once for all the
// Table watchers.
//
// Values must be treated as read-only by every reader. A nil *Memo (an
// event that was never logged, or one past memoWindow) computes every
// time.
type Memo struct {
	mu      sync.Mutex
	dropped bool // past memoWindow: compute, never store
	entries []memoEntry
}

type memoEntry struct {
	key any
	val *memoValue
}

type memoValue struct {
	once sync.Once
	v    any
}

// Do returns the value for key, calling f for it the first time (once,
// however many readers ask at the same time). key must be comparable.
func (m *Memo) Do(key any, f func() any) any {
	if m == nil {
		return f()
	}
	m.mu.Lock()
	if m.dropped {
		m.mu.Unlock()
		return f()
	}
	var e *memoValue
	for _, x := range m.entries {
		if x.key == key {
			e = x.val
			break
		}
	}
	if e == nil {
		e = &memoValue{}
		m.entries = append(m.entries, memoEntry{key, e})
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v = f() })
	return e.v
}

// drop forgets every value and stops storing new ones.
func (m *Memo) drop() {
	m.mu.Lock()
	m.dropped, m.entries = true, nil
	m.mu.Unlock()
}

// Memo is the event's shared cache (nil for an event the store did not
// hand out of its log, e.g. to a Persister or an OnCommit hook).
func (e Event) Memo() *Memo { return e.memo }
