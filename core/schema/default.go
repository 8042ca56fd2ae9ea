package schema

import (
	"sort"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Default applies the defaults of s to obj in place, as the
// apiextensions-apiserver's structural defaulting does:
//
//   - a property missing from an existing object gets the property's
//     default (deep-copied), and so does a property that is null when
//     its schema is not nullable;
//   - list items and map values (additionalProperties) that are null and
//     not nullable are replaced by their schema's default;
//   - defaulting then descends into every value, including the values that
//     were just defaulted, so defaults nested in defaults apply.
//
// Objects that are absent are not created: with
// spec: {type: object, properties: {replicas: {default: 1}}},
// {"spec": {}} becomes {"spec": {"replicas": 1}} while {} stays {}.
func Default(s *Schema, obj any) {
	defaultValue(s, obj, 0)
}

// maxDepth bounds recursion on cyclic schemas applied to deep values.
const maxDepth = 10000

func isNonNullableNull(x any, s *Schema) bool {
	return x == nil && s != nil && !s.Nullable
}

func defaultValue(s *Schema, x any, depth int) {
	if s == nil || depth > maxDepth {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for _, k := range sortedSchemaKeys(s.Properties) {
			prop := s.Properties[k]
			if prop == nil || prop.Default == nil {
				continue
			}
			if v, found := x[k]; !found || isNonNullableNull(v, prop) {
				x[k] = jsonx.DeepCopy(prop.Default)
			}
		}
		for k, v := range x {
			if prop, found := s.Properties[k]; found {
				defaultValue(prop, v, depth+1)
			} else if s.AdditionalProperties != nil {
				if isNonNullableNull(v, s.AdditionalProperties) {
					x[k] = jsonx.DeepCopy(s.AdditionalProperties.Default)
				}
				defaultValue(s.AdditionalProperties, x[k], depth+1)
			}
		}
	case []any:
		for i := range x {
			if isNonNullableNull(x[i], s.Items) {
				x[i] = jsonx.DeepCopy(s.Items.Default)
			}
			defaultValue(s.Items, x[i], depth+1)
		}
	}
}

func sortedSchemaKeys(m map[string]*Schema) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// PruneNulls removes the null values whose schema is neither nullable nor
// defaulted (defaulting replaces the defaulted ones), as the server does
// right after pruning: {"spec": {"color": null}} becomes {"spec": {}}
// unless spec.color is nullable or has a default.
func PruneNulls(s *Schema, obj any) {
	pruneNulls(s, obj, 0)
}

func schemaForField(k string, s *Schema) *Schema {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return p
	}
	return s.AdditionalProperties
}

func pruneNulls(s *Schema, x any, depth int) {
	if depth > maxDepth {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			sub := schemaForField(k, s)
			if v == nil && sub != nil && !sub.Nullable && sub.Default == nil {
				delete(x, k)
			} else {
				pruneNulls(sub, v, depth+1)
			}
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			pruneNulls(items, v, depth+1)
		}
	}
}
