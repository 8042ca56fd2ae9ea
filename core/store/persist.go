package store

import "fmt"

// Group commit: with a GroupPersister, a write is staged under the lock —
// its version joins the key's history above the visible revision s.rev, so
// later writers see it — and becomes visible (s.rev moves, watchers wake,
// Update returns) only after its group is durable. While one group is being
// committed (outside the lock), new writes collect in the next one.
//
// A worked example, visible revision 7:
//
//	W1 stages rev 8, no group in flight → group A = [8] starts committing
//	W2 stages rev 9, W3 stages rev 10   → they wait in group B = [9, 10]
//	A commits → s.rev = 8, W1 returns;  B starts committing
//	B commits → s.rev = 10, W2 and W3 return, watchers get 9 and 10 at once
//
// If A fails, revisions 8–10 are rolled back (never visible, never
// acknowledged): W1 gets A's error and W2, W3 run their UpdateFunc again on
// the rolled-back state. So a revision is visible only once durable, and
// the visible history has no gaps.

// GroupPersister makes groups of writes durable.
type GroupPersister interface {
	Persister
	// CommitGroup makes evs durable, all or none. evs have consecutive
	// revisions, right after the last committed group's. It is called
	// outside the store's lock, one group at a time; it may read the store
	// (SnapshotAt) at revisions up to the one before evs[0].
	CommitGroup(evs []Event) error
}

// Durable is a GroupPersister that gives back what it saved.
type Durable interface {
	GroupPersister
	// Load returns the saved state: the live KVs of a snapshot at snapRev
	// (1 and none when nothing was snapshotted) and the events after it,
	// in revision order.
	Load() (snapshot []KV, snapRev Revision, events []Event, err error)
}

// Binder is a Durable that reads snapshots (SnapshotAt) from the store it
// persists: Open binds it.
type Binder interface{ Bind(s *Store) }

// Open restores d's saved state into this empty store and then makes every
// write durable through d. It reports whether there was saved state: an
// empty snapshot (what a reset leaves, so that the next store starts at its
// revision) is none — the store starts there, empty.
func (s *Store) Open(d Durable) (restored bool, err error) {
	if b, ok := d.(Binder); ok {
		b.Bind(s)
	}
	snap, snapRev, events, err := d.Load()
	if err != nil {
		return false, err
	}
	if snapRev < 1 {
		snapRev = 1
	}
	if err := s.Restore(snap, snapRev, events); err != nil {
		return false, err
	}
	s.SetPersister(d)
	return len(snap) > 0 || len(events) > 0, nil
}

// SnapshotAt returns every live KV at rev, which must be retained.
func (s *Store) SnapshotAt(rev Revision) ([]KV, error) {
	if rev <= 0 {
		return nil, fmt.Errorf("store: snapshot at revision %d", rev)
	}
	kvs, _, _, err := s.List("", "", rev, nil, 0)
	return kvs, err
}

// group is a set of staged writes committed together.
type group struct {
	events []Event
	done   chan struct{} // closed when the group is durable and visible, or failed
	err    error         // the commit failed: the group's writers get err
	retry  bool          // rolled back because an earlier group failed
}

type pipeline struct {
	flight *group // being committed
	open   *group // collecting writes while flight commits
}

// newest is the last group whose writes are staged but not yet visible.
func (p *pipeline) newest() *group {
	if p.open != nil {
		return p.open
	}
	return p.flight
}

// headRev is the revision writers build on: visible plus staged.
func (s *Store) headRev() Revision {
	h := s.rev
	if s.pipe.flight != nil {
		h += Revision(len(s.pipe.flight.events))
	}
	if s.pipe.open != nil {
		h += Revision(len(s.pipe.open.events))
	}
	return h
}

// stage adds ev above the visible revision and returns its group. Caller
// holds the write lock.
func (s *Store) stage(ev Event, gp GroupPersister) *group {
	s.addVersion(ev)
	if s.pipe.open == nil {
		s.pipe.open = &group{done: make(chan struct{})}
	}
	g := s.pipe.open
	g.events = append(g.events, ev)
	if s.pipe.flight == nil {
		s.launch(gp)
	}
	return g
}

// launch sends the open group to gp. Caller holds the write lock.
func (s *Store) launch(gp GroupPersister) {
	f := s.pipe.open
	s.pipe.open, s.pipe.flight = nil, f
	go s.fly(gp, f)
}

func (s *Store) fly(gp GroupPersister, f *group) {
	err := commitGroup(gp, f.events)
	s.mu.Lock()
	if err == nil {
		for _, ev := range f.events {
			s.publish(ev)
		}
		s.wake()
	} else {
		f.err = err
		if o := s.pipe.open; o != nil {
			s.unstage(o.events)
			o.retry = true
			close(o.done)
			s.pipe.open = nil
		}
		s.unstage(f.events)
	}
	s.pipe.flight = nil
	close(f.done)
	if s.pipe.open != nil {
		s.launch(gp)
	}
	s.mu.Unlock()
}

// commitGroup calls gp, turning a panic into an error: a persister's bug
// must not leave writers waiting forever.
func commitGroup(gp GroupPersister, evs []Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: persister panicked: %v", p)
		}
	}()
	return gp.CommitGroup(evs)
}

// unstage removes the staged versions of evs, newest first. Caller holds
// the write lock.
func (s *Store) unstage(evs []Event) {
	for i := len(evs) - 1; i >= 0; i-- {
		k := evs[i].KV.Key
		vs := s.hist[k]
		if n := len(vs); n > 0 && vs[n-1].rev == evs[i].KV.ModRev {
			vs = vs[:n-1]
		}
		if len(vs) == 0 {
			s.removeKey(k)
			continue
		}
		s.hist[k] = vs
	}
}
