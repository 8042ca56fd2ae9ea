package apiserver

import (
	"log"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// Admission plugins that read other objects (resource.AdmissionPlugin,
// core/builtin.Admission: LimitRanger, Priority, …): the server runs their
// Admit before a write's PrepareCreate and validation, and their Validate
// after it, beside the ValidatingAdmissionPolicy step (admission.go).
//
// What they read comes from readCache: one decoded snapshot per resource a
// plugin Reads, rebuilt when the store's commit hook saw a write under its
// prefix since (as policycache.go keeps the policies). The snapshots are
// taken when the request's admission is gathered, before the store's write
// lock (an update's admission runs inside it), so a plugin never reads the
// store: Attributes.Objects looks them up.
//
//	POST pods → gather: priorityclasses (built once), limitranges (built once)
//	POST limitranges → hook: its gen++
//	POST pods → gather: limitranges rebuilt (one List), priorityclasses reused

// readCache keeps one snapshot per resource the plugins read.
type readCache struct {
	entries map[resource.GroupResource]*readEntry // fixed after New
}

type readEntry struct {
	prefix string // "/core/limitranges/"
	gen    atomic.Uint64
	cur    atomic.Pointer[readSnapshot]
	mu     sync.Mutex
}

// readSnapshot is a resource's stored objects at one gen, read-only.
type readSnapshot struct {
	gen   uint64
	keys  []string          // "ns/name" or "name", in key order
	byKey map[string]object // the same keys
}

// watchPluginReads sets up the cache for the plugins' Reads (New).
func (s *Server) watchPluginReads() {
	s.plugins = builtin.Admission()
	s.reads.entries = map[resource.GroupResource]*readEntry{}
	for _, p := range s.plugins {
		for _, gr := range p.Reads {
			if s.reads.entries[gr] == nil {
				g := gr.Group
				if g == "" {
					g = "core"
				}
				s.reads.entries[gr] = &readEntry{prefix: "/" + g + "/" + gr.Resource + "/"}
			}
		}
	}
	if len(s.reads.entries) == 0 {
		return
	}
	s.store.OnCommit(func(ev store.Event) {
		for _, e := range s.reads.entries {
			if strings.HasPrefix(ev.KV.Key, e.prefix) {
				e.gen.Add(1)
			}
		}
	})
}

// snapshot is the entry's current snapshot, rebuilt if a write happened
// since. Never call it inside a store.Update function.
func (s *Server) snapshot(e *readEntry) *readSnapshot {
	g := e.gen.Load()
	if p := e.cur.Load(); p != nil && p.gen == g {
		return p
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	g = e.gen.Load()
	if p := e.cur.Load(); p != nil && p.gen == g {
		return p
	}
	kvs, _, _, _ := s.store.List(e.prefix, "", 0, nil, 0)
	p := &readSnapshot{gen: g, byKey: make(map[string]object, len(kvs))}
	for _, kv := range kvs {
		o, err := jsonx.DecodeObject(kv.Value)
		if err != nil {
			continue
		}
		k := strings.TrimPrefix(kv.Key, e.prefix)
		p.keys = append(p.keys, k)
		p.byKey[k] = o
	}
	e.cur.Store(p)
	return p
}

// pluginLookup is resource.Lookup over snapshots gathered before a write.
type pluginLookup map[resource.GroupResource]*readSnapshot

func (l pluginLookup) Get(group, res, ns, name string) resource.Object {
	p := l[resource.GroupResource{Group: group, Resource: res}]
	if p == nil {
		return nil
	}
	if ns != "" {
		name = ns + "/" + name
	}
	return p.byKey[name]
}

func (l pluginLookup) List(group, res, ns string) []resource.Object {
	p := l[resource.GroupResource{Group: group, Resource: res}]
	if p == nil {
		return nil
	}
	var out []resource.Object
	for _, k := range p.keys {
		if ns == "" || strings.HasPrefix(k, ns+"/") {
			out = append(out, p.byKey[k])
		}
	}
	return out
}

// gatherReads takes the snapshots of every resource the plugins read.
func (s *Server) gatherReads() pluginLookup {
	l := make(pluginLookup, len(s.reads.entries))
	for gr, e := range s.reads.entries {
		l[gr] = s.snapshot(e)
	}
	return l
}

// pluginRun is one write's plugin admission: what the plugins see.
type pluginRun struct {
	s     *Server
	attrs resource.Attributes // Operation, Obj and Old set per call
	// deferred are an update's UpdateStatus writes, made once it is
	// stored (flush).
	deferred []func()
}

// newPluginRun prepares the plugins for a write of res (nil when the
// server has none).
func (s *Server) newPluginRun(res *resource.Resource, ns, name, sub string, dry bool) *pluginRun {
	if len(s.plugins) == 0 {
		return nil
	}
	if !res.Namespaced {
		ns = ""
	}
	return &pluginRun{s: s, attrs: resource.Attributes{
		Group: res.Group, Resource: res.Resource, Subresource: sub,
		Namespace: ns, Name: name, DryRun: dry, Objects: s.gatherReads(), Now: s.timestamp(),
	}}
}

// updateStatus is Attributes.UpdateStatus on a create: the write now.
func (s *Server) updateStatus(dry bool) func(group, resource, ns, name string, change func(resource.Object) error) error {
	return func(group, resName, ns, name string, change func(resource.Object) error) error {
		var res *resource.Resource
		for _, r := range s.reg.forGroupResource(group, resName) {
			if res == nil || r.Version == r.StorageVersion {
				res = r
			}
		}
		if res == nil {
			return nil
		}
		_, _, err := s.updateObject(res, ns, name, dry, nil, func(old object) (object, error) {
			next := jsonx.CopyObject(old)
			if err := change(next); err != nil {
				return nil, err
			}
			return s.fieldManagerFor(res).Update(old, next, "kube-apiserver", "status", s.now())
		})
		return err
	}
}

// flush makes an update's deferred writes, once it is stored.
func (p *pluginRun) flush() {
	if p == nil {
		return
	}
	for _, f := range p.deferred {
		f()
	}
	p.deferred = nil
}

// run calls hook (Admit or Validate) of each plugin, in order; the first
// error is the answer. Only creates and updates are admitted.
// last selects, for validation, the plugins that run after the
// ValidatingAdmissionPolicy step (AdmissionPlugin.Last) or those before.
func (p *pluginRun) run(op string, obj, old object, mutating, last bool) error {
	hook := func(pl *resource.AdmissionPlugin) func(*resource.Attributes) error {
		if pl.Last != last {
			return nil
		}
		return pl.Validate
	}
	if mutating {
		hook = admitHook
	}
	if p == nil || (op != "CREATE" && op != "UPDATE") {
		return nil
	}
	a := p.attrs
	a.Operation, a.Obj, a.Old = op, obj, old
	a.UpdateStatus = p.s.updateStatus(a.DryRun)
	if op == "UPDATE" {
		// inside the store's write lock: written once the update is stored
		if mutating {
			p.deferred = nil // the first call of each try: the store may decide the update again
		}
		a.UpdateStatus = func(group, res, ns, name string, change func(resource.Object) error) error {
			if !a.DryRun {
				p.deferred = append(p.deferred, func() {
					if err := p.s.updateStatus(false)(group, res, ns, name, change); err != nil {
						log.Printf("apiserver: admission's status write of %s %s/%s: %v", res, ns, name, err)
					}
				})
			}
			return nil
		}
	}
	if a.Name == "" {
		// kube names the object of a create with generateName by its
		// generateName until rest.BeforeCreate generated the name, after
		// mutating admission
		a.Name = metaStr(obj, "name")
		if g := metaStr(obj, "generateName"); g != "" && op == "CREATE" && mutating {
			a.Name = g
		}
	}
	for _, pl := range p.s.plugins {
		if f := hook(pl); f != nil {
			if err := f(&a); err != nil {
				return err
			}
		}
	}
	return nil
}

func admitHook(p *resource.AdmissionPlugin) func(*resource.Attributes) error { return p.Admit }
