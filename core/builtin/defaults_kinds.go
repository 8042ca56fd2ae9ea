package builtin

// Defaults and create-time preparation of the kinds of catalog_kinds.go.

import "github.com/kubesandbox/kubesandbox/core/builtin/corev1"

// defaultNode is SetDefaults_NodeStatus: allocatable is the capacity when
// unset; and podCIDR/podCIDRs as the round trip through the internal
// Node leaves them (NormalizeNodeCIDRs).
func defaultNode(obj map[string]any) {
	corev1.NormalizeNodeCIDRs(obj)
	st := mapOf(obj["status"])
	if st == nil {
		return
	}
	if _, ok := st["allocatable"]; !ok {
		if c, ok := st["capacity"].(map[string]any); ok {
			a := make(map[string]any, len(c))
			for k, v := range c {
				a[k] = v
			}
			st["allocatable"] = a
		}
	}
}

// prepareNodeUpdate is dropDisabledFields on update: spec.configSource
// stays only if the old Node had one.
func prepareNodeUpdate(obj, old map[string]any) {
	if mapOf(old["spec"])["configSource"] == nil {
		delete(mapOf(obj["spec"]), "configSource")
	}
}

// prepareNodeCreate is the TaintNodesByCondition admission plugin: a new
// Node gets the node.kubernetes.io/not-ready:NoSchedule taint unless it
// has one with that key and effect.
//
// Before it, the strategy's dropDisabledFields: a new Node's
// spec.configSource and status.config are dropped (the feature is removed).
func prepareNodeCreate(obj map[string]any) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	delete(spec, "configSource")
	delete(mapOf(obj["status"]), "config")
	taints, _ := spec["taints"].([]any)
	for _, t := range taints {
		if m := mapOf(t); str(m, "key") == "node.kubernetes.io/not-ready" && str(m, "effect") == "NoSchedule" {
			return
		}
	}
	spec["taints"] = append(taints, map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"})
}
