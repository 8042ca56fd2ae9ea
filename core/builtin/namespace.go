package builtin

import (
	"fmt"
	"sort"
	"strings"

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

// namespaceController empties a deleting namespace, writes the namespace
// controller's five deletion conditions to its status (as
// kube-controller-manager's UpdateStatus), and once nothing is left
// finalizes it.
//
// Example: `kubectl delete ns demo` with a Deployment in it: the Pods are
// deleted first; while one is still there (its kubelet has not finished)
// the status reads NamespaceContentRemaining=True, SomeResourcesRemain,
// "Some resources are remaining: pods. has 1 resource instances"; then
// the rest is deleted, every condition turns False (ContentRemoved,
// ContentHasNoFinalizers, …) and spec.finalizers is cleared, which
// removes the namespace.
func namespaceController(c resource.Cluster, ev resource.Event) error {
	if ev.Type != resource.Deleting {
		return nil
	}
	content := c.EmptyNamespace(metaStr(ev.Obj, "name"))
	conds := namespaceDeletionConditions(content)
	err := c.Update(ev.Obj, "kube-controller-manager", "status", func(ns resource.Object) {
		if metaStr(ns, "deletionTimestamp") == "" {
			return
		}
		setNamespaceConditions(ns, conds, c.Now())
	})
	if err != nil || !content.Empty() {
		return err
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

// The condition types the namespace deleter maintains, in its order, with
// the reason and message of their False ("it worked") form.
var namespaceConditionTypes = []struct{ typ, reason, message string }{
	{"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"},
	{"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"},
	{"NamespaceDeletionContentFailure", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
	{"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
	{"NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"},
}

// namespaceDeletionConditions is ProcessContentTotals: the True
// conditions (type → [reason, message]) for what is left.
func namespaceDeletionConditions(c resource.NamespaceContent) map[string][2]string {
	out := map[string][2]string{}
	count := func(m map[string]int, format string) []string {
		var l []string
		for k, n := range m {
			if n > 0 {
				l = append(l, fmt.Sprintf(format, k, n))
			}
		}
		sort.Strings(l)
		return l
	}
	if len(c.Remaining) > 0 {
		out["NamespaceContentRemaining"] = [2]string{"SomeResourcesRemain",
			"Some resources are remaining: " + strings.Join(count(c.Remaining, "%s has %d resource instances"), ", ")}
	}
	if len(c.Finalizers) > 0 {
		out["NamespaceFinalizersRemaining"] = [2]string{"SomeFinalizersRemain",
			"Some content in the namespace has finalizers remaining: " + strings.Join(count(c.Finalizers, "%s in %d resource instances"), ", ")}
	}
	return out
}

// setNamespaceConditions is updateConditions: every type present, True
// ones from conds, False ones otherwise; lastTransitionTime moves only
// when the status does.
func setNamespaceConditions(ns resource.Object, conds map[string][2]string, now string) {
	st := ensure(ns, "status")
	if st == nil {
		return
	}
	list, _ := st["conditions"].([]any)
	for _, t := range namespaceConditionTypes {
		status, reason, message := "False", t.reason, t.message
		if c, ok := conds[t.typ]; ok {
			status, reason, message = "True", c[0], c[1]
		}
		var old map[string]any
		for _, x := range list {
			if m, _ := x.(map[string]any); m != nil && m["type"] == t.typ {
				old = m
			}
		}
		if old == nil {
			list = append(list, map[string]any{"type": t.typ, "status": status, "lastTransitionTime": now,
				"reason": reason, "message": message})
			continue
		}
		if old["status"] != status {
			old["lastTransitionTime"] = now
		}
		old["status"], old["reason"], old["message"] = status, reason, message
	}
	st["conditions"] = list
}
