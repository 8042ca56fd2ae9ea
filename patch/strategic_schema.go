package patch

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// Directives and prefixes of strategic merge patch.
const (
	directiveMarker  = "$patch"
	deleteDirective  = "delete"
	replaceDirective = "replace"
	mergeDirective   = "merge"

	retainKeysStrategy = "retainKeys"

	deleteFromPrimitiveListDirectivePrefix = "$deleteFromPrimitiveList"
	retainKeysDirective                    = "$" + retainKeysStrategy
	setElementOrderDirectivePrefix         = "$setElementOrder"
)

// patchMeta is the strategic merge metadata of one field.
type patchMeta struct {
	strategies []string
	mergeKey   string
}

// resolve returns the node that carries the structure of s: built-in
// schemas sometimes wrap a reference as allOf: [{$ref}].
func resolve(s *schema.Schema) *schema.Schema {
	for i := 0; s != nil && i < 8; i++ {
		if s.Properties != nil || s.Items != nil || s.AdditionalProperties != nil || len(s.AllOf) != 1 {
			return s
		}
		s = s.AllOf[0]
	}
	return s
}

// lookupField finds the schema of field key of the object schema s.
// A nil schema is "no schema": no patch strategy, maps merge and lists
// are replaced, as with the library's schema-less lookups. Field names
// match exactly first, then case-insensitively, as Go's JSON field lookup
// the library uses does.
func lookupField(s *schema.Schema, key string) (*schema.Schema, patchMeta) {
	s = resolve(s)
	if s == nil {
		return nil, patchMeta{}
	}
	if s.Properties != nil {
		f, ok := s.Properties[key]
		if !ok {
			for name, p := range s.Properties {
				if strings.EqualFold(name, key) {
					f, ok = p, true
					break
				}
			}
		}
		if !ok || f == nil {
			return nil, patchMeta{}
		}
		pm := patchMeta{mergeKey: f.PatchMergeKey}
		pm.strategies = strings.Split(f.PatchStrategy, ",")
		return f, pm
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties, patchMeta{}
	}
	return nil, patchMeta{}
}

// lookupStruct is LookupPatchMetadataForStruct: the field's schema.
func lookupStruct(s *schema.Schema, key string) (*schema.Schema, patchMeta, error) {
	f, pm := lookupField(s, key)
	return f, pm, nil
}

// lookupSlice is LookupPatchMetadataForSlice: the schema of the field's
// items, and the field's metadata.
func lookupSlice(s *schema.Schema, key string) (*schema.Schema, patchMeta, error) {
	f, pm := lookupField(s, key)
	f = resolve(f)
	if f == nil {
		return nil, pm, nil
	}
	switch {
	case f.Type == "array" || f.Items != nil:
		return f.Items, pm, nil
	case f.Properties != nil:
		// A struct field: the library accepts a pointer to a struct here
		// and uses the struct itself as the item type.
		return f, pm, nil
	case f.Type == "":
		return nil, pm, nil
	}
	// A scalar, a map or a value struct: the library names the parent's kind.
	return nil, patchMeta{}, internalf("expected slice or array type, but got: struct")
}

// schemaName is the library's schema.Name(): the Go kind of the type.
func schemaName(s *schema.Schema) string {
	s = resolve(s)
	switch {
	case s == nil:
		return "interface"
	case s.Properties != nil:
		return "struct"
	case s.Type == "object":
		return "map"
	case s.Type == "array":
		return "slice"
	case s.Type == "integer" && s.Format == "int32":
		return "int32"
	case s.Type == "integer" && s.Format == "int64":
		return "int64"
	case s.Type == "integer":
		return "int"
	case s.Type == "number":
		return "float64"
	case s.Type == "boolean":
		return "bool"
	case s.Type == "string":
		return "string"
	}
	return "interface"
}

// extractRetainKeysPatchStrategy splits "merge,retainKeys" and the like.
func extractRetainKeysPatchStrategy(strategies []string) (bool, string, error) {
	switch len(strategies) {
	case 0:
		return false, "", nil
	case 1:
		if strategies[0] == retainKeysStrategy {
			return true, "", nil
		}
		return false, strategies[0], nil
	case 2:
		switch {
		case strategies[0] == retainKeysStrategy:
			return true, strategies[1], nil
		case strategies[1] == retainKeysStrategy:
			return true, strategies[0], nil
		}
	}
	return false, "", internalf(fmt.Sprintf("unexpected patch strategy: %v", strategies))
}

// The library's error constructors (k8s.io/apimachinery/pkg/util/mergepatch).
// The values are the same Go types the library sees (map[string]interface{},
// []interface{}, int64...), so fmt renders them identically.

func errNoMergeKey(m map[string]any, k string) error {
	return internalf(fmt.Sprintf("map: %v does not contain declared merge key: %s", m, k))
}

func errBadArgType(expected, actual any) error {
	return internalf(fmt.Sprintf("expected a %s, but received a %s", reflect.TypeOf(expected), reflect.TypeOf(actual)))
}

func errBadPatchType(t any, m map[string]any) error {
	return internalf(fmt.Sprintf("unknown patch type: %s in map: %v", t, m))
}

// Typed nils naming the types errBadArgType reports.
var (
	nilMap   map[string]any
	nilSlice []any
)

// eq is the library's interface comparison (==), except that comparing
// two maps or two lists, which panics in Go, is false.
func eq(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return false
	}
	switch b.(type) {
	case map[string]any, []any:
		return false
	}
	return a == b
}

// comparable reports whether v can be a Go map key.
func comparable(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}
