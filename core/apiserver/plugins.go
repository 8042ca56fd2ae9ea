package apiserver

import (
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
	s      *Server
	attrs  resource.Attributes // Operation, Obj and Old set per call
	active bool
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
	return &pluginRun{s: s, active: true, attrs: resource.Attributes{
		Group: res.Group, Resource: res.Resource, Subresource: sub,
		Namespace: ns, Name: name, DryRun: dry, Objects: s.gatherReads(),
	}}
}

// run calls hook (Admit or Validate) of each plugin, in order; the first
// error is the answer. Only creates and updates are admitted.
func (p *pluginRun) run(op string, obj, old object, mutating bool) error {
	hook := validateHook
	if mutating {
		hook = admitHook
	}
	if p == nil || (op != "CREATE" && op != "UPDATE") {
		return nil
	}
	a := p.attrs
	a.Operation, a.Obj, a.Old = op, obj, old
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

func admitHook(p *resource.AdmissionPlugin) func(*resource.Attributes) error    { return p.Admit }
func validateHook(p *resource.AdmissionPlugin) func(*resource.Attributes) error { return p.Validate }
