//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/wasm/jsglue"
)

// idb is a persist.Backend over IndexedDB. The IndexedDB calls are made in
// JavaScript (web/worker-db.js, self.kubesandboxDBFor(sandbox): a database
// per sandbox), which is where its
// event-based API is natural:
//
//	load()                              → Promise<{snapshot: Uint8Array|null, revs: number[], records: Uint8Array[]}>
//	write(revs, records, snapshot, rev) → Promise<void>, one readwrite transaction
//	clear()                             → Promise<void>
//
// A rejected promise carries the DOMException (name, message); a
// QuotaExceededError becomes an error that names the quota.
type idb struct{ db js.Value }

// newIDB returns sandbox's backend, or nil when the worker offers no
// self.kubesandboxDBFor (then the core runs in memory only).
func newIDB(sandbox string) *idb {
	f := js.Global().Get("kubesandboxDBFor")
	if f.Type() != js.TypeFunction {
		return nil
	}
	db := f.Invoke(sandbox)
	if db.Type() != js.TypeObject {
		return nil
	}
	return &idb{db: db}
}

func (b *idb) Load() (snapshot []byte, records []persist.Record, err error) {
	v, err := await(b.db.Call("load"))
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if p := recover(); p != nil { // a value of an unexpected type
			snapshot, records, err = nil, nil, fmt.Errorf("kubesandbox storage: unexpected saved data: %v", p)
		}
	}()
	if s := v.Get("snapshot"); s.Type() == js.TypeObject {
		snapshot = bytesFromJS(s)
	}
	revs, recs := v.Get("revs"), v.Get("records")
	n := revs.Length()
	if recs.Length() != n {
		return nil, nil, errors.New("kubesandbox storage: saved log keys and records differ in number")
	}
	records = make([]persist.Record, n)
	for i := 0; i < n; i++ {
		r := recs.Index(i)
		if r.Type() != js.TypeObject || !r.InstanceOf(jsglue.Uint8Array) {
			return nil, nil, fmt.Errorf("kubesandbox storage: saved log record %d is not bytes", i)
		}
		records[i] = persist.Record{Rev: int64(revs.Index(i).Float()), Data: bytesFromJS(r)}
	}
	return snapshot, records, nil
}

func (b *idb) Write(x persist.Batch) error {
	revs, recs := jsglue.Array.New(), jsglue.Array.New()
	for _, r := range x.Records {
		revs.Call("push", float64(r.Rev))
		recs.Call("push", jsglue.Bytes(r.Data))
	}
	snap := js.Null()
	if x.Snapshot != nil {
		snap = jsglue.Bytes(x.Snapshot)
	}
	_, err := await(b.db.Call("write", revs, recs, snap, float64(x.SnapshotRev)))
	return err
}

func (b *idb) Clear() error {
	_, err := await(b.db.Call("clear"))
	return err
}

// await blocks the calling goroutine (not JavaScript) until p settles.
func await(p js.Value) (v js.Value, err error) { return awaitWith(p, storageError) }

// awaitWith is await with rejections turned into errors by reject.
func awaitWith(p js.Value, reject func(js.Value) error) (v js.Value, err error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return js.Undefined(), errors.New("kubesandbox: not a promise")
	}
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, a []js.Value) any {
		r := js.Undefined()
		if len(a) > 0 {
			r = a[0]
		}
		ch <- result{v: r}
		return nil
	})
	catch := js.FuncOf(func(_ js.Value, a []js.Value) any {
		e := js.Undefined()
		if len(a) > 0 {
			e = a[0]
		}
		ch <- result{err: reject(e)}
		return nil
	})
	p.Call("then", then, catch)
	r := <-ch
	then.Release()
	catch.Release()
	return r.v, r.err
}

// storageError turns a rejected IndexedDB operation into a Go error, e.g.
// "kubesandbox storage: IndexedDB quota exceeded (QuotaExceededError): …".
func storageError(e js.Value) error {
	name, msg := "Error", ""
	if e.Type() == js.TypeObject {
		if n := e.Get("name"); n.Type() == js.TypeString {
			name = n.String()
		}
		if m := e.Get("message"); m.Type() == js.TypeString {
			msg = m.String()
		}
	} else if e.Type() == js.TypeString {
		msg = e.String()
	}
	if name == "QuotaExceededError" {
		return fmt.Errorf("kubesandbox storage: IndexedDB quota exceeded (QuotaExceededError): %s", msg)
	}
	return fmt.Errorf("kubesandbox storage: IndexedDB failed (%s): %s", name, msg)
}

func bytesFromJS(u js.Value) []byte {
	b := make([]byte, u.Length())
	js.CopyBytesToGo(b, u)
	return b
}
