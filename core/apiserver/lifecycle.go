package apiserver

import (
	"fmt"
	"log"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// The server side of resource.Hooks.Controller: the generic write path
// tells a kind's controller what happened (notify), and the controller
// acts through a cluster, the resource.Cluster bound to its resource. What
// a controller does is its kind's business (core/builtin: crd.go makes a
// CustomResourceDefinition serve, namespace.go empties a deleting
// namespace); this file only carries it out.

// notify tells res's controller, if any, about ev. The write behind ev is
// committed and answered as kube-apiserver answers it (its controllers run
// apart from the request): a controller that fails leaves the object as
// the real one does — a deleting CRD keeps its finalizer — and is logged,
// as utilruntime.HandleError logs; the next write of the object, or the
// next start, tries again.
func (s *Server) notify(res *resource.Resource, ev resource.Event) {
	if res.Hooks.Controller == nil {
		return
	}
	if err := res.Hooks.Controller(cluster{s, res}, ev); err != nil {
		handleError(fmt.Errorf("%s controller: %w", res.Kind, err))
	}
}

// handleError reports an error that has no client to answer to: a line on
// stderr (the browser console under WebAssembly).
func handleError(err error) {
	log.Printf("apiserver: %v", err)
}

// cluster is resource.Cluster for the controller of res.
type cluster struct {
	s   *Server
	res *resource.Resource
}

func (c cluster) Now() string { return c.s.timestamp() }

func (c cluster) Serve(owner string, rs []*resource.Resource) {
	c.s.reg.removeCRD(owner)
	for _, r := range rs {
		c.s.reg.add(r, owner)
	}
}

func (c cluster) Purge(owner string) error {
	for _, res := range c.s.reg.all() {
		if !res.CRD || c.s.reg.ownerOf(res) != owner {
			continue
		}
		// every version shares one storage prefix: one listing will do
		kvs, _, _, err := c.s.store.List(storagePrefix(res, ""), "", 0, nil, 0)
		if err != nil {
			return err
		}
		for _, kv := range kvs {
			_, _, err := c.s.store.Update(kv.Key, func(cur *store.KV, next store.Revision) (store.Op, error) {
				if cur == nil {
					return store.NoOp(), nil
				}
				return store.DeleteOp(), nil
			})
			if err != nil {
				return err
			}
		}
		break
	}
	return nil
}

func (c cluster) EmptyNamespace(ns string) resource.NamespaceContent {
	out := resource.NamespaceContent{Remaining: map[string]int{}, Finalizers: map[string]int{}}
	var pods *resource.Resource
	var rest []*resource.Resource
	for _, res := range c.s.reg.all() {
		if !res.Namespaced || (res.StorageVersion != "" && res.StorageVersion != res.Version) || res.View != nil {
			continue
		}
		if res.Group == "" && res.Resource == "pods" {
			pods = res
		} else {
			rest = append(rest, res)
		}
	}
	empty := func(res *resource.Resource) {
		kvs, _, _, _ := c.s.store.List(storagePrefix(res, ns), "", 0, nil, 0)
		for _, kv := range kvs {
			obj, err := decodeStoredFor(res, kv)
			if err != nil {
				continue
			}
			left, deleted, err := c.s.deleteObject(res, ns, metaStr(obj, "name"), deleteOptions{propagation: "Background"})
			if err != nil || deleted {
				continue
			}
			out.Remaining[res.Resource+"."+res.Group]++
			for _, f := range jsonx.Strings(meta(left)["finalizers"]) {
				out.Finalizers[f]++
			}
		}
	}
	if pods != nil {
		if empty(pods); !out.Empty() {
			return out // the rest waits until the Pods are gone
		}
	}
	for _, res := range rest {
		empty(res)
	}
	return out
}

func (c cluster) Update(obj resource.Object, manager, sub string, change func(resource.Object)) error {
	m, _ := obj["metadata"].(map[string]any)
	ns, name := "", str(m, "name")
	if c.res.Namespaced {
		ns = str(m, "namespace")
	}
	_, _, err := c.s.updateObject(c.res, ns, name, sub, false, nil, func(old object) (object, error) {
		next := jsonx.CopyObject(old)
		change(next)
		if manager == "" {
			return next, nil
		}
		return c.s.fieldManagerFor(c.res).Update(old, next, manager, sub, c.s.now())
	})
	if apierr.Is(err, apierr.ReasonNotFound) {
		return nil // gone meanwhile: nothing left to do
	}
	return err
}

// restoreControllers tells the controllers about the restored state: first
// every stored object (Restored: a CRD serves again), then every object
// that was being deleted (Deleting: the clean-up goes on). Namespaces come
// last, so that emptying one sees what every other clean-up left.
func (s *Server) restoreControllers() {
	type pending struct {
		res *resource.Resource
		ev  resource.Event
	}
	var deleting []pending
	nsRes := s.reg.lookup("", "v1", "namespaces")
	var resources []*resource.Resource
	for _, res := range s.reg.all() {
		if res.Hooks.Controller != nil && res != nsRes {
			resources = append(resources, res)
		}
	}
	if nsRes != nil && nsRes.Hooks.Controller != nil {
		resources = append(resources, nsRes)
	}
	for _, res := range resources {
		kvs, _, _, _ := s.store.List(storagePrefix(res, ""), "", 0, nil, 0)
		for _, kv := range kvs {
			obj, err := decodeStoredFor(res, kv)
			if err != nil {
				continue
			}
			s.notify(res, resource.Event{Type: resource.Restored, Obj: obj}) // nothing to answer to
			if metaStr(obj, "deletionTimestamp") != "" {
				deleting = append(deleting, pending{res, resource.Event{Type: resource.Deleting, Obj: obj}})
			}
		}
	}
	for _, p := range deleting {
		s.notify(p.res, p.ev)
	}
}

// watchNamespaceContent tells the namespace's controller again when an
// object in a namespace being deleted goes away (its finalizers may have
// held the namespace).
//
// Runs coalesce per namespace: emptying a namespace of 1,000 ConfigMaps
// deletes 1,000 objects, and a run per deletion — each listing what is left
// and trying to delete it again — made the clean-up quadratic (1,000
// ConfigMaps: 114 s of CPU). A deletion while a run is going on asks for
// one more run after it, which reads the namespace again; at most one run
// per namespace goes on at a time.
func (s *Server) watchNamespaceContent(ev store.Event) {
	if ev.Type != store.Delete {
		return
	}
	ns := keyNamespace(ev.KV.Key)
	if ns == "" {
		return
	}
	s.nsMu.Lock()
	defer s.nsMu.Unlock()
	if s.nsRuns == nil {
		s.nsRuns = map[string]bool{}
	}
	if running, ok := s.nsRuns[ns]; ok {
		if running {
			s.nsRuns[ns] = false // false: run once more when done
		}
		return
	}
	s.nsRuns[ns] = true
	go s.emptyNamespaceAgain(ns)
}

// emptyNamespaceAgain runs the namespace's controller while its namespace
// is being deleted and deletions came in since the last run began.
func (s *Server) emptyNamespaceAgain(ns string) {
	nsRes := s.reg.lookup("", "v1", "namespaces")
	for {
		if kv, _, err := s.store.Get(storageKey(nsRes, "", ns), 0); err == nil {
			if nsObj, err := jsonx.DecodeObject(kv.Value); err == nil && metaStr(nsObj, "deletionTimestamp") != "" {
				s.notify(nsRes, resource.Event{Type: resource.Deleting, Obj: nsObj}) // nobody to answer
			}
		}
		s.nsMu.Lock()
		if !s.nsRuns[ns] { // asked again meanwhile
			s.nsRuns[ns] = true
			s.nsMu.Unlock()
			continue
		}
		delete(s.nsRuns, ns)
		s.nsMu.Unlock()
		return
	}
}

// keyNamespace is the namespace in a namespaced object's storage key
// ("/<group>/<resource>/<namespace>/<name>"; names hold no "/"), or "" for
// a cluster-scoped one ("/<group>/<resource>/<name>").
func keyNamespace(key string) string {
	if strings.Count(key, "/") != 4 {
		return ""
	}
	rest := key[strings.LastIndexByte(key, '/'):]
	key = key[:len(key)-len(rest)]
	return key[strings.LastIndexByte(key, '/')+1:]
}
