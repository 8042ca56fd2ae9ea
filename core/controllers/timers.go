package controllers

import (
	"sync"
	"time"
)

// Timers on the manager's clock. Controllers that must act at a time (the
// CronJob controller at the next schedule, the event TTL at the next
// expiry) call requeueAt; a real timer then queues the key when that much
// wall time has passed. The due times are also remembered, so that a
// program (or a test) that moves the clock of Options.Now forward can call
// FireDue instead of waiting:
//
//	clock.Add(time.Minute) // the test's clock
//	mgr.FireDue()          // the CronJob due at that minute is synced now

// extras is the state of the controllers added after the first ones (the
// Manager holds it in one field; the zero value is ready).
type extras struct {
	mu  sync.Mutex
	due map[string]time.Time // key → earliest pending deadline (manager clock)

	// worker-goroutine state
	ttlMu    sync.Mutex
	ttl      map[string]eventLease // Event key → its lease (events_ttl.go)
	ttlArmed time.Time             // when the sweep timer fires (zero: not set)

	epTriggers    map[string]*triggerState // trigger-time trackers by ns/name (endpoints.go)
	sliceTriggers map[string]*triggerState
}

// requeueAt queues key again at manager-clock time at. A key keeps one
// timer: a CronJob synced on every change of its Jobs does not start a
// new one each time.
func (m *Manager) requeueAt(key string, at time.Time) {
	now := m.now()
	m.x.mu.Lock()
	if m.x.due == nil {
		m.x.due = map[string]time.Time{}
	}
	if cur, ok := m.x.due[key]; ok && cur.After(now) && !at.Before(cur) {
		m.x.mu.Unlock()
		return // a timer that fires no later is already set
	}
	m.x.due[key] = at
	m.x.mu.Unlock()
	d := at.Sub(now)
	if d < 0 {
		d = 0
	}
	m.q.addAfter(m.ctx, key, d)
}

// FireDue queues now every key whose timer is due by the manager's clock
// (Options.Now), without waiting for the wall-clock timer.
func (m *Manager) FireDue() {
	now := m.now()
	m.x.mu.Lock()
	var keys []string
	for k, at := range m.x.due {
		if !at.After(now) {
			keys = append(keys, k)
			delete(m.x.due, k)
		}
	}
	m.x.mu.Unlock()
	for _, k := range keys {
		m.q.add(k)
	}
}
