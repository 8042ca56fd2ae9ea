// Package store is the in-memory MVCC store under the API: one global
// revision counter (as in etcd), every successful write takes the next
// revision, and a bounded window of history serves reads at older
// revisions (paged lists) and watches that resume from a revision.
//
// A worked example. Starting empty at revision 1 (the store's own birth):
//
//	Create /w/a        → rev 2   history[/w/a] = [2:A]
//	Put    /w/a        → rev 3   history[/w/a] = [2:A, 3:A']
//	Delete /w/a        → rev 4   history[/w/a] = [2:A, 3:A', 4:<deleted>]
//
// List at rev 3 sees A'; at rev 4 sees nothing; a watch from rev 2 gets
// the events of revs 3 and 4. Once the window moves past rev 3, reads at
// rev ≤ 3 fail with ErrCompacted (HTTP 410, decided in apierr only).
//
// The store knows nothing about HTTP or Kubernetes objects: keys are
// strings, values opaque bytes.
package store

import (
	"errors"
	"sort"
	"sync"
	"time"
)

// Revision is a point in the store's history. Revision 0 means "latest".
type Revision int64

var (
	// ErrCompacted: the requested revision is older than the window.
	ErrCompacted = errors.New("store: required revision has been compacted")
	// ErrFutureRevision: the requested revision has not happened yet.
	ErrFutureRevision = errors.New("store: required revision is a future revision")
	// ErrNotFound: no such key at the requested revision.
	ErrNotFound = errors.New("store: key not found")
	// ErrExists: create of a key that exists.
	ErrExists = errors.New("store: key exists")
)

// KV is one stored value.
type KV struct {
	Key       string
	Value     []byte
	CreateRev Revision
	ModRev    Revision
}

// EventType says what happened to a key.
type EventType int

const (
	Put EventType = iota
	Delete
)

// Event is one write. Prev is the value before the write (nil on create).
type Event struct {
	Type EventType
	KV   KV // for Delete: the key, the deleted value, ModRev = the delete's revision
	Prev *KV

	memo *Memo // set when the event is logged (memo.go)
}

type version struct {
	rev     Revision
	create  Revision
	value   []byte // nil: deleted
	deleted bool
}

// Options bound the history window.
type Options struct {
	// HistoryEvents is the most events kept (default 10,000).
	HistoryEvents int
	// HistoryAge is how long an event is kept at least (default 5 minutes,
	// as etcd's default compaction interval in Kubernetes).
	HistoryAge time.Duration
	// Now is the clock (tests).
	Now func() time.Time
}

// Store is the MVCC store. All methods are safe for concurrent use.
type Store struct {
	opts Options

	mu       sync.RWMutex
	rev      Revision
	compact  Revision // reads at rev < compact fail with ErrCompacted
	keys     []string // sorted, every key with any retained version
	hist     map[string][]version
	log      []logEntry // events for revisions compact+1 … rev, in order
	notify   chan struct{}
	persist  Persister
	onCommit []func(Event)
	pipe     pipeline // group commit: writes staged above rev (persist.go)
}

type logEntry struct {
	ev Event
	at time.Time
}

// New returns an empty store at revision 1.
func New(opts Options) *Store {
	if opts.HistoryEvents <= 0 {
		opts.HistoryEvents = 10000
	}
	if opts.HistoryAge <= 0 {
		opts.HistoryAge = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{opts: opts, rev: 1, compact: 1, hist: map[string][]version{}, notify: make(chan struct{})}
}

// Rev is the current revision.
func (s *Store) Rev() Revision {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rev
}

// HeadRev is the revision of the newest write, visible or still being
// made durable (group commit, persist.go). A reset starts the next store
// after it, so no resourceVersion is ever handed out twice.
func (s *Store) HeadRev() Revision {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.headRev()
}

// CompactedRev is the oldest revision still readable.
func (s *Store) CompactedRev() Revision {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.compact
}

func (s *Store) checkRev(rev Revision) error {
	if rev == 0 {
		return nil
	}
	if rev > s.rev {
		return ErrFutureRevision
	}
	if rev < s.compact {
		return ErrCompacted
	}
	return nil
}

// at returns the version of key visible at rev (rev > 0).
func at(vs []version, rev Revision) (version, bool) {
	i := len(vs) - 1 // most reads ask for the newest version: no search
	if i >= 0 && vs[i].rev > rev {
		i = sort.Search(i, func(i int) bool { return vs[i].rev > rev }) - 1
	}
	if i < 0 || vs[i].deleted {
		return version{}, false
	}
	return vs[i], true
}

// prefixEnd is the least string above every string with prefix p; false
// when there is none (p empty or all 0xff bytes).
func prefixEnd(p string) (string, bool) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			return p[:i] + string([]byte{p[i] + 1}), true
		}
	}
	return "", false
}

// Get reads key at rev (0 = latest).
func (s *Store) Get(key string, rev Revision) (KV, Revision, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.checkRev(rev); err != nil {
		return KV{}, 0, err
	}
	r := rev
	if r == 0 {
		r = s.rev
	}
	v, ok := at(s.hist[key], r)
	if !ok {
		return KV{}, s.rev, ErrNotFound
	}
	return KV{Key: key, Value: v.value, CreateRev: v.create, ModRev: v.rev}, s.rev, nil
}

// List returns the values under prefix visible at rev (0 = latest), in key
// order, starting at the first key ≥ from, and the revision read.
// limit > 0 stops after that many; more reports whether keys remain, and
// remaining how many.
func (s *Store) List(prefix, from string, rev Revision, filter func(KV) bool, limit int) (kvs []KV, readRev Revision, remaining int, err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if err := s.checkRev(rev); err != nil {
		return nil, 0, 0, err
	}
	if rev == 0 {
		rev = s.rev
	}
	start := prefix
	if from > start {
		start = from
	}
	i := sort.SearchStrings(s.keys, start)
	if limit <= 0 || limit > 64 { // sized once: the keys under prefix from i on bound the answer
		n := len(s.keys) - i
		if end, ok := prefixEnd(prefix); ok {
			n = sort.SearchStrings(s.keys[i:], end)
		}
		if limit > 0 && n > limit {
			n = limit
		}
		if n > 0 {
			kvs = make([]KV, 0, n)
		}
	}
	for ; i < len(s.keys); i++ {
		k := s.keys[i]
		if len(k) < len(prefix) || k[:len(prefix)] != prefix {
			break
		}
		v, ok := at(s.hist[k], rev)
		if !ok {
			continue
		}
		kv := KV{Key: k, Value: v.value, CreateRev: v.create, ModRev: v.rev}
		if filter != nil && !filter(kv) {
			continue
		}
		if limit > 0 && len(kvs) == limit {
			remaining++
			continue
		}
		kvs = append(kvs, kv)
	}
	return kvs, rev, remaining, nil
}
