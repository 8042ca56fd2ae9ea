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
	mu      sync.Mutex            // one rebuild at a time
	entries map[string]*readEntry // by "group/resource", fixed after New
}

type readEntry struct {
	prefix string // "/core/limitranges/"
	gen    atomic.Uint64
	cur    *readSnapshot // under readCache.mu
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
	s.reads.entries = map[string]*readEntry{}
	for _, p := range s.plugins {
		for _, gr := range p.Reads {
			g := gr.Group
			if g == "" {
				g = "core"
			}
			s.reads.entries[gr.Group+"/"+gr.Resource] = &readEntry{prefix: "/" + g + "/" + gr.Resource + "/"}
		}
	}
	s.store.OnCommit(func(ev store.Event) {
		for _, e := range s.reads.entries {
			if strings.HasPrefix(ev.KV.Key, e.prefix) {
				e.gen.Add(1)
			}
		}
	})
}

// pluginLookup is resource.Lookup over the snapshots of every resource
// the plugins read, taken (rebuilt if a write happened since) before a
// write: never inside a store.Update function.
type pluginLookup struct{ snaps map[string]*readSnapshot }

func (s *Server) gatherReads() *pluginLookup {
	c := &s.reads
	l := &pluginLookup{snaps: make(map[string]*readSnapshot, len(c.entries))}
	c.mu.Lock()
	defer c.mu.Unlock()
	for gr, e := range c.entries {
		if g := e.gen.Load(); e.cur == nil || e.cur.gen != g {
			kvs, _, _, _ := s.store.List(e.prefix, "", 0, nil, 0)
			p := &readSnapshot{gen: g, byKey: make(map[string]object, len(kvs))}
			for _, kv := range kvs {
				if o, err := jsonx.DecodeObject(kv.Value); err == nil {
					k := strings.TrimPrefix(kv.Key, e.prefix)
					p.keys = append(p.keys, k)
					p.byKey[k] = o
				}
			}
			e.cur = p
		}
		l.snaps[gr] = e.cur
	}
	return l
}

func (l *pluginLookup) Get(group, res, ns, name string) resource.Object {
	if p := l.snaps[group+"/"+res]; p != nil {
		if ns != "" {
			name = ns + "/" + name
		}
		return p.byKey[name]
	}
	return nil
}

func (l *pluginLookup) List(group, res, ns string) []resource.Object {
	var out []resource.Object
	if p := l.snaps[group+"/"+res]; p != nil {
		for _, k := range p.keys {
			if ns == "" || strings.HasPrefix(k, ns+"/") {
				out = append(out, p.byKey[k])
			}
		}
	}
	return out
}

// pluginRun is one write's plugin admission: what the plugins see.
type pluginRun struct {
	s     *Server
	attrs resource.Attributes // Operation, Obj and Old set per call
	// deferred are an update's UpdateStatus writes, made once it is
	// stored (flush, which sets flushing).
	deferred []func()
	flushing bool
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
	p := &pluginRun{s: s, attrs: resource.Attributes{
		Group: res.Group, Resource: res.Resource, Subresource: sub,
		Namespace: ns, Name: name, DryRun: dry, Objects: s.gatherReads(), Now: s.timestamp(),
	}}
	p.attrs.UpdateStatus = p.updateStatus
	return p
}

// updateStatus is Attributes.UpdateStatus: at once on a create, after the
// write on an update (deferred), never on a dry run.
func (p *pluginRun) updateStatus(group, resName, ns, name string, change func(resource.Object) error) error {
	if p.attrs.DryRun {
		return nil
	}
	if p.attrs.Operation == "UPDATE" && !p.flushing {
		p.deferred = append(p.deferred, func() {
			if err := p.updateStatus(group, resName, ns, name, change); err != nil {
				log.Printf("apiserver: admission's status write of %s %s/%s: %v", resName, ns, name, err)
			}
		})
		return nil
	}
	s := p.s
	var res *resource.Resource
	for _, r := range s.reg.forGroupResource(group, resName) {
		if res == nil || r.Version == r.StorageVersion {
			res = r
		}
	}
	if res == nil {
		return nil
	}
	_, _, err := s.updateObject(res, ns, name, "status", false, nil, func(old object) (object, error) {
		next := jsonx.CopyObject(old)
		if err := change(next); err != nil {
			return nil, err
		}
		return s.fieldManagerFor(res).Update(old, next, "kube-apiserver", "status", s.now())
	})
	return err
}

// flush makes an update's deferred writes, once it is stored.
func (p *pluginRun) flush() {
	if p == nil {
		return
	}
	p.flushing = true
	for _, f := range p.deferred {
		f()
	}
	p.deferred, p.flushing = nil, false
}

// run calls the plugins' Admit (mutating) or Validate — those of
// AdmissionPlugin.Last after the ValidatingAdmissionPolicy step, the
// others before it —, in order; the first error is the answer. Only
// creates and updates are admitted.
func (p *pluginRun) run(op string, obj, old object, mutating, last bool) error {
	if p == nil || (op != "CREATE" && op != "UPDATE") {
		return nil
	}
	if mutating {
		p.deferred = nil // the first call of each try: the store may decide an update again
	}
	p.attrs.Operation, p.attrs.Obj, p.attrs.Old = op, obj, old
	a := &p.attrs
	orig := a.Name
	if orig == "" {
		// kube names the object of a create with generateName by its
		// generateName until rest.BeforeCreate generated the name, after
		// mutating admission
		a.Name = metaStr(obj, "name")
		if g := metaStr(obj, "generateName"); g != "" && op == "CREATE" && mutating {
			a.Name = g
		}
	}
	var err error
	for _, pl := range p.s.plugins {
		f := pl.Admit
		if !mutating {
			f = nil
			if pl.Last == last {
				f = pl.Validate
			}
		}
		if f != nil {
			if err = f(a); err != nil {
				break
			}
		}
	}
	a.Name = orig
	return err
}
