package openapi

import (
	"sync"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Cache memoises the documents of the current resource set. Its key is
// the identity of the resources: the registry makes a new *Resource
// whenever a CRD changes, so the same pointers in the same order mean the
// same documents. Holding the slice keeps those pointers alive, so a
// freed address cannot come back as a different resource while cached.
//
// Usage, per request:
//
//	docs := cache.For(s.reg.all())
//	body, ok := docs.V3GroupVersion("apis/apps/v1")
//
// A Cache is safe for concurrent use; its zero value is ready.
type Cache struct {
	mu   sync.Mutex
	docs *Docs
}

// For returns the documents of resources, reusing the previous ones when
// resources holds the same pointers in the same order.
func (c *Cache) For(resources []*resource.Resource) *Docs {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.docs != nil && samePointers(c.docs.resources, resources) {
		return c.docs
	}
	c.docs = &Docs{resources: append([]*resource.Resource(nil), resources...), gv: map[string][]byte{}}
	return c.docs
}

func samePointers(a, b []*resource.Resource) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Docs are the documents of one resource set, each built on first use.
// The returned slices are shared: callers must not modify them.
type Docs struct {
	resources []*resource.Resource

	mu           sync.Mutex
	descs        map[string]any // nil until loaded
	root, v2     []byte
	gv           map[string][]byte
	gvMissing    map[string]bool
	apis, legacy []byte
}

// V3Root is the /openapi/v3 document.
func (d *Docs) V3Root() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.describeLocked()
	if d.root == nil {
		d.root = v3Root(d.resources, func(gv string) []byte {
			b, _ := d.gvLocked(gv)
			return b
		})
	}
	return d.root
}

// V3GroupVersion is the document of "api/v1" or "apis/<group>/<version>".
func (d *Docs) V3GroupVersion(gv string) ([]byte, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.describeLocked()
	return d.gvLocked(gv)
}

// describeLocked loads the descriptions of the built-in definitions the
// first time an OpenAPI document is asked for (in the browser, a fetch of
// the file beside the wasm; see builtin.Descriptions). Until a load
// succeeds the documents are built without them, and the first
// successful load drops the documents built before, so that every
// document and every ?hash= agree.
func (d *Docs) describeLocked() {
	if d.descs == nil {
		if d.descs = builtin.Descriptions(); d.descs != nil {
			d.root, d.v2, d.gv, d.gvMissing = nil, nil, map[string][]byte{}, nil
		}
	}
}

func (d *Docs) gvLocked(gv string) ([]byte, bool) {
	if b, ok := d.gv[gv]; ok {
		return b, true
	}
	if d.gvMissing[gv] {
		return nil, false
	}
	b, ok := v3GroupVersion(d.resources, gv, d.descs)
	if !ok {
		if d.gvMissing == nil {
			d.gvMissing = map[string]bool{}
		}
		if len(d.gvMissing) < 1000 { // bound what random paths can make us keep
			d.gvMissing[gv] = true
		}
		return nil, false
	}
	d.gv[gv] = b
	return b, true
}

// V2 is the /openapi/v2 document.
func (d *Docs) V2() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.describeLocked()
	if d.v2 == nil {
		d.v2 = v2(d.resources, d.descs)
	}
	return d.v2
}

// AggregatedDiscovery is the aggregated discovery of /api (legacy) or /apis.
func (d *Docs) AggregatedDiscovery(legacy bool) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := &d.apis
	if legacy {
		p = &d.legacy
	}
	if *p == nil {
		*p = AggregatedDiscovery(d.resources, legacy)
	}
	return *p
}
