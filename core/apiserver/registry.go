package apiserver

import (
	"sort"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/openapi"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// registry holds the served resources: built-ins at start, plus the ones
// CustomResourceDefinitions add and remove at run time.
type registry struct {
	mu  sync.RWMutex
	gvr map[gvrKey]*resource.Resource
	// owner remembers which CRD (by name) serves a group/resource.
	owner map[gvrKey]string
}

type gvrKey struct{ group, version, resource string }

func newRegistry() *registry {
	return &registry{gvr: map[gvrKey]*resource.Resource{}, owner: map[gvrKey]string{}}
}

func (r *registry) add(res *resource.Resource, crd string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := gvrKey{res.Group, res.Version, res.Resource}
	r.gvr[k] = res
	if crd != "" {
		r.owner[k] = crd
	}
}

// removeCRD drops every resource served for the named CRD.
func (r *registry) removeCRD(crd string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, owner := range r.owner {
		if owner == crd {
			delete(r.gvr, k)
			delete(r.owner, k)
		}
	}
}

func (r *registry) lookup(group, version, res string) *resource.Resource {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.gvr[gvrKey{group, version, res}]
}

// forKind returns the served resource of a group, version and kind (the
// first by resource name when several serve it), or nil.
func (r *registry) forKind(group, version, kind string) *resource.Resource {
	for _, res := range r.all() {
		if res.Group == group && res.Version == version && res.Kind == kind {
			return res
		}
	}
	return nil
}

// forGroupResource returns all served versions of a group/resource.
func (r *registry) forGroupResource(group, res string) []*resource.Resource {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []*resource.Resource
	for k, v := range r.gvr {
		if k.group == group && k.resource == res {
			out = append(out, v)
		}
	}
	return out
}

// all returns every served resource, sorted by group, version, resource.
func (r *registry) all() []*resource.Resource {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*resource.Resource, 0, len(r.gvr))
	for _, v := range r.gvr {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return versionLess(b.Version, a.Version)
		}
		return a.Resource < b.Resource
	})
	return out
}

// groupVersions lists the served versions of group, preferred first
// (Kubernetes version priority: GA > beta > alpha, higher numbers first).
func (r *registry) groupVersions(group string) []string {
	seen := map[string]bool{}
	var vs []string
	for _, res := range r.all() {
		if res.Group == group && !seen[res.Version] {
			seen[res.Version] = true
			vs = append(vs, res.Version)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return versionLess(vs[j], vs[i]) })
	return vs
}

// versionLess orders Kubernetes versions: v1alpha1 < v1beta1 < v1 < v2.
func versionLess(a, b string) bool { return openapi.CompareKubeAwareVersions(a, b) < 0 }

// groups lists served group names ("" first), sorted.
func (r *registry) groups() []string {
	seen := map[string]bool{}
	var gs []string
	for _, res := range r.all() {
		if !seen[res.Group] {
			seen[res.Group] = true
			gs = append(gs, res.Group)
		}
	}
	return gs
}

// ownerOf returns the CRD serving res ("" for built-ins).
func (r *registry) ownerOf(res *resource.Resource) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.owner[gvrKey{res.Group, res.Version, res.Resource}]
}
