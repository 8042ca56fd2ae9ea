package schema

// HasRules reports whether a schema in its JSON form (a CRD version's
// openAPIV3Schema as decoded) holds CEL validation rules anywhere: a
// non-empty x-kubernetes-validations. The server asks the CEL engine
// about a custom resource only when its version's schema has rules.
//
//	HasRules(map[string]any{"type": "object", "properties": map[string]any{
//		"spec": map[string]any{"x-kubernetes-validations": []any{
//			map[string]any{"rule": "self.replicas <= self.maxReplicas"}}}}}) // true
func HasRules(raw any) bool {
	switch v := raw.(type) {
	case map[string]any:
		if rules, ok := v["x-kubernetes-validations"].([]any); ok && len(rules) > 0 {
			return true
		}
		for _, child := range v {
			if HasRules(child) {
				return true
			}
		}
	case []any:
		for _, child := range v {
			if HasRules(child) {
				return true
			}
		}
	}
	return false
}
