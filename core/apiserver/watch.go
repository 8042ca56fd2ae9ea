package apiserver

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"strconv"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
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
func (q *request) watch() error {
	o, err := q.listOptions()
	if err != nil {
		return err
	}
	if q.ri.name != "" { // /watch/.../name: one object
		sel := "metadata.name=" + selector.EscapeValue(q.ri.name)
		if !o.fields.Empty() {
			sel = o.fields.String() + "," + sel
		}
		o.fields, _ = selector.ParseFields(sel)
	}
	prefix := storagePrefix(q.res, q.ri.namespace)
	match := o.matcher(q.res)
	matches := func(obj object) bool { return match == nil || match(obj) }

	lo, hi := time.Duration(q.s.opts.MinWatchSeconds)*time.Second, time.Duration(q.s.opts.MaxWatchSeconds)*time.Second
	timeout := lo + time.Duration(rand.Int63n(int64(hi-lo)+1)) // randomised like the real server
	if o.timeout > 0 && time.Duration(o.timeout)*time.Second < timeout {
		timeout = time.Duration(o.timeout) * time.Second
	}
	ctx, cancel := context.WithTimeout(q.r.Context(), timeout)
	defer cancel()

	initial := o.rv == "" || o.rv == "0"
	if o.sendInitialEvents != nil {
		initial = *o.sendInitialEvents
	}
	var start store.Revision
	var snapshot []store.KV
	if initial {
		if o.rv != "" && o.rv != "0" {
			if err := q.waitForRV(o.rv); err != nil {
				return err
			}
		}
		kvs, rev, _, err := q.s.store.List(prefix, "", 0, nil, 0)
		if err != nil {
			return err
		}
		snapshot, start = kvs, rev
	} else {
		n, _ := parseRV(o.rv)
		start = store.Revision(n)
		if start > q.s.store.Rev() {
			if err := q.waitForRV(o.rv); err != nil {
				return err
			}
		}
	}
	w, werr := q.s.store.Watch(prefix, start)

	q.w.Header().Set("Content-Type", mediaJSON)
	q.w.Header().Set("Cache-Control", "no-cache, private")
	q.w.WriteHeader(http.StatusOK)
	flusher, _ := q.w.(http.Flusher)
	send := func(typ string, obj any) bool {
		if m, ok := obj.(map[string]any); ok && q.out.table && typ != "ERROR" && typ != "BOOKMARK" {
			// kubectl get -w asks for Table rows: each event carries a Table
			if t, err := q.table(m); err == nil {
				obj = t
			}
		}
		if m, ok := obj.(map[string]any); ok && q.out.partial != "" && typ != "ERROR" {
			// a metadata informer's watch: every object as PartialObjectMetadata
			obj = q.partialObject(m)
		}
		b, err := jsonx.Marshal(map[string]any{"type": typ, "object": obj})
		if err != nil {
			return false
		}
		if _, err := q.w.Write(append(b, '\n')); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	sendErr := func(err error) {
		st := apierr.ToStatus(err)
		send("ERROR", st)
	}
	if flusher != nil {
		flusher.Flush()
	}
	if werr != nil {
		sendErr(apierr.Expired(fmt.Sprintf("too old resource version: %d (%d)", start, q.s.store.CompactedRev())))
		return nil
	}
	for _, kv := range snapshot {
		obj, err := q.decodeStored(kv)
		if err == nil && matches(obj) && !send("ADDED", obj) {
			return nil
		}
	}
	bookmark := func(rev store.Revision, initialEnd bool) bool {
		m := map[string]any{"resourceVersion": strconv.FormatInt(int64(rev), 10)}
		if initialEnd {
			m["annotations"] = map[string]any{"k8s.io/initial-events-end": "true"}
		}
		return send("BOOKMARK", map[string]any{"apiVersion": q.res.GroupVersion(), "kind": q.res.Kind, "metadata": m})
	}
	if o.sendInitialEvents != nil && *o.sendInitialEvents && o.bookmarks {
		if !bookmark(start, true) {
			return nil
		}
	}
	// A batch carries the watcher's progress with it: a bookmark may only
	// announce a revision whose events have all been sent (reading
	// w.Progress() from this goroutine would race with Next and could run
	// ahead of a batch not yet written).
	type batch struct {
		evs      []store.Event
		progress store.Revision
	}
	progress := start
	events := make(chan batch)
	errs := make(chan error, 1)
	go func() {
		for {
			evs, err := w.Next(ctx)
			if err != nil {
				errs <- err
				return
			}
			select {
			case events <- batch{evs, w.Progress()}:
			case <-ctx.Done():
				errs <- ctx.Err()
				return
			}
		}
	}()
	tick := time.NewTicker(bookmarkInterval)
	defer tick.Stop()
	for {
		select {
		case b := <-events:
			progress = b.progress
			for _, ev := range b.evs {
				typ, obj := q.watchEvent(ev, matches)
				if typ != "" && !send(typ, obj) {
					return nil
				}
			}
		case <-tick.C:
			if o.bookmarks && !bookmark(progress, false) {
				return nil
			}
		case err := <-errs:
			if err == store.ErrCompacted {
				sendErr(apierr.Expired(fmt.Sprintf("too old resource version: %d (%d)", w.Progress(), q.s.store.CompactedRev())))
			}
			return nil
		}
	}
}

// watchEvent turns a store event into a watch event for this watcher, with
// selector transitions: an object that stops matching is DELETED (showing
// its previous state at the new resourceVersion), one that starts matching
// is ADDED.
func (q *request) watchEvent(ev store.Event, matches func(object) bool) (string, object) {
	rv := strconv.FormatInt(int64(ev.KV.ModRev), 10)
	var cur, prev object
	if ev.Type == store.Put {
		cur, _ = q.decodeStored(ev.KV)
	}
	if ev.Prev != nil {
		prev, _ = q.decodeStored(*ev.Prev)
	}
	curOK := cur != nil && matches(cur)
	prevOK := prev != nil && matches(prev)
	switch {
	case ev.Type == store.Delete:
		if prevOK {
			meta(prev)["resourceVersion"] = rv
			return "DELETED", prev
		}
	case curOK && prevOK:
		return "MODIFIED", cur
	case curOK:
		return "ADDED", cur
	case prevOK:
		meta(prev)["resourceVersion"] = rv
		return "DELETED", prev
	}
	return "", nil
}
