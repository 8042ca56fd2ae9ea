package controllers

import (
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// Events expire, as kube-apiserver stores them with an etcd lease of
// --event-ttl (default 1h): an Event (core/v1 or events.k8s.io/v1) is
// removed Options.EventTTL after its last write. The removal is the
// lease's: a delete in the store (no request, no admission), which watchers
// see as DELETED. One timer, on the manager's clock, waits for the next
// expiry; nothing scans on a schedule.
//
// Example: an Event created at 10:00 and updated (count 2) at 10:20 is
// gone at 11:20; one restored from a snapshot expires an hour after the
// newest time it carries (creation, lastTimestamp, eventTime, series,
// managedFields).

// DefaultEventTTL is kube-apiserver's default --event-ttl.
const DefaultEventTTL = time.Hour

const eventSweepKey = "event-ttl" // not a storage key: the sweep's queue key

type eventLease struct {
	expires time.Time
	modRev  store.Revision
}

// isEventKey: both APIs store Events under /core/events/; the second
// prefix is where snapshots of older builds kept events.k8s.io's.
func isEventKey(key string) bool {
	return strings.HasPrefix(key, "/core/events/") || strings.HasPrefix(key, "/events.k8s.io/events/")
}

func (m *Manager) eventTTL() time.Duration {
	if m.opts.EventTTL == 0 {
		return DefaultEventTTL
	}
	return m.opts.EventTTL
}

// eventWritten renews (or, on delete, drops) the lease of a written Event.
func (m *Manager) eventWritten(ev store.Event) {
	if !isEventKey(ev.KV.Key) || m.eventTTL() < 0 {
		return
	}
	if ev.Type == store.Delete {
		m.x.ttlMu.Lock()
		delete(m.x.ttl, ev.KV.Key)
		m.x.ttlMu.Unlock()
		return
	}
	m.lease(ev.KV.Key, m.now(), ev.KV.ModRev)
}

// leaseStored gives an Event found in the store (at start, or after a
// restore) the lease of its newest recorded write.
func (m *Manager) leaseStored(kv store.KV) {
	if m.eventTTL() < 0 {
		return
	}
	o := decode(kv.Value)
	var last time.Time
	for _, s := range []string{str(o, "metadata", "creationTimestamp"), str(o, "lastTimestamp"),
		str(o, "eventTime"), str(o, "series", "lastObservedTime"), str(o, "deprecatedLastTimestamp")} {
		if t := parseMicroTime(s); t.After(last) {
			last = t
		}
	}
	for _, f := range list(o, "metadata", "managedFields") {
		fm, _ := f.(map[string]any)
		if t := parseMicroTime(str(fm, "time")); t.After(last) {
			last = t
		}
	}
	if last.IsZero() {
		last = m.now()
	}
	m.lease(kv.Key, last, kv.ModRev)
}

func parseMicroTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func (m *Manager) lease(key string, written time.Time, rev store.Revision) {
	expires := written.Add(m.eventTTL())
	m.x.ttlMu.Lock()
	if m.x.ttl == nil {
		m.x.ttl = map[string]eventLease{}
	}
	m.x.ttl[key] = eventLease{expires, rev}
	arm := m.x.ttlArmed.IsZero() || expires.Before(m.x.ttlArmed)
	if arm {
		m.x.ttlArmed = expires
	}
	m.x.ttlMu.Unlock()
	if arm {
		m.requeueAt(eventSweepKey, expires)
	}
}

// sweepEvents removes the Events whose lease has run out and sets the
// timer for the next one.
func (m *Manager) sweepEvents() error {
	now := m.now()
	type due struct {
		key string
		rev store.Revision
	}
	var expired []due
	var next time.Time
	m.x.ttlMu.Lock()
	for k, l := range m.x.ttl {
		if !l.expires.After(now) {
			expired = append(expired, due{k, l.modRev})
		} else if next.IsZero() || l.expires.Before(next) {
			next = l.expires
		}
	}
	m.x.ttlArmed = next
	m.x.ttlMu.Unlock()
	for _, d := range expired {
		_, _, err := m.st.Update(d.key, func(cur *store.KV, _ store.Revision) (store.Op, error) {
			if cur == nil || cur.ModRev != d.rev {
				return store.NoOp(), nil // gone, or written again (a new lease)
			}
			return store.DeleteOp(), nil
		})
		if err != nil {
			return err
		}
		m.x.ttlMu.Lock()
		if l, ok := m.x.ttl[d.key]; ok && l.modRev == d.rev {
			delete(m.x.ttl, d.key)
		}
		m.x.ttlMu.Unlock()
	}
	if !next.IsZero() {
		m.requeueAt(eventSweepKey, next)
	}
	return nil
}
