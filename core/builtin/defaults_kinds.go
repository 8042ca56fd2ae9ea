package builtin

// Defaults and create-time preparation of the kinds of catalog_kinds.go.

// defaultNode is SetDefaults_NodeStatus: allocatable is the capacity when
// unset.
func defaultNode(obj map[string]any) {
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

// prepareNodeCreate is the TaintNodesByCondition admission plugin: a new
// Node gets the node.kubernetes.io/not-ready:NoSchedule taint unless it
// has one with that key and effect.
func prepareNodeCreate(obj map[string]any) {
	spec, ok := obj["spec"].(map[string]any)
	if !ok {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	taints, _ := spec["taints"].([]any)
	for _, t := range taints {
		if m := mapOf(t); str(m, "key") == "node.kubernetes.io/not-ready" && str(m, "effect") == "NoSchedule" {
			return
		}
	}
	spec["taints"] = append(taints, map[string]any{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"})
}
