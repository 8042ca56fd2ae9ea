package controllers

import (
	"net/http"
	"time"
)

// The node lifecycle controller's NoSchedule tainting pass
// (kube-controller-manager's doNoScheduleTaintingPass), for every Node —
// the simulated ones and any a client registers by hand: a Node's
// NoSchedule taints follow its conditions and spec.unschedulable.
//
//	Ready False                       node.kubernetes.io/not-ready
//	Ready Unknown                     node.kubernetes.io/unreachable
//	MemoryPressure/DiskPressure/PIDPressure True  …/memory-pressure, …
//	NetworkUnavailable True           node.kubernetes.io/network-unavailable
//	spec.unschedulable (cordon)       node.kubernetes.io/unschedulable
//
// E.g. `kubectl cordon sandbox-worker` → the taint
// node.kubernetes.io/unschedulable:NoSchedule (with timeAdded) appears;
// uncordon removes it. A Node created by hand with no conditions loses the
// not-ready taint the API server gave it, as on a real cluster (where,
// with no kubelet posting its status, the node becomes Unknown and
// unreachable after the startup grace period: not simulated here).
//
// Only NoSchedule taints with those keys are compared; others are kept.
// Taints to add carry timeAdded and are written before those to remove
// are dropped, as two strategic merge patches of the whole list, each
// under the resourceVersion read (SwapNodeControllerTaint).

// conditionTaints maps a condition type and status to its taint key (a
// list, not a map keyed by the pair: 3 KB less wasm).
var conditionTaints = [...]struct{ typ, status, key string }{
	{"Ready", "False", "node.kubernetes.io/not-ready"},
	{"Ready", "Unknown", "node.kubernetes.io/unreachable"},
	{"MemoryPressure", "True", "node.kubernetes.io/memory-pressure"},
	{"DiskPressure", "True", "node.kubernetes.io/disk-pressure"},
	{"NetworkUnavailable", "True", "node.kubernetes.io/network-unavailable"},
	{"PIDPressure", "True", "node.kubernetes.io/pid-pressure"},
}

const unschedulableTaint = "node.kubernetes.io/unschedulable"

// conditionTaint tells whether key is one the pass manages.
func conditionTaint(key string) bool {
	if key == unschedulableTaint {
		return true
	}
	for _, c := range conditionTaints {
		if c.key == key {
			return true
		}
	}
	return false
}

// wantedNoScheduleTaints are the keys the Node's conditions and
// spec.unschedulable call for, in the conditions' order.
func wantedNoScheduleTaints(n obj) []string {
	var keys []string
	for _, c := range list(n, "status", "conditions") {
		cm, _ := c.(map[string]any)
		for _, t := range conditionTaints {
			if t.typ == str(cm, "type") && t.status == str(cm, "status") {
				keys = append(keys, t.key)
			}
		}
	}
	if boolean(n, "spec", "unschedulable") {
		keys = append(keys, unschedulableTaint)
	}
	return keys
}

// taintNodeByConditions runs the pass on n.
func (m *Manager) taintNodeByConditions(n obj) error {
	order := wantedNoScheduleTaints(n)
	wanted := map[string]bool{}
	for _, k := range order {
		wanted[k] = true
	}
	have := map[string]bool{}
	var kept []any // every taint but managed ones no longer wanted
	for _, t := range list(n, "spec", "taints") {
		tm, _ := t.(map[string]any)
		if str(tm, "effect") == "NoSchedule" && conditionTaint(str(tm, "key")) {
			have[str(tm, "key")] = true
			if !wanted[str(tm, "key")] {
				continue
			}
		}
		kept = append(kept, t)
	}
	var add []string // in the conditions' order, as TaintSetDiff gives them
	for _, k := range order {
		if !have[k] {
			add = append(add, k)
			have[k] = true
		}
	}
	removing := len(kept) != len(list(n, "spec", "taints"))
	if len(add) == 0 && !removing {
		return nil
	}
	current := list(n, "spec", "taints")
	rv := str(n, "metadata", "resourceVersion")
	if len(add) > 0 {
		now := m.now().UTC().Format(time.RFC3339)
		next := append([]any{}, current...)
		for _, k := range add {
			next = append(next, map[string]any{"key": k, "effect": "NoSchedule", "timeAdded": now})
		}
		res, err := m.patchTaints(n, rv, next)
		if err != nil {
			return err
		}
		rv = str(res, "metadata", "resourceVersion")
		current = next
		kept = append(kept, next[len(next)-len(add):]...)
	}
	if removing {
		_, err := m.patchTaints(n, rv, kept)
		return err
	}
	return nil
}

// patchTaints writes the whole taint list (nil: none) under rv.
func (m *Manager) patchTaints(n obj, rv string, taints []any) (obj, error) {
	var v any = taints
	if len(taints) == 0 {
		v = nil
	}
	patch := obj{"metadata": obj{"resourceVersion": rv}, "spec": obj{"taints": v}}
	res, err := m.cm.do(m.ctx, http.MethodPatch, kNodes.path("", name(n), ""), ctStrategic, patch)
	return res, ignoreNotFound(err)
}
