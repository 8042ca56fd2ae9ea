//go:build !js

package schema

import "sync"

// named counts, per Catalogue, the definitions NameLoaded has named.
var named sync.Map // *Catalogue → int

// NameLoaded names (NameDefs, for JSONTypeError) every definition c has
// loaded so far: what a built-in's schema reaches is loaded with it, so
// a write's type check needs no more than its own kind's definitions —
// not the whole catalogue (All), whose load holds c while every other
// Get waits. Native only, as JSONTypeError is. E.g.
//
//	c.Get("io.k8s.api.core.v1.Node") // Node and the definitions it refers to
//	c.NameLoaded()                   // JSONTypeError(node schema, obj) names Node.spec...
func (c *Catalogue) NameLoaded() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, _ := named.Load(c); n == len(c.linked) {
		return // nothing loaded since
	}
	NameDefs(c.linked)
	named.Store(c, len(c.linked))
}
