package store

import (
	"errors"
	"fmt"
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
// A Persister that also implements GroupPersister is used in groups
// instead (persist.go), outside the lock.
type Persister interface {
	Commit(ev Event) error
}

// SetPersister installs p (nil to remove). Install it before writes start.
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
//
// With a GroupPersister, Update returns only once the write is durable
// and visible; fn sees the writes staged before it (not yet durable), and
// runs again if those are rolled back because their commit failed.
func (s *Store) Update(key string, fn UpdateFunc) (KV, bool, error) {
	for {
		kv, ok, err, again := s.update(key, fn)
		if !again {
			return kv, ok, err
		}
	}
}

// update is one attempt of Update; again reports that the state fn saw was
// rolled back, so fn must run again.
func (s *Store) update(key string, fn UpdateFunc) (kv KV, written bool, err error, again bool) {
	s.mu.Lock()
	head := s.headRev()
	var cur *KV
	if v, ok := at(s.hist[key], head); ok {
		cur = &KV{Key: key, Value: v.value, CreateRev: v.create, ModRev: v.rev}
	}
	next := head + 1
	op, err := decide(fn, cur, next)
	var ev Event
	switch {
	case err != nil:
	case op.kind == 0:
		if cur != nil {
			kv = *cur
		}
	case op.kind == 1:
		create := next
		if cur != nil {
			create = cur.CreateRev
		}
		ev = Event{Type: Put, KV: KV{Key: key, Value: op.value, CreateRev: create, ModRev: next}, Prev: cur}
	case cur == nil:
		err = ErrNotFound
	default:
		ev = Event{Type: Delete, KV: KV{Key: key, Value: cur.Value, CreateRev: cur.CreateRev, ModRev: next}, Prev: cur}
	}
	if err != nil || op.kind == 0 || ev.KV.ModRev == 0 {
		// Nothing to write. The decision may rest on staged writes: answer
		// once they are durable, or decide again if they are rolled back.
		g := s.pipe.newest()
		s.mu.Unlock()
		if err != nil {
			kv = KV{}
		}
		if g != nil {
			<-g.done
			if g.err != nil || g.retry {
				return KV{}, false, nil, true
			}
		}
		return kv, false, err, false
	}
	if gp, ok := s.persist.(GroupPersister); ok {
		g := s.stage(ev, gp)
		s.mu.Unlock()
		<-g.done
		if g.retry {
			return KV{}, false, nil, true
		}
		if g.err != nil {
			return KV{}, false, g.err, false
		}
		s.runHooks(ev)
		return ev.KV, true, nil, false
	}
	if s.persist != nil {
		if err := s.persist.Commit(ev); err != nil {
			s.mu.Unlock()
			return KV{}, false, err, false
		}
	}
	s.apply(ev)
	hooks := s.onCommit
	s.mu.Unlock()
	for _, h := range hooks {
		h(ev)
	}
	return ev.KV, true, nil, false
}

// PanicError is what Update returns when its UpdateFunc panics: the panic
// becomes an error of that one write (nothing is written, the lock is
// released), so one bad decision cannot stop every later write.
type PanicError struct{ Value any }

func (e *PanicError) Error() string {
	return fmt.Sprintf("store: update function panicked: %v", e.Value)
}

// decide runs fn, turning a panic into a *PanicError.
func decide(fn UpdateFunc, cur *KV, next Revision) (op Op, err error) {
	defer func() {
		if p := recover(); p != nil {
			op, err = Op{}, &PanicError{Value: p}
		}
	}()
	return fn(cur, next)
}

func (s *Store) runHooks(ev Event) {
	s.mu.RLock()
	hooks := s.onCommit
	s.mu.RUnlock()
	for _, h := range hooks {
		h(ev)
	}
}

// apply makes ev visible. Caller holds the write lock.
func (s *Store) apply(ev Event) {
	s.addVersion(ev)
	s.publish(ev)
	s.wake()
}

// addVersion records ev in the key's history (visible to reads only once
// s.rev reaches it). Caller holds the write lock.
func (s *Store) addVersion(ev Event) {
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
}

// publish moves the visible revision to ev's and logs it for watchers.
// Caller holds the write lock and calls wake afterwards.
func (s *Store) publish(ev Event) {
	s.rev = ev.KV.ModRev
	ev.memo = &Memo{}
	s.log = append(s.log, logEntry{ev: ev, at: s.opts.Now()})
	if n := len(s.log) - 1 - memoWindow; n >= 0 {
		s.log[n].ev.memo.drop()
	}
	s.trim()
}

// wake tells waiting watchers that the visible revision moved.
func (s *Store) wake() {
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
	// Reslice instead of copying the window on every write (that made each
	// write O(window)); append reallocates, copying only live entries, when
	// the capacity runs out. Clearing lets the dropped values be collected.
	clear(s.log[:drop])
	s.log = s.log[drop:]
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
// snapRev and the events after it (events ≤ snapRev are skipped; the rest
// must follow snapRev without a gap). Only for an empty store. Each
// restored event's Prev is rebuilt from the state before it.
func (s *Store) Restore(snapshot []KV, snapRev Revision, events []Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rev != 1 || len(s.keys) != 0 || s.pipe.newest() != nil {
		return errors.New("store: Restore needs an empty store")
	}
	if snapRev < 1 {
		return fmt.Errorf("store: snapshot revision %d is before the store's birth (1)", snapRev)
	}
	want := snapRev + 1
	for _, ev := range events {
		switch {
		case ev.KV.ModRev <= snapRev:
		case ev.KV.ModRev != want:
			return fmt.Errorf("store: restored events jump from revision %d to %d", want-1, ev.KV.ModRev)
		default:
			want++
		}
	}
	// sized once: 10,000 keys grown one by one rehash the map ~10 times
	s.hist = make(map[string][]version, len(snapshot)+len(events))
	s.keys = make([]string, 0, len(snapshot))
	vs := make([]version, len(snapshot)) // one allocation for every key's first version
	for i, kv := range snapshot {
		if _, twice := s.hist[kv.Key]; twice || kv.ModRev > snapRev || kv.CreateRev > kv.ModRev {
			s.hist, s.keys = map[string][]version{}, nil
			return fmt.Errorf("store: snapshot at %d holds key %q twice or at a later revision", snapRev, kv.Key)
		}
		vs[i] = version{rev: kv.ModRev, create: kv.CreateRev, value: kv.Value}
		s.hist[kv.Key] = vs[i : i+1 : i+1]
		s.keys = append(s.keys, kv.Key)
	}
	if !sort.StringsAreSorted(s.keys) { // a snapshot is written in key order
		sort.Strings(s.keys)
	}
	s.rev, s.compact = snapRev, snapRev
	for _, ev := range events {
		if ev.KV.ModRev <= s.rev {
			continue
		}
		ev.Prev = nil
		if v, ok := at(s.hist[ev.KV.Key], s.rev); ok {
			ev.Prev = &KV{Key: ev.KV.Key, Value: v.value, CreateRev: v.create, ModRev: v.rev}
		}
		s.addVersion(ev)
		s.publish(ev)
	}
	s.wake()
	return nil
}

// Snapshot returns every live KV at the current revision.
func (s *Store) Snapshot() ([]KV, Revision) {
	kvs, rev, _, _ := s.List("", "", 0, nil, 0)
	return kvs, rev
}

// Seed creates new keys as one write group: each kv gets the next revision
// in order (kv.ModRev and kv.CreateRev must already say so: the values
// usually carry their revision), and a GroupPersister commits them in one
// call — one durable write for what would otherwise be len(kvs) writes.
// Only while no write is in flight (a new server seeding its first
// objects); nothing is written if a key exists or repeats or the revisions
// do not follow the head. Example, head 1: Seed([{"/a", v, 2, 2},
// {"/b", w, 3, 3}]) makes revision 3 visible with two events, as two
// Updates would. OnCommit hooks run for each, as after Update.
func (s *Store) Seed(kvs []KV) error {
	s.mu.Lock()
	evs, err := s.seedEvents(kvs)
	if err == nil {
		err = s.commitSeed(evs)
	}
	hooks := s.onCommit
	s.mu.Unlock()
	if err != nil {
		return err
	}
	for _, ev := range evs {
		for _, h := range hooks {
			h(ev)
		}
	}
	return nil
}

// seedEvents checks kvs for Seed and makes their events. Caller holds the
// write lock.
func (s *Store) seedEvents(kvs []KV) ([]Event, error) {
	if s.pipe.newest() != nil {
		return nil, errors.New("store: Seed while writes are in flight")
	}
	evs := make([]Event, len(kvs))
	seen := make(map[string]bool, len(kvs))
	for i, kv := range kvs {
		if want := s.rev + Revision(i) + 1; kv.ModRev != want || kv.CreateRev != want {
			return nil, fmt.Errorf("store: seeded %q at revision %d/%d where %d was next", kv.Key, kv.CreateRev, kv.ModRev, want)
		}
		if _, ok := at(s.hist[kv.Key], s.rev); ok || seen[kv.Key] {
			return nil, ErrExists
		}
		seen[kv.Key] = true
		evs[i] = Event{Type: Put, KV: kv}
	}
	return evs, nil
}

// commitSeed makes evs durable (one group, or one by one for a plain
// Persister, applying each that committed) and visible. Caller holds the
// write lock.
func (s *Store) commitSeed(evs []Event) error {
	if gp, ok := s.persist.(GroupPersister); ok && len(evs) > 0 {
		if err := commitGroup(gp, evs); err != nil {
			return err
		}
	}
	defer s.wake()
	for _, ev := range evs {
		if _, group := s.persist.(GroupPersister); !group && s.persist != nil {
			if err := s.persist.Commit(ev); err != nil {
				return err
			}
		}
		s.addVersion(ev)
		s.publish(ev)
	}
	return nil
}
