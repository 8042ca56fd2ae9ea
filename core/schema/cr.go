package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/internal/lazyre"
)

// Options tunes Validate.
type Options struct {
	// EmbeddedObjectMeta validates the metadata of an embedded resource
	// (x-kubernetes-embedded-resource), decoded and normalised; its name is
	// "fakename" when empty, as the server does. The server runs ObjectMeta
	// validation there (namespaced when metadata.namespace is set); nil
	// skips it.
	EmbeddedObjectMeta func(meta map[string]any, namespaced bool, path *field.Path) field.ErrorList
}

// Validate validates a whole custom resource against its version's
// schema, as the apiextensions-apiserver's strategy does after the object
// meta checks:
//
//  1. the OpenAPI value validation (kube-openapi) of the whole object,
//     apiVersion, kind and metadata included (a CRD schema may restrict
//     metadata.name);
//  2. apiVersion, kind and metadata of embedded resources;
//  3. the uniqueness of x-kubernetes-list-type set and map lists.
//
// kind/apiVersion against the resource (ValidateTypeMeta), root ObjectMeta
// and the scale paths (ValidateScaleSpec, ValidateScaleStatus) are
// separate, since they need the resource's definition. Pass the object
// after Prune and Default, as the server does.
func Validate(s *Schema, obj map[string]any) field.ErrorList {
	return ValidateWithOptions(s, obj, Options{})
}

// ValidateWithOptions is Validate with Options.
func ValidateWithOptions(s *Schema, obj map[string]any, opts Options) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	errs := ValidateValue(s, obj)
	errs = append(errs, validateEmbedded(nil, obj, s, opts, 0)...)
	errs = append(errs, ValidateListSetsAndMaps(nil, s, obj)...)
	return errs
}

func validateEmbedded(pth *field.Path, x any, s *Schema, opts Options, depth int) field.ErrorList {
	if s == nil || depth > maxDepth {
		return nil
	}
	var errs field.ErrorList
	switch x := x.(type) {
	case map[string]any:
		if s.EmbeddedResource {
			errs = append(errs, validateEmbeddedResource(pth, x, opts)...)
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, validateEmbedded(pth.Child(k), x[k], prop, opts, depth+1)...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, validateEmbedded(pth.Key(k), x[k], s.AdditionalProperties, opts, depth+1)...)
			}
		}
	case []any:
		for i, v := range x {
			errs = append(errs, validateEmbedded(pth.Index(i), v, s.Items, opts, depth+1)...)
		}
	}
	return errs
}

var dns1035Label = lazyre.New(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)

func validateEmbeddedResource(pth *field.Path, x map[string]any, opts Options) field.ErrorList {
	var errs field.ErrorList
	if _, found := x["apiVersion"]; !found {
		errs = append(errs, field.Required(pth.Child("apiVersion"), ""))
	}
	if _, found := x["kind"]; !found {
		errs = append(errs, field.Required(pth.Child("kind"), ""))
	}
	for _, k := range slices.Sorted(maps.Keys(x)) {
		v := x[k]
		switch k {
		case "apiVersion":
			if apiVersion, ok := v.(string); !ok {
				errs = append(errs, field.Invalid(pth.Child("apiVersion"), v, "must be a string"))
			} else if apiVersion == "" {
				errs = append(errs, field.Required(pth.Child("apiVersion"), ""))
			} else if apiVersion != "/" && strings.Count(apiVersion, "/") > 1 {
				errs = append(errs, field.Invalid(pth.Child("apiVersion"), apiVersion, "unexpected GroupVersion string: "+apiVersion))
			}
		case "kind":
			if kind, ok := v.(string); !ok {
				errs = append(errs, field.Invalid(pth.Child("kind"), v, "must be a string"))
			} else if kind == "" {
				errs = append(errs, field.Required(pth.Child("kind"), ""))
			} else if msgs := isDNS1035Label(strings.ToLower(kind)); len(msgs) > 0 {
				errs = append(errs, field.Invalid(pth.Child("kind"), kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
			}
		case "metadata":
			meta, _, _, err := objectMetaOf(x, "", false)
			if err != nil {
				errs = append(errs, field.Invalid(pth.Child("metadata"), v, err.Error()))
			} else if opts.EmbeddedObjectMeta != nil {
				if meta == nil {
					meta = map[string]any{}
				}
				if n, _ := meta["name"].(string); n == "" {
					meta["name"] = "fakename"
				}
				ns, _ := meta["namespace"].(string)
				errs = append(errs, opts.EmbeddedObjectMeta(meta, ns != "", pth.Child("metadata"))...)
			}
		}
	}
	return errs
}

func isDNS1035Label(v string) []string {
	var msgs []string
	if len(v) > 63 {
		msgs = append(msgs, "must be no more than 63 characters")
	}
	if !dns1035Label.MatchString(v) {
		msgs = append(msgs, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "+
			"start with an alphabetic character, and end with an alphanumeric character "+
			"(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')")
	}
	return msgs
}

// ValidateListSetsAndMaps checks that x-kubernetes-list-type "set" lists
// have unique items and "map" lists unique keys, reporting each second
// occurrence as "Duplicate value" (listtype.ValidateListSetsAndMaps).
func ValidateListSetsAndMaps(pth *field.Path, s *Schema, obj map[string]any) field.ErrorList {
	return listSetsAndMaps(pth, s, obj, 0)
}

func listSetsAndMaps(pth *field.Path, s *Schema, obj map[string]any, depth int) field.ErrorList {
	if s == nil || obj == nil || depth > maxDepth {
		return nil
	}
	var errs field.ErrorList
	keys := slices.Sorted(maps.Keys(obj))
	if s.AdditionalProperties != nil {
		for _, k := range keys {
			errs = append(errs, listValue(pth.Key(k), s.AdditionalProperties, obj[k], depth+1)...)
		}
	}
	for _, k := range keys {
		if sub, ok := s.Properties[k]; ok {
			errs = append(errs, listValue(pth.Child(k), sub, obj[k], depth+1)...)
		}
	}
	return errs
}

func listValue(pth *field.Path, s *Schema, v any, depth int) field.ErrorList {
	if s == nil {
		return nil
	}
	switch v := v.(type) {
	case []any:
		var errs field.ErrorList
		switch s.ListType {
		case "set":
			for _, i := range nonUnique(v) {
				errs = append(errs, field.Duplicate(pth.Index(i), v[i]))
			}
		case "map":
			errs = append(errs, validateListMap(pth, s, v)...)
		}
		if s.Items != nil {
			for i := range v {
				errs = append(errs, listValue(pth.Index(i), s.Items, v[i], depth+1)...)
			}
		}
		return errs
	case map[string]any:
		return listSetsAndMaps(pth, s, v, depth)
	}
	return nil
}

type unspecifiedKey struct{}

// nonUnique returns the index of the second occurrence of every repeated item.
func nonUnique(l []any) []int {
	if len(l) <= 1 {
		return nil
	}
	seen := map[any]int{}
	var out []int
	for i, x := range l {
		var k any = x
		switch x.(type) {
		case map[string]any, []any:
			b, _ := json.Marshal(x)
			k = "compound:" + string(b)
		case string:
			k = "string:" + x.(string)
		}
		seen[k]++
		if seen[k] == 2 {
			out = append(out, i)
		}
	}
	return out
}

func validateListMap(pth *field.Path, s *Schema, l []any) field.ErrorList {
	for i, x := range l {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return field.ErrorList{field.Invalid(pth.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(l) <= 1 {
		return nil
	}
	var errs field.ErrorList
	if len(s.ListMapKeys) == 1 {
		kf := s.ListMapKeys[0]
		keys := make([]any, len(l))
		for i, x := range l {
			m, _ := x.(map[string]any)
			if k, ok := m[kf]; ok {
				keys[i] = k
			} else {
				keys[i] = unspecifiedKey{}
			}
		}
		for _, i := range nonUnique(keys) {
			if keys[i] == (unspecifiedKey{}) {
				errs = append(errs, field.Duplicate(pth.Index(i), map[string]any{}))
			} else {
				errs = append(errs, field.Duplicate(pth.Index(i), map[string]any{kf: keys[i]}))
			}
		}
		return errs
	}
	keys := make([]any, len(l))
	for i, x := range l {
		key := map[string]any{}
		m, _ := x.(map[string]any)
		for _, kf := range s.ListMapKeys {
			if k, ok := m[kf]; ok {
				key[kf] = k
			}
		}
		keys[i] = key
	}
	for _, i := range nonUnique(keys) {
		errs = append(errs, field.Duplicate(pth.Index(i), keys[i]))
	}
	return errs
}

// ValidateTypeMeta checks apiVersion and kind against the resource
// (customResourceValidator.ValidateTypeMeta): for group g, version v and
// kind Widget, kind "Gizmo" gives `kind: Invalid value: "Gizmo": must be Widget`.
func ValidateTypeMeta(obj map[string]any, group, version, kind string) field.ErrorList {
	var errs field.ErrorList
	k, _ := obj["kind"].(string)
	if k != kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), k, "must be "+kind))
	}
	av, _ := obj["apiVersion"].(string)
	if want := group + "/" + version; av != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), av, "must be "+want))
	}
	return errs
}

// ValidateScaleSpec checks the replicas at the scale subresource's
// specReplicasPath (".spec.replicas"), e.g.
// `.spec.replicas: Invalid value: -1: should be a non-negative integer`.
func ValidateScaleSpec(obj map[string]any, specReplicasPath string) field.ErrorList {
	return validateReplicas(obj, specReplicasPath)
}

// ValidateScaleStatus checks the status replicas and, when
// labelSelectorPath is not empty, that the selector is a string.
func ValidateScaleStatus(obj map[string]any, statusReplicasPath, labelSelectorPath string) field.ErrorList {
	errs := validateReplicas(obj, statusReplicasPath)
	if labelSelectorPath != "" {
		fields := strings.Split(strings.TrimPrefix(labelSelectorPath, "."), ".")
		v, found, err := nestedField(obj, fields)
		if err == nil && found {
			if _, ok := v.(string); !ok {
				err = fmt.Errorf("%v accessor error: %v is of the type %T, expected string", jsonPath(fields), v, v)
			}
		}
		if err != nil {
			errs = append(errs, field.Invalid(field.NewPath(labelSelectorPath), "", err.Error()))
		}
	}
	return errs
}

func validateReplicas(obj map[string]any, path string) field.ErrorList {
	fields := strings.Split(strings.TrimPrefix(path, "."), ".")
	v, found, err := nestedField(obj, fields)
	var n int64
	if err == nil && found {
		var ok bool
		if n, ok = v.(int64); !ok {
			err = fmt.Errorf("%v accessor error: %v is of the type %T, expected int64", jsonPath(fields), v, v)
		}
	}
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(field.NewPath(path), int64(0), err.Error())}
	case n < 0:
		return field.ErrorList{field.Invalid(field.NewPath(path), n, "should be a non-negative integer")}
	case n > math.MaxInt32:
		return field.ErrorList{field.Invalid(field.NewPath(path), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}

func jsonPath(fields []string) string { return "." + strings.Join(fields, ".") }

// nestedField is unstructured.NestedFieldNoCopy.
func nestedField(obj map[string]any, fields []string) (any, bool, error) {
	var val any = obj
	for i, f := range fields {
		if val == nil {
			return nil, false, nil
		}
		m, ok := val.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPath(fields[:i+1]), val, val)
		}
		if val, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	return val, true, nil
}
