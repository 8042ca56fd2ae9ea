package patch

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// StrategicMergePatch applies a strategic merge patch the way
// kube-apiserver does for built-in types (StrategicMergeMapPatch with
// MergeParallelList and IgnoreUnmatchedNulls), with the patch strategies
// and merge keys of s. Field validation is the server's default (Warn).
//
// With spec.containers declared patchStrategy=merge, patchMergeKey=name:
//
//	original {"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}}
//	patch    {"spec":{"containers":[{"name":"b","image":"z"},{"name":"c","image":"w"}]}}
//	result   {"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"z"},{"name":"c","image":"w"}]}}
//
// Directives: {"$patch":"replace"|"delete"} in maps and list items,
// "$deleteFromPrimitiveList/<field>", "$setElementOrder/<field>",
// "$retainKeys", and null to delete a field. Fields without a schema merge
// when they are maps and are replaced when they are lists.
//
// Errors: *InvalidJSONError, *DecodeError and *StrategicError.
func StrategicMergePatch(original, patch []byte, s *schema.Schema) ([]byte, error) {
	r, err := StrategicMergePatchWith(original, patch, s, Options{})
	if err != nil {
		return nil, err
	}
	return r.Object, nil
}

// StrategicMergePatchWith is StrategicMergePatch with options, returning
// strict-decoding findings (duplicate fields of the patch) too.
func StrategicMergePatchWith(original, patch []byte, s *schema.Schema, opts Options) (res Result, err error) {
	if !json.Valid(patch) {
		return Result{}, &InvalidJSONError{}
	}
	if opts.strict() {
		se, err := strictDecode(patch, shapeMap)
		if err != nil {
			return Result{}, &DecodeError{Message: err.Error()}
		}
		res.StrictErrors = se
	}
	pv, err := jsonx.Decode(patch)
	if err != nil {
		return Result{}, &DecodeError{Message: err.Error()}
	}
	var patchMap map[string]any
	switch t := pv.(type) {
	case map[string]any:
		patchMap = t
	case nil:
		patchMap = map[string]any{}
	default:
		return Result{}, &DecodeError{Message: "json: cannot unmarshal " + decodedKind(pv) + " into Go value of type map[string]interface {}"}
	}
	origMap, err := jsonx.DecodeObject(original)
	if err != nil {
		if len(original) != 0 {
			return Result{}, ErrBadJSONDoc
		}
		origMap = map[string]any{}
	}
	merged, err := mergeMap(origMap, patchMap, s)
	if err != nil {
		return Result{}, err
	}
	if merged == nil {
		merged = map[string]any{}
	}
	out, err := jsonx.Marshal(merged)
	if err != nil {
		return Result{}, internalf(err.Error())
	}
	res.Object = out
	if len(res.StrictErrors) > 0 {
		// The handler prints the patch map after the library mutated it.
		res.PatchValue = fmt.Sprintf("%+v", patchMap)
	}
	return res, nil
}

func decodedKind(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	}
	return "number"
}

// mergeMap merges patch into original; both may be modified.
func mergeMap(original, patch map[string]any, s *schema.Schema) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		return handleDirectiveInMergeMap(v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := applyRetainKeysDirective(original, patch); err != nil {
		return nil, err
	}
	if err := mergePatchIntoOriginal(original, patch, s); err != nil {
		return nil, err
	}
	// sorted: a fixed order for the library's map iterations (Go's order
	// is random, so any fixed order is one the real server may take)
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		patchV, present := patch[k]
		if !present {
			continue
		}
		isDeleteList := false
		if strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) {
			key, err := extractKey(k, deleteFromPrimitiveListDirectivePrefix)
			if err != nil {
				return nil, err
			}
			isDeleteList = true
			if key != "" {
				k = key
			}
		}

		// null deletes; unmatched nulls are ignored.
		if patchV == nil {
			delete(original, k)
			continue
		}

		origV, ok := original[k]
		if !ok {
			if !isDeleteList {
				discardNullValuesFromPatch(patchV)
				if v, keep := removeDirectives(patchV); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}

		if reflect.TypeOf(origV) != reflect.TypeOf(patchV) {
			if !isDeleteList {
				discardNullValuesFromPatch(patchV)
				if v, keep := removeDirectives(patchV); keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}

		var err error
		switch origV.(type) {
		case map[string]any:
			sub, pm, _ := lookupStruct(s, k)
			_, strategy, err2 := extractRetainKeysPatchStrategy(pm.strategies)
			if err2 != nil {
				return nil, err2
			}
			original[k], err = mergeMapHandler(origV, patchV, sub, strategy)
		case []any:
			sub, pm, err2 := lookupSlice(s, k)
			if err2 != nil {
				return nil, err2
			}
			_, strategy, err2 := extractRetainKeysPatchStrategy(pm.strategies)
			if err2 != nil {
				return nil, err2
			}
			original[k], err = mergeSliceHandler(origV, patchV, sub, strategy, pm.mergeKey, isDeleteList)
		default:
			if v, keep := removeDirectives(patchV); keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// handleDirectiveInMergeMap: {"$patch":"replace"} replaces the map with
// the rest of the patch; {"$patch":"delete"} leaves an empty map.
func handleDirectiveInMergeMap(directive any, patch map[string]any) (map[string]any, error) {
	if directive == replaceDirective {
		delete(patch, directiveMarker)
		return patch, nil
	}
	if directive == deleteDirective {
		return map[string]any{}, nil
	}
	return nil, errBadPatchType(directive, patch)
}

func mergeMapHandler(original, patch any, s *schema.Schema, strategy string) (map[string]any, error) {
	o, ok := original.(map[string]any)
	if !ok {
		return nil, errBadArgType(nilMap, original)
	}
	p, ok := patch.(map[string]any)
	if !ok {
		return nil, errBadArgType(nilMap, patch)
	}
	if strategy != replaceDirective {
		return mergeMap(o, p, s)
	}
	return p, nil
}

func mergeSliceHandler(original, patch any, s *schema.Schema, strategy, mergeKey string, isDeleteList bool) ([]any, error) {
	o, ok := original.([]any)
	if !ok {
		return nil, errBadArgType(nilSlice, original)
	}
	p, ok := patch.([]any)
	if !ok {
		return nil, errBadArgType(nilSlice, patch)
	}
	if strategy == mergeDirective || isDeleteList {
		return mergeSlice(o, p, s, mergeKey, isDeleteList)
	}
	return p, nil
}

// discardNullValuesFromPatch drops null members at every depth.
func discardNullValuesFromPatch(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
			} else {
				discardNullValuesFromPatch(e)
			}
		}
	case []any:
		for _, e := range t {
			discardNullValuesFromPatch(e)
		}
	}
}

// removeDirectives strips maps carrying "$patch" (and reports whether v
// itself is to be kept).
func removeDirectives(v any) (any, bool) {
	switch t := v.(type) {
	case nil:
		return nil, true
	case map[string]any:
		if _, has := t[directiveMarker]; has {
			return nil, false
		}
		for k, e := range t {
			nv, keep := removeDirectives(e)
			if keep {
				t[k] = nv
			} else {
				delete(t, k)
			}
		}
		return t, true
	case []any:
		res := []any{}
		for _, e := range t {
			if nv, keep := removeDirectives(e); keep {
				res = append(res, nv)
			}
		}
		return res, true
	}
	return v, true
}

// extractKey trims a directive prefix: "$setElementOrder/containers" →
// "containers".
func extractKey(s, prefix string) (string, error) {
	parts := strings.SplitN(s, "/", 2)
	if len(parts) <= 1 || parts[0] != prefix {
		switch prefix {
		case deleteFromPrimitiveListDirectivePrefix:
			return "", ErrBadPatchFormatForPrimitiveList
		case setElementOrderDirectivePrefix:
			return "", ErrBadPatchFormatForSetElementOrderList
		}
		return "", internalf(fmt.Sprintf("fail to find unknown prefix %q in %s\n", prefix, s))
	}
	return parts[1], nil
}

// applyRetainKeysDirective clears the keys of original that $retainKeys
// does not list, after checking that the patch only sets listed keys.
func applyRetainKeysDirective(original, patch map[string]any) error {
	retain, found := patch[retainKeysDirective]
	if !found {
		return nil
	}
	delete(patch, retainKeysDirective)
	list, ok := retain.([]any)
	if !ok {
		return ErrBadPatchFormatForRetainKeys
	}
	keep := map[any]struct{}{}
	for _, v := range list {
		if comparable(v) {
			keep[v] = struct{}{}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		v := patch[k]
		if v == nil || strings.HasPrefix(k, deleteFromPrimitiveListDirectivePrefix) ||
			strings.HasPrefix(k, setElementOrderDirectivePrefix) {
			continue
		}
		if _, ok := keep[k]; !ok {
			return ErrBadPatchFormatForRetainKeys
		}
	}
	for k := range original {
		if _, ok := keep[k]; !ok {
			delete(original, k)
		}
	}
	return nil
}
