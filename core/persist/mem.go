package persist

import (
	"errors"
	"sort"
	"sync"
)

// Mem is a Backend in memory, for tests and for the native server. Quota,
// when > 0, makes a Write fail (storing nothing) once the stored bytes
// would exceed it, with an error like IndexedDB's.
type Mem struct {
	mu       sync.Mutex
	snapshot []byte
	snapRev  int64
	records  map[int64][]byte
	Quota    int
	Writes   int // successful writes, for tests
}

// ErrQuota is Mem's quota error.
var ErrQuota = errors.New("kubesandbox storage: quota exceeded (QuotaExceededError)")

// NewMem returns an empty Mem.
func NewMem() *Mem { return &Mem{records: map[int64][]byte{}} }

func (m *Mem) Load() ([]byte, []Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	revs := make([]int64, 0, len(m.records))
	for r := range m.records {
		revs = append(revs, r)
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	out := make([]Record, len(revs))
	for i, r := range revs {
		out[i] = Record{Rev: r, Data: append([]byte(nil), m.records[r]...)}
	}
	var snap []byte
	if m.snapshot != nil {
		snap = append([]byte(nil), m.snapshot...)
	}
	return snap, out, nil
}

func (m *Mem) Write(b Batch) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Quota > 0 {
		size := m.size()
		for _, r := range b.Records {
			size += len(r.Data) - len(m.records[r.Rev])
		}
		if b.Snapshot != nil {
			size += len(b.Snapshot) - len(m.snapshot)
		}
		if size > m.Quota {
			return ErrQuota
		}
	}
	for _, r := range b.Records {
		m.records[r.Rev] = append([]byte(nil), r.Data...)
	}
	if b.Snapshot != nil {
		m.snapshot, m.snapRev = append([]byte(nil), b.Snapshot...), b.SnapshotRev
		for r := range m.records {
			if r <= b.SnapshotRev {
				delete(m.records, r)
			}
		}
	}
	m.Writes++
	return nil
}

func (m *Mem) Clear() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.snapshot, m.snapRev, m.records = nil, 0, map[int64][]byte{}
	return nil
}

// Size is the stored bytes.
func (m *Mem) Size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.size()
}

// Records is the number of log records stored.
func (m *Mem) Records() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.records)
}

func (m *Mem) size() int {
	n := len(m.snapshot)
	for _, r := range m.records {
		n += len(r)
	}
	return n
}
