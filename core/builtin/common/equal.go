package common

import "reflect"

// SemanticEqual compares two decoded JSON values as apimachinery's
// Semantic.DeepEqual compares the Go structs they decode to: an empty list
// or object equals an absent (nil) one, and integral floats equal ints.
func SemanticEqual(a, b any) bool { return reflect.DeepEqual(prune(a), prune(b)) }

func prune(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if p := prune(e); p != nil {
				out[k] = p
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(t) == 0 {
			return nil
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = prune(e)
		}
		return out
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	}
	return v
}
