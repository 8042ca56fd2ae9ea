package persist

import (
	"errors"
	"fmt"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// Backend is the durable medium. Write is atomic: after a failure nothing
// of the batch is stored.
type Backend interface {
	// Load returns the snapshot (nil if none) and every log record, in
	// revision order, in buffers the caller keeps: the restored values
	// are pieces of them (DecodeSnapshot), so the backend never changes
	// them afterwards.
	Load() (snapshot []byte, records []Record, err error)
	// Write stores b atomically.
	Write(b Batch) error
	// Clear removes everything.
	Clear() error
}

// Record is one log record.
type Record struct {
	Rev  int64
	Data []byte
}

// Batch is one atomic write: append Records; when Snapshot is set, replace
// the snapshot with it and delete the records with Rev ≤ SnapshotRev.
type Batch struct {
	Records     []Record
	Snapshot    []byte
	SnapshotRev int64
}

// source is what the Log reads snapshots from (a *store.Store).
type source interface {
	SnapshotAt(rev store.Revision) ([]store.KV, error)
	CompactedRev() store.Revision
}

// Options tune compaction.
type Options struct {
	// SnapshotEvery: snapshot once the log holds this many records
	// (default 1000).
	SnapshotEvery int
	// SnapshotBytes: snapshot once the log since the last snapshot holds
	// this many bytes (default 16 MiB).
	SnapshotBytes int
	// KeepEvents: events kept after the snapshot for watches that resume
	// after a restart (default 500, at most SnapshotEvery/2). The store's
	// own window may be shorter: it bounds this too.
	KeepEvents int
}

// ErrClosed fails writes after Close (during a reset).
var ErrClosed = errors.New("kubesandbox storage is closed (the sandbox is being reset)")

// Log is a store.Durable over a Backend.
type Log struct {
	b    Backend
	opts Options

	mu      sync.Mutex
	src     source
	closed  bool
	snapRev store.Revision // revision of the backend's snapshot (1: none)
	sinceN  int            // records written since that snapshot
	sinceB  int            // and their bytes
	loaded  bool
}

// New returns a Log over b.
func New(b Backend, opts Options) *Log {
	if opts.SnapshotEvery <= 0 {
		opts.SnapshotEvery = 1000
	}
	if opts.SnapshotBytes <= 0 {
		opts.SnapshotBytes = 16 << 20
	}
	if opts.KeepEvents < 0 {
		opts.KeepEvents = 0
	} else if opts.KeepEvents == 0 {
		opts.KeepEvents = 500
	}
	if opts.KeepEvents > opts.SnapshotEvery/2 {
		opts.KeepEvents = opts.SnapshotEvery / 2
	}
	return &Log{b: b, opts: opts, snapRev: 1}
}

// Bind sets where snapshots are read from: the store being persisted
// (store.Open calls it).
func (l *Log) Bind(src *store.Store) {
	l.mu.Lock()
	l.src = src
	l.mu.Unlock()
}

// Load reads and checks the saved state (store.Durable).
func (l *Log) Load() ([]store.KV, store.Revision, []store.Event, error) {
	snapBytes, recs, err := l.b.Load()
	if err != nil {
		return nil, 0, nil, fmt.Errorf("loading the saved state: %w", err)
	}
	var snap []store.KV
	snapRev := store.Revision(1)
	if snapBytes != nil {
		if snap, snapRev, err = DecodeSnapshot(snapBytes); err != nil {
			return nil, 0, nil, fmt.Errorf("the saved snapshot is damaged: %w", err)
		}
		if snapRev < 1 {
			return nil, 0, nil, fmt.Errorf("the saved snapshot is damaged: revision %d", snapRev)
		}
	}
	events := make([]store.Event, 0, len(recs))
	want := snapRev + 1
	size := 0
	for _, r := range recs {
		if store.Revision(r.Rev) <= snapRev {
			continue // left behind by a crash between two writes: harmless
		}
		ev, err := DecodeEvent(r.Data)
		if err != nil {
			return nil, 0, nil, fmt.Errorf("the saved log record %d is damaged: %w", r.Rev, err)
		}
		if ev.KV.ModRev != store.Revision(r.Rev) || ev.KV.ModRev != want {
			return nil, 0, nil, fmt.Errorf("the saved log is damaged: record %d (revision %d) where %d was expected", r.Rev, ev.KV.ModRev, want)
		}
		want++
		size += len(r.Data)
		events = append(events, ev)
	}
	l.mu.Lock()
	l.snapRev, l.sinceN, l.sinceB, l.loaded = snapRev, len(events), size, true
	l.mu.Unlock()
	return snap, snapRev, events, nil
}

// Commit makes one event durable (store.Persister).
func (l *Log) Commit(ev store.Event) error { return l.CommitGroup([]store.Event{ev}) }

// CommitGroup makes evs durable in one backend write, with a new snapshot
// when the policy asks for one (store.GroupPersister).
func (l *Log) CommitGroup(evs []store.Event) error {
	if len(evs) == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	b := Batch{Records: make([]Record, len(evs))}
	size := 0
	for i, ev := range evs {
		b.Records[i] = Record{Rev: int64(ev.KV.ModRev), Data: EncodeEvent(ev)}
		size += len(b.Records[i].Data)
	}
	n, bytes := l.sinceN+len(evs), l.sinceB+size
	snapped := false
	if l.src != nil && (n >= l.opts.SnapshotEvery || bytes >= l.opts.SnapshotBytes) {
		// Snapshot at W: the revision before this group minus the events
		// kept for resuming watches, but never before the store's window
		// (older revisions cannot be read) or the current snapshot.
		before := evs[0].KV.ModRev - 1
		w := before - store.Revision(l.opts.KeepEvents)
		if c := l.src.CompactedRev(); w < c {
			w = c
		}
		if w > l.snapRev {
			kvs, err := l.src.SnapshotAt(w)
			if err != nil {
				return fmt.Errorf("kubesandbox storage: snapshot at revision %d: %w", w, err)
			}
			b.Snapshot, b.SnapshotRev = EncodeSnapshot(kvs, w), int64(w)
			snapped = true
		}
	}
	if err := l.b.Write(b); err != nil {
		return err
	}
	if snapped {
		l.snapRev = store.Revision(b.SnapshotRev)
		// what stays in the log after the snapshot: only estimated by count
		kept := int(evs[len(evs)-1].KV.ModRev - l.snapRev)
		l.sinceN, l.sinceB = kept, bytes*kept/n
	} else {
		l.sinceN, l.sinceB = n, bytes
	}
	return nil
}

// Close fails every later commit with ErrClosed; it waits for a commit in
// progress.
func (l *Log) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// Reset closes the log (as Close) and replaces the saved state, in one
// atomic write, with an empty snapshot at rev — the revision of the last
// write (store.HeadRev). A store opened on it next starts empty at rev, so
// resourceVersions keep increasing across a reset (a real cluster never
// goes back) and a watch from before it gets 410 Expired.
func (l *Log) Reset(rev store.Revision) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if rev < 1 {
		rev = 1
	}
	if err := l.b.Write(Batch{Snapshot: EncodeSnapshot(nil, rev), SnapshotRev: int64(rev)}); err != nil {
		return fmt.Errorf("kubesandbox storage: reset: %w", err)
	}
	l.snapRev, l.sinceN, l.sinceB = rev, 0, 0
	return nil
}

// Stats reports the snapshot revision and the log since it.
func (l *Log) Stats() (snapRev store.Revision, records, bytes int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.snapRev, l.sinceN, l.sinceB
}

var _ store.Durable = (*Log)(nil)
