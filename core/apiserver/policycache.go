package apiserver

import (
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// policyCache keeps the stored ValidatingAdmissionPolicies and bindings as
// the admission step sends them (admission.go), so that a write neither
// scans the store to learn that there are none nor re-reads and re-encodes
// unchanged ones — what kube-apiserver keeps in its informers.
//
// The store's commit hook bumps gen on every write or delete of a policy or
// binding; the next admission rebuilds the snapshot from the store when
// gen has moved since it was built. A write's hook runs before the write
// answers, so a client that created a policy finds it judging its next
// write (kube's informers take up to a second).
//
//	POST configmaps (no policy ever written) → snapshot() built once, empty:
//	  no List, no engine call on any later write
//	POST validatingadmissionpolicies → hook: gen++
//	POST configmaps → snapshot() rebuilt (two Lists), then reused
type policyCache struct {
	gen atomic.Uint64
	cur atomic.Pointer[policySnapshot]
	mu  sync.Mutex // one rebuild at a time

	polPrefix, bindPrefix string
}

// policySnapshot is the policies and bindings at one gen. Read-only once
// built: every admission shares it.
type policySnapshot struct {
	gen      uint64
	policies []cachedObject
	bindings []cachedObject
	byName   map[string]object // policy name → policy
}

// cachedObject is a stored object with its apiVersion and kind, decoded and
// encoded.
type cachedObject struct {
	obj  object
	json json.RawMessage
}

// empty reports that no policy or no binding exists (nothing can apply).
func (p *policySnapshot) empty() bool { return len(p.policies) == 0 || len(p.bindings) == 0 }

// watchPolicies installs the commit hook (New).
func (s *Server) watchPolicies() {
	polRes, bindRes := s.reg.lookup(policyGroup, "v1", policyResource), s.reg.lookup(policyGroup, "v1", bindingRes)
	if polRes == nil || bindRes == nil {
		return
	}
	s.policies.polPrefix, s.policies.bindPrefix = storagePrefix(polRes, ""), storagePrefix(bindRes, "")
	s.store.OnCommit(func(ev store.Event) {
		if strings.HasPrefix(ev.KV.Key, s.policies.polPrefix) || strings.HasPrefix(ev.KV.Key, s.policies.bindPrefix) {
			s.policies.gen.Add(1)
		}
	})
}

// policySnapshot is the current snapshot, rebuilt if a policy or binding
// was written since (nil when the kinds are not served).
func (s *Server) policySnapshot() *policySnapshot {
	c := &s.policies
	if c.polPrefix == "" {
		return nil
	}
	g := c.gen.Load()
	if p := c.cur.Load(); p != nil && p.gen == g {
		return p
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	g = c.gen.Load() // a write after this is seen by the next call
	if p := c.cur.Load(); p != nil && p.gen == g {
		return p
	}
	p := &policySnapshot{gen: g, byName: map[string]object{}}
	p.policies = s.cachedList(c.polPrefix, "ValidatingAdmissionPolicy")
	for _, o := range p.policies {
		p.byName[metaStr(o.obj, "name")] = o.obj
	}
	p.bindings = s.cachedList(c.bindPrefix, "ValidatingAdmissionPolicyBinding")
	c.cur.Store(p)
	return p
}

func (s *Server) cachedList(prefix, kind string) []cachedObject {
	kvs, _, _, _ := s.store.List(prefix, "", 0, nil, 0)
	out := make([]cachedObject, 0, len(kvs))
	for _, kv := range kvs {
		o, err := jsonx.DecodeObject(kv.Value)
		if err != nil {
			continue
		}
		o["apiVersion"], o["kind"] = policyGroup+"/v1", kind
		out = append(out, cachedObject{obj: o, json: mustJSON(o)})
	}
	return out
}
