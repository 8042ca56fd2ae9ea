package store

import (
	"sort"
)

// Op is what an update function decided.
type Op struct {
	kind  int // 0 none, 1 put, 2 delete
	value []byte
}

// NoOp leaves the key as it is; the write takes no revision.
func NoOp() Op { return Op{} }

// PutOp stores value.
func PutOp(value []byte) Op { return Op{kind: 1, value: value} }

// DeleteOp removes the key.
func DeleteOp() Op { return Op{kind: 2} }

// UpdateFunc computes a write from the current value (nil if the key does
// not exist) and the revision the write will get if it changes anything.
// It runs under the store's write lock: keep it free of blocking calls.
type UpdateFunc func(cur *KV, next Revision) (Op, error)

// Persister makes writes durable. Commit is called under the write lock
// with every event before it becomes visible; an error aborts the write.
type Persister interface {
	Commit(ev Event) error
}

// SetPersister installs p (nil to remove).
func (s *Store) SetPersister(p Persister) {
	s.mu.Lock()
	s.persist = p
	s.mu.Unlock()
}

// OnCommit registers f to run after each committed write, outside the
// lock, in revision order for writes from one goroutine.
func (s *Store) OnCommit(f func(Event)) {
	s.mu.Lock()
	s.onCommit = append(s.onCommit, f)
	s.mu.Unlock()
}

// Update runs fn on key atomically and applies its decision. It returns
// the resulting KV (for a delete: the deleted value at the delete's
// revision) and whether anything was written.
func (s *Store) Update(key string, fn UpdateFunc) (KV, bool, error) {
	s.mu.Lock()
	var cur *KV
	if v, ok := at(s.hist[key], s.rev); ok {
		cur = &KV{Key: key, Value: v.value, CreateRev: v.create, ModRev: v.rev}
	}
	next := s.rev + 1
	op, err := fn(cur, next)
	if err != nil {
		s.mu.Unlock()
		return KV{}, false, err
	}
	var ev Event
	switch op.kind {
	case 0:
		s.mu.Unlock()
		if cur == nil {
			return KV{}, false, nil
		}
		return *cur, false, nil
	case 1:
		create := next
		if cur != nil {
			create = cur.CreateRev
		}
		ev = Event{Type: Put, KV: KV{Key: key, Value: op.value, CreateRev: create, ModRev: next}, Prev: cur}
	case 2:
		if cur == nil {
			s.mu.Unlock()
			return KV{}, false, ErrNotFound
		}
		ev = Event{Type: Delete, KV: KV{Key: key, Value: cur.Value, CreateRev: cur.CreateRev, ModRev: next}, Prev: cur}
	}
	if s.persist != nil {
		if err := s.persist.Commit(ev); err != nil {
			s.mu.Unlock()
			return KV{}, false, err
		}
	}
	s.apply(ev)
	hooks := s.onCommit
	s.mu.Unlock()
	for _, h := range hooks {
		h(ev)
	}
	return ev.KV, true, nil
}

// apply makes ev visible. Caller holds the write lock.
func (s *Store) apply(ev Event) {
	k := ev.KV.Key
	vs, known := s.hist[k]
	if !known {
		i := sort.SearchStrings(s.keys, k)
		s.keys = append(s.keys, "")
		copy(s.keys[i+1:], s.keys[i:])
		s.keys[i] = k
	}
	v := version{rev: ev.KV.ModRev, create: ev.KV.CreateRev, value: ev.KV.Value}
	if ev.Type == Delete {
		v = version{rev: ev.KV.ModRev, deleted: true}
	}
	s.hist[k] = append(vs, v)
	s.rev = ev.KV.ModRev
	s.log = append(s.log, logEntry{ev: ev, at: s.opts.Now()})
	s.trim()
	close(s.notify)
	s.notify = make(chan struct{})
}

// trim moves the window forward: drop events beyond the size limit, or
// older than the age limit while over a tenth of it (so a quiet store keeps
// its recent history for resuming watches).
func (s *Store) trim() {
	now := s.opts.Now()
	drop := 0
	for drop < len(s.log) {
		over := len(s.log)-drop > s.opts.HistoryEvents
		old := now.Sub(s.log[drop].at) > s.opts.HistoryAge && len(s.log)-drop > s.opts.HistoryEvents/10
		if !over && !old {
			break
		}
		drop++
	}
	if drop == 0 {
		return
	}
	newCompact := s.log[drop-1].ev.KV.ModRev
	for _, e := range s.log[:drop] {
		s.compactKey(e.ev.KV.Key, newCompact)
	}
	s.log = append(s.log[:0:0], s.log[drop:]...)
	s.compact = newCompact
}

// compactKey drops versions of key that no read at rev ≥ c can see.
func (s *Store) compactKey(k string, c Revision) {
	vs := s.hist[k]
	// keep the newest version ≤ c (visible at c) and everything after it
	i := sort.Search(len(vs), func(i int) bool { return vs[i].rev > c }) - 1
	if i <= 0 {
		if i == 0 && vs[0].deleted && len(vs) == 1 {
			s.removeKey(k)
		}
		return
	}
	vs = append(vs[:0:0], vs[i:]...)
	if len(vs) == 1 && vs[0].deleted {
		s.removeKey(k)
		return
	}
	s.hist[k] = vs
}

func (s *Store) removeKey(k string) {
	delete(s.hist, k)
	i := sort.SearchStrings(s.keys, k)
	if i < len(s.keys) && s.keys[i] == k {
		s.keys = append(s.keys[:i], s.keys[i+1:]...)
	}
}

// Restore loads state written by a Persister: the KVs of a snapshot at
// rev and the events after it. Only for an empty store.
func (s *Store) Restore(snapshot []KV, snapRev Revision, events []Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, kv := range snapshot {
		s.hist[kv.Key] = []version{{rev: kv.ModRev, create: kv.CreateRev, value: kv.Value}}
		s.keys = append(s.keys, kv.Key)
	}
	sort.Strings(s.keys)
	s.rev, s.compact = snapRev, snapRev
	for _, ev := range events {
		if ev.KV.ModRev > s.rev {
			s.apply(ev)
		}
	}
}

// Snapshot returns every live KV at the current revision.
func (s *Store) Snapshot() ([]KV, Revision) {
	kvs, rev, _, _ := s.List("", "", 0, nil, 0)
	return kvs, rev
}
