// Package controllers runs, in-process, the controllers a cluster has so
// that the classic demos work without nodes: the garbage collector
// (ownerReferences: background, foreground and orphan deletion), the
// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job and CronJob
// controllers, the Endpoints and EndpointSlice controllers, the Event TTL
// (events_ttl.go), ValidatingAdmissionPolicy status (vapstatus.go: type
// checking by the server's CEL engine), and — unless Options.Nodes is 0 — Nodes, a scheduler
// and their kubelets (nodes.go, scheduler.go, kubelet.go: Pods are bound,
// pulled and Running; no container ever runs).
//
// They are API clients: every write is an HTTP request to the API server's
// handler (with kube-controller-manager's or kubelet's User-Agent), so the
// objects' managedFields, resourceVersions and the watch events look like a
// cluster's. They are driven by the store's commit hook:
//
//	store commit ─OnCommit─▶ queue.events (never blocks the writer)
//	worker goroutine: events ─▶ keys to reconcile (the object, its owners,
//	and — when it is deleted or being deleted — its dependents), coalesced
//	─▶ reconcile(key): garbage collector, then the object's controller.
//
// Controllers that must act at a time (a CronJob's next schedule, the
// next Event expiry) set a timer on the manager's clock (timers.go).
// A resync enqueues every object at start. One worker goroutine does all
// the work, so the controllers need no locks of their own; it stops when
// the context ends. Nothing here is OS-specific (it runs in js/wasm).
package controllers

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// Options configure the controllers.
type Options struct {
	// Now is the clock for the times controllers write (default time.Now).
	Now func() time.Time
	// Logf, if set, receives one line per failed reconcile.
	Logf func(format string, args ...any)
	// Nodes is the number of Nodes (nodes.go: sandbox-control-plane,
	// sandbox-worker, sandbox-worker2 ...), scheduled to and run by
	// simulated kubelets. With 0 — the shape of a control plane without
	// scheduler, kubelet or Nodes, like ../shared/oracle — nothing makes
	// Pods Running: they stay Pending as created.
	Nodes int
	// PullDelay, RunDelay and KillDelay pace the kubelets (kubelet.go):
	// ContainerCreating → Running, a Job's Pod Running → Succeeded, a
	// deleted Pod Terminating → gone. Zero takes the defaults
	// (DefaultPullDelay ...); Instant makes them all 0 (tests).
	PullDelay, RunDelay, KillDelay time.Duration
	Instant                        bool
	// EventTTL is how long an Event lives after its last write
	// (kube-apiserver's --event-ttl; 0 means DefaultEventTTL, 1h; negative:
	// forever). See events_ttl.go.
	EventTTL time.Duration
}

// DefaultNodes is the Nodes of Starter and of the native command's -nodes.
// (sandbox-control-plane and two workers: a Deployment spreads over
// workers, a DaemonSet skips the tainted control plane).
const DefaultNodes = 3

// Manager is the running controllers.
type Manager struct {
	api     http.Handler
	st      *store.Store
	opts    Options
	cm      client // kube-controller-manager
	kubelet client
	// kube-scheduler
	scheduler client
	q         *queue
	ctx       context.Context
	stopped   atomic.Bool
	done      chan struct{}
	busy      atomic.Int64 // keys being reconciled (for Idle)

	// worker-goroutine state
	retries       map[string]int
	nextIP        map[int]int          // per Node (kubelet.go)
	unscheduled   map[string]bool      // Pod keys waiting for a Node (scheduler.go)
	due           map[string]time.Time // kubelet steps in progress (kubelet.go)
	pullBackOff   map[string]time.Duration
	pulled        map[string]bool       // "node image" pulled (kubelet.go)
	sentEvents    map[string]*sentEvent // simevents.go
	lastEventNano int64
	quotaDirty    map[string]bool // quota keys to compute again (resourcequota.go)

	x extras // cronjob, endpoints, event TTL (timers.go)
}

// Starter is Start in the shape of apiserver.Options.Controllers:
//
//	apiserver.New(apiserver.Options{Controllers: controllers.Starter})
func Starter(ctx context.Context, api http.Handler, st *store.Store, now func() time.Time) {
	Start(ctx, api, st, Options{Now: now, Nodes: DefaultNodes})
}

// StarterWith is Starter with these options (their Now is the server's
// clock unless set):
//
//	apiserver.New(apiserver.Options{Controllers: controllers.StarterWith(controllers.Options{Nodes: 0})})
func StarterWith(opts Options) func(ctx context.Context, api http.Handler, st *store.Store, now func() time.Time) {
	return func(ctx context.Context, api http.Handler, st *store.Store, now func() time.Time) {
		o := opts
		if o.Now == nil {
			o.Now = now
		}
		Start(ctx, api, st, o)
	}
}

// Start runs the controllers until ctx ends. api serves the requests, st
// is the store under it.
func Start(ctx context.Context, api http.Handler, st *store.Store, opts Options) *Manager {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Manager{
		api: api, st: st, opts: opts, ctx: ctx,
		cm:          client{h: api, ua: controllerManagerUA},
		kubelet:     client{h: api, ua: kubeletUA},
		scheduler:   client{h: api, ua: schedulerUA},
		q:           newQueue(),
		done:        make(chan struct{}),
		retries:     map[string]int{},
		unscheduled: map[string]bool{}, due: map[string]time.Time{},
		pullBackOff: map[string]time.Duration{}, sentEvents: map[string]*sentEvent{}, pulled: map[string]bool{},
	}
	m.q.busy = &m.busy
	st.OnCommit(func(ev store.Event) {
		if !m.stopped.Load() {
			m.q.addEvent(ev)
		}
	})
	if opts.Nodes > 0 {
		m.q.add(ensureNodesKey)
	}
	m.Resync()
	go m.run()
	return m
}

// Resync queues every stored object once (Start does it; call it again
// after loading objects into the store without commits, e.g. Restore).
func (m *Manager) Resync() {
	kvs, _, _, _ := m.st.List("", "", 0, nil, 0)
	for _, kv := range kvs {
		if interesting(kv.Key) {
			m.q.add(kv.Key)
		} else if isEventKey(kv.Key) {
			m.leaseStored(kv)
		}
	}
}

// Done is closed once the worker has stopped.
func (m *Manager) Done() <-chan struct{} { return m.done }

// Idle reports that nothing is queued or being reconciled (retries waiting
// on a timer do not count).
func (m *Manager) Idle() bool { return m.q.empty() && m.busy.Load() == 0 }

func (m *Manager) run() {
	defer close(m.done)
	defer m.stopped.Store(true)
	for {
		evs, key, ok := m.q.next()
		if len(evs) > 0 {
			for _, ev := range evs {
				m.handleEvent(ev)
			}
			m.busy.Add(-1)
			continue
		}
		if ok {
			m.process(key)
			m.busy.Add(-1)
			continue
		}
		select {
		case <-m.ctx.Done():
			return
		case <-m.q.wake:
		}
	}
}

func (m *Manager) logf(format string, args ...any) {
	if m.opts.Logf != nil {
		m.opts.Logf(format, args...)
	}
}

// process reconciles one key, retrying failures with a capped backoff.
func (m *Manager) process(key string) {
	if m.ctx.Err() != nil {
		return
	}
	err := m.safeReconcile(key)
	if err == nil || isCode(err, http.StatusNotFound) {
		delete(m.retries, key)
		return
	}
	n := m.retries[key] + 1
	if n > 12 {
		m.logf("controllers: giving up on %s: %v", key, err)
		delete(m.retries, key)
		return
	}
	m.retries[key] = n
	d := 5 * time.Millisecond << n
	if d > 2*time.Second {
		d = 2 * time.Second
	}
	m.logf("controllers: %s: %v (retry in %v)", key, err, d)
	m.q.addAfter(m.ctx, key, d)
}

func (m *Manager) safeReconcile(key string) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &apiError{Code: 500, Reason: "InternalError", Message: "controller panic"}
			m.logf("controllers: panic reconciling %s: %v", key, p)
		}
	}()
	return m.reconcile(key)
}

// interesting filters out keys no controller cares about.
func interesting(key string) bool {
	return !strings.HasPrefix(key, "/core/events/") && !strings.HasPrefix(key, "/events.k8s.io/") &&
		!strings.HasPrefix(key, "/coordination.k8s.io/")
}

// handleEvent turns a committed write into keys to reconcile.
func (m *Manager) handleEvent(ev store.Event) {
	key := ev.KV.Key
	m.eventWritten(ev) // events_ttl.go
	if !interesting(key) {
		return
	}
	group, plural, ns, _, ok := parseKey(key)
	if !ok {
		return
	}
	m.q.add(key)
	m.namespaceObjectChanged(key)
	m.clusterChanged(key)
	var cur, prev obj
	if ev.Type == store.Put {
		cur = decode(ev.KV.Value)
	}
	if ev.Prev != nil {
		prev = decode(ev.Prev.Value)
	}
	m.servicesChanged(key, ns, cur, prev)              // endpoints.go
	m.quotaReplenish(ev, group, plural, ns, cur, prev) // resourcequota.go
	if strings.HasPrefix(key, "/core/pods/") {
		m.pdbsForPod(ns, cur, prev) // disruption.go
	}
	// owners see their dependents change (a pod → its ReplicaSet, ...)
	for _, o := range []obj{cur, prev} {
		for _, r := range ownerRefs(o) {
			if k, ok := m.ownerKey(ns, r); ok {
				m.q.add(k)
			}
		}
	}
	// dependents see their owner go (or start going)
	if ev.Type == store.Delete || deleting(cur) {
		src := cur
		if src == nil {
			src = prev
		}
		if id := uid(src); id != "" {
			for _, d := range m.dependents(id, ns) {
				m.q.add(d.key)
			}
		}
	}
}

// reconcile runs the garbage collector and the object's controller.
func (m *Manager) reconcile(key string) error {
	if key == ensureNodesKey {
		return m.ensureNodes()
	}
	if key == eventSweepKey {
		return m.sweepEvents()
	}
	kv, _, err := m.st.Get(key, 0)
	if err != nil {
		return nil // gone: its dependents were queued by the delete event
	}
	group, plural, _, _, _ := parseKey(key)
	sync := m.syncer(group+"/"+plural, key)
	if sync == nil && !collectable(kv.Value) {
		return nil // nothing here for any controller: not worth decoding
	}
	o := decode(kv.Value)
	if o == nil {
		return nil
	}
	if done, err := m.collectGarbage(key, o); err != nil || done {
		return err
	}
	if sync == nil {
		return nil
	}
	return sync(o)
}

// syncer is the controller of a kind (group/plural) for the object at
// key, or nil for a kind only the garbage collector looks at.
func (m *Manager) syncer(kind, key string) func(obj) error {
	switch kind {
	case "apps/deployments":
		return m.syncDeployment
	case "apps/replicasets":
		return m.syncReplicaSet
	case "/replicationcontrollers":
		return m.syncReplicationController
	case "apps/statefulsets":
		return m.syncStatefulSet
	case "apps/daemonsets":
		return m.syncDaemonSet
	case "batch/jobs":
		return m.syncJob
	case "batch/cronjobs":
		return func(o obj) error { return m.syncCronJob(key, o) }
	case "/pods":
		return m.syncPod
	case "policy/poddisruptionbudgets":
		return func(o obj) error { return m.syncPDB(key, o) }
	case "/namespaces":
		return m.syncNamespace
	case "/nodes":
		return m.syncNode
	case "/services":
		return m.syncService
	case "/endpoints":
		return m.endpointsLeftover
	case "/resourcequotas":
		return func(o obj) error { return m.syncQuota(key, o) }
	case "admissionregistration.k8s.io/validatingadmissionpolicies":
		return m.syncPolicyStatus // vapstatus.go
	}
	return nil
}

// collectable tells from an object's stored JSON whether the garbage
// collector may act on it (collectGarbage): it has owners, or it is being
// deleted. Stored objects are the server's compact JSON, where these keys
// appear exactly so; inside a string value a quote is escaped, so only a
// data key of that name can say yes wrongly (and costs a decode). E.g. a
// restored sandbox of 10,000 ConfigMaps: its resync decodes none of them
// (was 10,000 decodes, ~1.5 s of wasm CPU, delaying every request after the
// first answer).
func collectable(stored []byte) bool {
	return bytes.Contains(stored, []byte(`"ownerReferences"`)) || bytes.Contains(stored, []byte(`"deletionTimestamp"`))
}

// ---- reads (the "informer cache": the store itself) ---------------------

type stored struct {
	key string
	o   obj
}

// listOwned returns the objects of kind k in ns whose controller is uid.
func (m *Manager) listOwned(k kindInfo, ns, ownerUID string) []obj {
	var out []obj
	for _, s := range m.listKind(k, ns, []byte(ownerUID)) {
		if r, ok := controllerOf(s.o); ok && r.UID == ownerUID {
			out = append(out, s.o)
		}
	}
	byCreation(out)
	return out
}

// listKind returns the objects of kind k in ns; a non-nil hint skips values
// that do not contain it (a cheap prefilter before decoding).
func (m *Manager) listKind(k kindInfo, ns string, hint []byte) []stored {
	kvs, _, _, err := m.st.List(k.storePrefix(ns), "", 0, nil, 0)
	if err != nil {
		return nil
	}
	var out []stored
	for _, kv := range kvs {
		if hint != nil && !bytes.Contains(kv.Value, hint) {
			continue
		}
		if o := decode(kv.Value); o != nil {
			out = append(out, stored{kv.Key, o})
		}
	}
	return out
}

func (m *Manager) get(k kindInfo, ns, name string) obj {
	kv, _, err := m.st.Get(k.storeKey(ns, name), 0)
	if err != nil {
		return nil
	}
	return decode(kv.Value)
}

// ---- the queue ------------------------------------------------------------

// queue holds committed events (appended by the committing writer, which
// must never block) and a FIFO of distinct keys.
type queue struct {
	mu     sync.Mutex
	events []store.Event
	keys   []string
	queued map[string]bool
	busy   *atomic.Int64
	wake   chan struct{}
}

func newQueue() *queue {
	return &queue{queued: map[string]bool{}, wake: make(chan struct{}, 1)}
}

func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) addEvent(ev store.Event) {
	q.mu.Lock()
	q.events = append(q.events, ev)
	q.mu.Unlock()
	q.signal()
}

func (q *queue) add(key string) {
	q.mu.Lock()
	if !q.queued[key] {
		q.queued[key] = true
		q.keys = append(q.keys, key)
	}
	q.mu.Unlock()
	q.signal()
}

func (q *queue) addAfter(ctx context.Context, key string, d time.Duration) {
	t := time.NewTimer(d)
	go func() {
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
			q.add(key)
		}
	}()
}

// next returns the pending events, else one key (ok) — events first, so
// the worker's view of what is queued is current before it reconciles.
func (q *queue) next() ([]store.Event, string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.events) > 0 {
		evs := q.events
		q.events = nil
		if q.busy != nil {
			q.busy.Add(1)
		}
		return evs, "", false
	}
	if len(q.keys) == 0 {
		return nil, "", false
	}
	k := q.keys[0]
	q.keys[0] = ""
	q.keys = q.keys[1:]
	delete(q.queued, k)
	if q.busy != nil {
		q.busy.Add(1)
	}
	return nil, k, true
}

func (q *queue) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.events) == 0 && len(q.keys) == 0
}
