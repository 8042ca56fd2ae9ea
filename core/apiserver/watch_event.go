package apiserver

import (
	"maps"
	"strconv"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// Watch events are encoded once per event and form, not once per watcher.
// The store hands every watcher the same logged event, with a Memo
// (core/store/memo.go); what a watcher derives from it goes through that
// memo, keyed by everything the result depends on:
//
//   - the stored bytes decoded as the watched resource shows them (the
//     apiVersion of res), once per (event, res): read-only, shared by the
//     selectors of every watcher;
//   - the encoded line (`{"type":…,"object":…}` + "\n"), once per
//     (event, res, event type, object shown, Table/PartialObjectMetadata
//     form): the selectors only decide which line a watcher gets, or none.
//
// A worked example: 400 watchers of configmaps in "default", 300 with no
// selector and 100 with app=web, and a Put of cm "a" (app=web → app=db):
// the event is decoded once; the 300 share one MODIFIED line, the 100 one
// DELETED line (the previous object at the new resourceVersion) — two
// encodings instead of 400. kube-apiserver's watch cache does the same with
// its cachingObject.
//
// Server.perWatcherEncoding (only benchmarks and tests set it) gives each
// watcher its own decode and encoding, as before: their baseline in the
// same run.

// decodedEvent is an event's objects as one resource shows them, shared:
// nobody may change them.
type decodedEvent struct {
	rv        string
	cur, prev object // nil when absent (or not decodable)
}

type decodedKey struct{ res *resource.Resource }

// lineKey is everything an encoded watch line depends on besides the event.
type lineKey struct {
	res         *resource.Resource
	media       string // JSON lines or protobuf frames
	typ         string
	prev        bool // the object shown is the previous one
	table       bool
	include     string // includeObject of a Table
	partial     string
	metaVersion string
}

// eventLine is the encoded line this watcher sends for ev ("" type: none,
// the selector matches neither side); a nil line with a type means the
// encoding failed and the stream ends, as before.
func (ws *watchStream) eventLine(ev store.Event) (typ string, line []byte) {
	q := ws.q
	memo := ev.Memo()
	if q.s.perWatcherEncoding {
		memo = nil
	}
	d := memo.Do(decodedKey{q.res}, func() any { return decodeEvent(q.res, ev) }).(*decodedEvent)
	typ, usePrev := classify(ev, d, ws.matches)
	if typ == "" {
		return "", nil
	}
	key := lineKey{res: q.res, media: q.out.media, typ: typ, prev: usePrev, table: q.out.table, include: q.out.includeObject,
		partial: q.out.partial, metaVersion: q.out.metaVersion}
	line, _ = memo.Do(key, func() any { return ws.encodeLine(typ, d, usePrev, memo != nil) }).([]byte)
	return typ, line
}

// decodeEvent decodes both sides of ev once; metadata is made present here
// so that the selectors' reads never write to a shared map.
func decodeEvent(res *resource.Resource, ev store.Event) *decodedEvent {
	d := &decodedEvent{rv: strconv.FormatInt(int64(ev.KV.ModRev), 10)}
	if ev.Type == store.Put {
		d.cur, _ = decodeStoredFor(res, ev.KV)
	}
	if ev.Prev != nil {
		d.prev, _ = decodeStoredFor(res, *ev.Prev)
	}
	for _, o := range []object{d.cur, d.prev} {
		if o != nil {
			meta(o)
		}
	}
	return d
}

// classify turns a store event into this watcher's event type, with
// selector transitions: an object that stops matching is DELETED (showing
// its previous state at the new resourceVersion), one that starts matching
// is ADDED. usePrev says the previous object is the one shown.
func classify(ev store.Event, d *decodedEvent, matches func(object) bool) (typ string, usePrev bool) {
	curOK := d.cur != nil && matches(d.cur)
	prevOK := d.prev != nil && matches(d.prev)
	switch {
	case ev.Type == store.Delete:
		if prevOK {
			return "DELETED", true
		}
	case curOK && prevOK:
		return "MODIFIED", false
	case curOK:
		return "ADDED", false
	case prevOK:
		return "DELETED", true
	}
	return "", false
}

// encodeLine renders the object shown in this watcher's form. shared: d is
// read by other watchers, so the object is copied before anything is set
// on it.
func (ws *watchStream) encodeLine(typ string, d *decodedEvent, usePrev, shared bool) []byte {
	obj := d.cur
	if usePrev {
		obj = d.prev
		if shared {
			obj = maps.Clone(obj)
			obj["metadata"] = maps.Clone(meta(obj))
		}
		meta(obj)["resourceVersion"] = d.rv
	}
	if shared && (ws.q.out.table || ws.q.out.partial != "") {
		obj = jsonx.CopyObject(obj) // printers and partial forms read deep
	}
	b, err := ws.encode(typ, obj)
	if err != nil {
		return nil
	}
	return b
}
