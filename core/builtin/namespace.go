package builtin

import (
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// A Namespace's life beyond its defaults (defaults_core.go): a DNS-label
// name; spec.finalizers hold a deleting namespace until its content is
// gone; its controller (the namespace lifecycle controller, in-process)
// empties it and then clears spec.finalizers, whereupon the update
// removes it.

func namespaceHooks(h *resource.Hooks) {
	h.Name = validation.NameIsDNSLabel
	h.Delete.Begin = namespaceBeginDelete
	h.Delete.Forbid = namespaceForbidDelete
	h.Delete.Held = namespaceHeld
	h.Controller = namespaceController
}

// namespaceHeld: spec.finalizers hold a namespace (the registry's
// ShouldDeleteNamespaceDuringUpdate).
func namespaceHeld(ns resource.Object) bool {
	return len(jsonx.Strings(nestedOr(ns, "spec", "finalizers"))) > 0
}

// namespaceBeginDelete marks a namespace that spec.finalizers hold
// Terminating; one without them is deleted by the generic rule.
func namespaceBeginDelete(ns resource.Object, _ []string, now string) bool {
	if !namespaceHeld(ns) {
		return false
	}
	m := ensure(ns, "metadata")
	if m == nil {
		return false
	}
	if st := child(ns, "status"); st != nil {
		st["phase"] = "Terminating"
	}
	// the namespace registry's own delete sets no grace period
	m["deletionTimestamp"] = now
	return true
}

// namespaceController empties a deleting namespace and, once nothing is
// left, finalizes it.
func namespaceController(c resource.Cluster, ev resource.Event) error {
	if ev.Type != resource.Deleting {
		return nil
	}
	if c.EmptyNamespace(metaStr(ev.Obj, "name")) > 0 {
		return nil
	}
	return c.Update(ev.Obj, "", "", func(ns resource.Object) {
		if metaStr(ns, "deletionTimestamp") == "" {
			return
		}
		if spec := child(ns, "spec"); spec != nil {
			delete(spec, "finalizers")
		}
	})
}
