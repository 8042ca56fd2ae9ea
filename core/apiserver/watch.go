package apiserver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/core/selector"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// bookmarkInterval is how often an idle watch that allows bookmarks gets
// one (kube-apiserver: about a minute; shorter keeps resumption cheap).
var bookmarkInterval = 30 * time.Second

// watch streams events as newline-delimited JSON, flushing per event.
//
// Start semantics, as the spec's table says:
//   - resourceVersion unset or "0": synthetic ADDED events for the current
//     state, then changes after it;
//   - sendInitialEvents=true: the same, closed by a BOOKMARK annotated
//     k8s.io/initial-events-end;
//   - an exact resourceVersion: only changes strictly after it (410 Expired
//     as an ERROR event once it is outside the history window).
//
// Errors before the first byte (bad options, a resourceVersion that never
// arrives) are answered as a Status; after it, as an ERROR event.
func (q *request) watch() error {
	ws, err := q.newWatchStream()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(q.r.Context(), ws.timeout())
	defer cancel()
	if ok, err := ws.start(); !ok {
		return err
	}
	ws.loop(ctx)
	return nil
}

// A watchStream is one watch response: start picks the revision to begin
// after, writes the header and the initial events; loop then sends what
// the store's watcher yields until the client goes away, the timeout ends
// the request or the watcher falls out of the history window. Like etcd's
// mvcc watcher it is a position in the one event log plus a filter; it
// never holds up a writer.
//
// A worked example: `?watch=1&resourceVersion=0&allowWatchBookmarks=true`
// on configmaps in "default", store at revision 7 holding a and b:
//
//	start  list at 7 → snapshot [a b], from = 7; store.Watch(prefix, 7)
//	       200 + headers, flushed; send ADDED a, ADDED b
//	loop   revision 8 changes a     → send MODIFIED a; progress = 8
//	       revision 9 is in kube-system → nothing (not under the prefix)
//	       30 s without events      → bookmark(8): BOOKMARK rv "8"
//	       the watcher leaves the window → ERROR 410 Expired; the stream ends
type watchStream struct {
	q       *request
	opts    listOptions
	prefix  string
	matches func(object) bool
	flusher http.Flusher // nil when the writer cannot flush

	from     store.Revision // events strictly after it are sent
	snapshot []store.KV     // the initial ADDED events, at from
	w        *store.Watch   // nil when from has left the window
}

// newWatchStream parses the request's list options; /watch/…/name is a
// field selector on metadata.name.
func (q *request) newWatchStream() (*watchStream, error) {
	o, err := q.listOptions()
	if err != nil {
		return nil, err
	}
	if q.ri.name != "" {
		sel := "metadata.name=" + selector.EscapeValue(q.ri.name)
		if !o.fields.Empty() {
			sel = o.fields.String() + "," + sel
		}
		o.fields, _ = selector.ParseFields(sel)
	}
	match := o.matcher(q.res)
	flusher, _ := q.w.(http.Flusher)
	return &watchStream{
		q: q, opts: o, prefix: storagePrefix(q.res, q.ri.namespace), flusher: flusher,
		matches: func(obj object) bool { return match == nil || match(obj) },
	}, nil
}

// timeout is randomised between the server's bounds like the real
// server's, and never longer than timeoutSeconds.
func (ws *watchStream) timeout() time.Duration {
	opts := ws.q.s.opts
	lo, hi := time.Duration(opts.MinWatchSeconds)*time.Second, time.Duration(opts.MaxWatchSeconds)*time.Second
	t := lo + time.Duration(rand.Int64N(int64(hi-lo)+1))
	if ws.opts.timeout > 0 && time.Duration(ws.opts.timeout)*time.Second < t {
		t = time.Duration(ws.opts.timeout) * time.Second
	}
	return t
}

// start decides where the stream begins (a snapshot plus its revision, or
// the exact resourceVersion asked for, waiting until the store reaches
// it), writes the header and sends the initial events. It returns ok to
// go on with loop, or the error to answer as a Status when nothing has
// been written yet.
func (ws *watchStream) start() (ok bool, err error) {
	q, o := ws.q, ws.opts
	initial := o.rv == "" || o.rv == "0"
	if o.sendInitialEvents != nil {
		initial = *o.sendInitialEvents
	}
	if initial {
		if o.rv != "" && o.rv != "0" {
			if err := q.waitForRV(o.rv); err != nil {
				return false, err
			}
		}
		kvs, rev, _, err := q.s.store.List(ws.prefix, "", 0, nil, 0)
		if err != nil {
			return false, err
		}
		ws.snapshot, ws.from = kvs, rev
	} else if o.rv == "" || o.rv == "0" {
		// sendInitialEvents=false without a resourceVersion: from now on
		ws.from = q.s.store.Rev()
	} else {
		n, _ := parseRV(o.rv)
		ws.from = store.Revision(n)
		if ws.from > q.s.store.Rev() {
			if err := q.waitForRV(o.rv); err != nil {
				return false, err
			}
		}
	}
	w, werr := q.s.store.Watch(ws.prefix, ws.from)

	ct := mediaJSON
	if q.out.media == mediaProtobuf {
		ct = mediaProtobuf + ";stream=watch"
	}
	q.w.Header().Set("Content-Type", ct)
	q.w.Header().Set("Cache-Control", "no-cache, private")
	q.w.WriteHeader(http.StatusOK)
	if ws.flusher != nil {
		ws.flusher.Flush()
	}
	if werr != nil {
		ws.expired(ws.from)
		return false, nil
	}
	ws.w = w
	for _, kv := range ws.snapshot {
		obj, err := q.decodeStored(kv)
		if err == nil && ws.matches(obj) && !ws.send("ADDED", obj) {
			return false, nil
		}
	}
	ws.snapshot = nil
	if o.sendInitialEvents != nil && *o.sendInitialEvents && o.bookmarks {
		return ws.bookmark(ws.from, true), nil
	}
	return true, nil
}

// send writes one event and flushes it; false when the client is gone.
func (ws *watchStream) send(typ string, obj any) bool {
	b, err := ws.encode(typ, obj)
	return err == nil && ws.write(b) && ws.flush()
}

// encode is one event on the wire: a line of JSON (newline included), or
// a protobuf frame.
// kubectl get -w asks for Table rows: then each object becomes a Table.
func (ws *watchStream) encode(typ string, obj any) ([]byte, error) {
	if m, ok := obj.(map[string]any); ok && ws.q.out.table && typ != "ERROR" && typ != "BOOKMARK" {
		if t, err := ws.q.table(m); err == nil {
			obj = t
		}
	}
	if m, ok := obj.(map[string]any); ok && ws.q.out.partial != "" && typ != "ERROR" {
		// a metadata informer's watch: every object as PartialObjectMetadata
		obj = ws.q.partialObject(m)
	}
	if ws.q.out.media == mediaProtobuf {
		// a protobuf frame: a length-prefixed WatchEvent around the
		// enveloped object
		o, err := encodeProtobuf(obj, ws.q.out.proto)
		if err != nil {
			return nil, err
		}
		return protobuf.WatchFrame(typ, o)
	}
	// metav1.WatchEvent's field order: type first, as the real server writes it
	o, err := jsonx.Marshal(obj)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(o)+len(typ)+24)
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, typ)
	b = append(b, `,"object":`...)
	b = append(b, o...)
	return append(b, '}', '\n'), nil
}

// write sends an encoded line (which may be shared: never appended to);
// false when the client is gone.
func (ws *watchStream) write(line []byte) bool {
	_, err := ws.q.w.Write(line)
	return err == nil
}

// flush pushes what was written to the client.
func (ws *watchStream) flush() bool {
	if ws.flusher != nil {
		ws.flusher.Flush()
	}
	return true
}

// bookmark announces that every event up to rev has been sent;
// initialEnd marks the end of the initial events (sendInitialEvents).
func (ws *watchStream) bookmark(rev store.Revision, initialEnd bool) bool {
	m := map[string]any{"resourceVersion": strconv.FormatInt(int64(rev), 10)}
	if initialEnd {
		m["annotations"] = map[string]any{"k8s.io/initial-events-end": "true"}
	}
	return ws.send("BOOKMARK", map[string]any{"apiVersion": ws.q.res.GroupVersion(), "kind": ws.q.res.Kind, "metadata": m})
}

// expired ends the stream with the ERROR event of a position that has
// left the history window.
func (ws *watchStream) expired(at store.Revision) {
	err := apierr.Expired(fmt.Sprintf("too old resource version: %d (%d)", at, ws.q.s.store.CompactedRev()))
	ws.send("ERROR", apierr.ToStatus(err))
}

// loop sends the watcher's events, and a bookmark after each quiet
// bookmarkInterval when the client allows them, until ctx ends, the
// client goes away or the watcher falls out of the window. One goroutine
// (the request's) polls the store, writes and waits: nothing is handed
// between goroutines per event. What one poll returns is written at once,
// and the stream is flushed when a poll finds nothing more — the events of
// one wake-up go out together (kube-apiserver's watch server flushes when
// its queue is empty too).
func (ws *watchStream) loop(ctx context.Context) {
	tick := time.NewTicker(bookmarkInterval)
	defer tick.Stop()
	unflushed := false
	for ctx.Err() == nil {
		evs, more, err := ws.w.Poll()
		if err != nil { // ErrCompacted
			ws.expired(ws.w.Progress())
			return
		}
		for _, ev := range evs {
			typ, line := ws.eventLine(ev)
			if typ == "" {
				continue
			}
			if line == nil || !ws.write(line) {
				return
			}
			unflushed = true
		}
		if len(evs) > 0 {
			continue // what was written meanwhile goes out with these
		}
		if unflushed {
			ws.flush()
			unflushed = false
		}
		select {
		case <-more:
		case <-tick.C:
			if ws.opts.bookmarks && !ws.bookmark(ws.w.Progress(), false) {
				return
			}
		case <-ctx.Done():
		}
	}
}
