// Package persist keeps the store durable as a snapshot plus an event log
// on a Backend (IndexedDB in the browser, memory in tests). It is pure Go:
// encoding, the compaction policy and the store.Durable implementation.
//
// On the backend there are two things:
//
//	log       one record per write, keyed by its revision
//	snapshot  every live KV at one revision W, or none
//
// Restoring is "snapshot at W, then every log record after W". Every
// Options.SnapshotEvery events, the Log writes a new snapshot at a revision
// W that keeps Options.KeepEvents events after it (so a watch can resume
// after a restart), and drops the records ≤ W — in the same atomic write as
// the group of events that triggered it.
package persist

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// Formats: a record is
//
//	'E' type(1: 0 put, 1 delete) uvarint(modRev) uvarint(createRev)
//	    uvarint(len key) key uvarint(len value) value
//
// and a snapshot is
//
//	'S' uvarint(rev) uvarint(count) { uvarint(modRev) uvarint(createRev)
//	    uvarint(len key) key uvarint(len value) value }…
//
// e.g. a put of "/core/configmaps/default/a" = `{}` at revision 7, created
// at 5: 45 00 07 05 1a "/core/configmaps/default/a" 02 "{}".

const (
	recordTag   = 'E'
	snapshotTag = 'S'
)

var errTruncated = errors.New("persist: truncated")

// EncodeEvent encodes one log record.
func EncodeEvent(ev store.Event) []byte {
	b := make([]byte, 0, 16+len(ev.KV.Key)+len(ev.KV.Value))
	b = append(b, recordTag, byte(ev.Type))
	b = binary.AppendUvarint(b, uint64(ev.KV.ModRev))
	b = binary.AppendUvarint(b, uint64(ev.KV.CreateRev))
	b = appendBytes(b, []byte(ev.KV.Key))
	return appendBytes(b, ev.KV.Value)
}

// DecodeEvent decodes one log record (Prev is left nil). The value is
// b's own bytes, not a copy: b must not change afterwards.
func DecodeEvent(b []byte) (store.Event, error) {
	if len(b) < 2 || b[0] != recordTag {
		return store.Event{}, errors.New("persist: not a log record")
	}
	if b[1] > byte(store.Delete) {
		return store.Event{}, fmt.Errorf("persist: unknown event type %d", b[1])
	}
	d := decoder{b: b[2:]}
	ev := store.Event{Type: store.EventType(b[1])}
	ev.KV.ModRev = d.rev()
	ev.KV.CreateRev = d.rev()
	ev.KV.Key = string(d.bytes())
	ev.KV.Value = d.bytes()
	if err := d.finish(); err != nil {
		return store.Event{}, err
	}
	if err := checkKV(ev.KV); err != nil {
		return store.Event{}, err
	}
	return ev, nil
}

// EncodeSnapshot encodes the live KVs at rev.
func EncodeSnapshot(kvs []store.KV, rev store.Revision) []byte {
	n := 16
	for _, kv := range kvs {
		n += 24 + len(kv.Key) + len(kv.Value)
	}
	b := make([]byte, 0, n)
	b = append(b, snapshotTag)
	b = binary.AppendUvarint(b, uint64(rev))
	b = binary.AppendUvarint(b, uint64(len(kvs)))
	for _, kv := range kvs {
		b = binary.AppendUvarint(b, uint64(kv.ModRev))
		b = binary.AppendUvarint(b, uint64(kv.CreateRev))
		b = appendBytes(b, []byte(kv.Key))
		b = appendBytes(b, kv.Value)
	}
	return b
}

// DecodeSnapshot decodes a snapshot. Every value is a piece of b, not a
// copy (b must not change afterwards): a revisit of 10,000 objects then
// restores without copying 15 MB and allocating 10,000 values, and the
// store holds what it would have held in copies. The price: b stays in
// memory until the last value from it is gone (an object never written
// again keeps the whole snapshot alive).
func DecodeSnapshot(b []byte) ([]store.KV, store.Revision, error) {
	if len(b) < 1 || b[0] != snapshotTag {
		return nil, 0, errors.New("persist: not a snapshot")
	}
	d := decoder{b: b[1:]}
	rev := d.rev()
	n := d.uvarint()
	if d.err != nil {
		return nil, 0, d.err
	}
	if n > uint64(len(d.b))/4 { // every entry takes at least 4 bytes
		return nil, 0, errTruncated
	}
	kvs := make([]store.KV, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		kv := store.KV{ModRev: d.rev(), CreateRev: d.rev()}
		kv.Key = string(d.bytes())
		kv.Value = d.bytes()
		if d.err == nil {
			if err := checkKV(kv); err != nil {
				return nil, 0, err
			}
			if kv.ModRev > rev {
				return nil, 0, fmt.Errorf("persist: snapshot at %d holds %q at %d", rev, kv.Key, kv.ModRev)
			}
		}
		kvs = append(kvs, kv)
	}
	if err := d.finish(); err != nil {
		return nil, 0, err
	}
	return kvs, rev, nil
}

func checkKV(kv store.KV) error {
	if kv.ModRev < 2 || kv.CreateRev < 2 || kv.CreateRev > kv.ModRev {
		return fmt.Errorf("persist: bad revisions for %q: created %d, modified %d", kv.Key, kv.CreateRev, kv.ModRev)
	}
	return nil
}

func appendBytes(b, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errTruncated
		return 0
	}
	if n > 1 && d.b[n-1] == 0 { // a longer encoding than needed
		d.err = errors.New("persist: non-minimal varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) rev() store.Revision {
	v := d.uvarint()
	if v > 1<<62 {
		d.err = errors.New("persist: revision out of range")
		return 0
	}
	return store.Revision(v)
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = errTruncated
		return nil
	}
	p := d.b[:n:n] // capped: an append to it cannot reach the next entry
	d.b = d.b[n:]
	return p
}

func (d *decoder) finish() error {
	if d.err == nil && len(d.b) != 0 {
		return errors.New("persist: trailing bytes")
	}
	return d.err
}
