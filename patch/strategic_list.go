package patch

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// mergePatchIntoOriginal handles "$setElementOrder/<field>": it merges
// the list <field> of the patch (if any) into original, then orders the
// result: patch items in $setElementOrder order, server-only items kept
// where they were relative to them.
//
// With mergeKey name, original [a b c], patch [{name: d}] and
// $setElementOrder [c d a] (b absent): result [c d a b]... b is
// server-only and keeps its place after a.
func mergePatchIntoOriginal(original, patch map[string]any, s *schema.Schema) error {
	for _, key := range slices.Sorted(maps.Keys(patch)) {
		if !strings.HasPrefix(key, setElementOrderDirectivePrefix) {
			continue
		}
		orderV, present := patch[key]
		if !present {
			continue
		}
		delete(patch, key)

		order, ok := orderV.([]any)
		if !ok {
			return errBadArgType(nilSlice, orderV)
		}
		originalKey, err := extractKey(key, setElementOrderDirectivePrefix)
		if err != nil {
			return err
		}
		var originalList, patchList []any
		originalV, foundOriginal := original[originalKey]
		patchV, foundPatch := patch[originalKey]
		if foundOriginal {
			if originalList, ok = originalV.([]any); !ok {
				return errBadArgType(nilSlice, originalV)
			}
		}
		if foundPatch {
			if patchList, ok = patchV.([]any); !ok {
				return errBadArgType(nilSlice, patchV)
			}
		}
		sub, pm, err := lookupSlice(s, originalKey)
		if err != nil {
			return err
		}
		_, strategy, err := extractRetainKeysPatchStrategy(pm.strategies)
		if err != nil {
			return err
		}
		if err := validatePatchWithSetOrderList(patchList, order, pm.mergeKey); err != nil {
			return err
		}

		var merged []any
		switch {
		case foundOriginal && !foundPatch:
			merged = originalList
		case !foundOriginal && foundPatch:
			v, _ := removeDirectives(patchList)
			merged = v.([]any)
		case foundOriginal && foundPatch:
			merged, err = mergeSliceHandler(originalList, patchList, sub, strategy, pm.mergeKey, false)
			if err != nil {
				return err
			}
		default:
			continue
		}

		var patchItems, serverOnly []any
		if pm.mergeKey == "" {
			patchItems, serverOnly = partitionPrimitivesByPresentInList(merged, order)
		} else {
			patchItems, serverOnly, err = partitionMapsByPresentInList(merged, order, pm.mergeKey)
			if err != nil {
				return err
			}
		}
		elemType, err := sliceElementType(originalList, patchList)
		if err != nil {
			return err
		}
		both, err := normalizeElementOrder(patchItems, serverOnly, order, originalList, pm.mergeKey, elemType.Kind())
		if err != nil {
			return err
		}
		original[originalKey] = both
		delete(patch, originalKey)
	}
	return nil
}

// validatePatchWithSetOrderList checks that the patch list's items appear
// in $setElementOrder, in the same relative order.
func validatePatchWithSetOrderList(patchList []any, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	nonDelete := patchList
	if mergeKey != "" {
		var err error
		nonDelete, _, err = extractToDeleteItems(patchList)
		if err != nil {
			return err
		}
	}
	pi, oi := 0, 0
	for pi < len(nonDelete) && oi < len(order) {
		if containsDirectiveMarker(nonDelete[pi]) {
			pi++
			continue
		}
		equal, err := mergeKeyValueEqual(nonDelete[pi], order[oi], mergeKey)
		if err != nil {
			return err
		}
		if equal {
			pi++
		}
		oi++
	}
	if pi < len(nonDelete) && oi >= len(order) {
		return internalf(fmt.Sprintf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, setElementOrderDirectivePrefix, order))
	}
	return nil
}

func containsDirectiveMarker(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, has := m[directiveMarker]
	return has
}

func mergeKeyValueEqual(left, right any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return eq(left, right), nil
	}
	l, ok := left.(map[string]any)
	if !ok {
		return false, errBadArgType(nilMap, left)
	}
	r, ok := right.(map[string]any)
	if !ok {
		return false, errBadArgType(nilMap, right)
	}
	lv, ok := l[mergeKey]
	if !ok {
		return false, errNoMergeKey(l, mergeKey)
	}
	rv, ok := r[mergeKey]
	if !ok {
		return false, errNoMergeKey(r, mergeKey)
	}
	return eq(lv, rv), nil
}

// mergeSlice merges two lists: scalars are unioned (or, for a
// $deleteFromPrimitiveList, removed); maps are merged by mergeKey, with
// {"$patch":"delete"|"replace"} items.
func mergeSlice(original, patch []any, s *schema.Schema, mergeKey string, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	t, err := sliceElementType(original, patch)
	if err != nil {
		return nil, err
	}
	kind := t.Kind()
	var merged []any
	if kind != reflect.Map {
		if isDeleteList {
			return deleteFromSlice(original, patch), nil
		}
		both := append(original, patch...)
		merged = deduplicateScalars(both)
	} else {
		if mergeKey == "" {
			return nil, internalf(fmt.Sprintf("cannot merge lists without merge key for %s", schemaName(s)))
		}
		original, patch, err = mergeSliceWithSpecialElements(original, patch, mergeKey)
		if err != nil {
			return nil, err
		}
		merged, err = mergeSliceWithoutSpecialElements(original, patch, mergeKey, s)
		if err != nil {
			return nil, err
		}
	}
	var patchItems, serverOnly []any
	if mergeKey == "" {
		patchItems, serverOnly = partitionPrimitivesByPresentInList(merged, patch)
	} else {
		patchItems, serverOnly, err = partitionMapsByPresentInList(merged, patch, mergeKey)
		if err != nil {
			return nil, err
		}
	}
	return normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind)
}

func mergeSliceWithSpecialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	without := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any)
		pt, ok := m[directiveMarker]
		if !ok {
			without = append(without, v)
			continue
		}
		switch {
		case pt == deleteDirective:
			mv, ok := m[mergeKey]
			if !ok {
				return nil, nil, errNoMergeKey(m, mergeKey)
			}
			var err error
			if original, err = deleteMatchingEntries(original, mergeKey, mv); err != nil {
				return nil, nil, err
			}
		case pt == replaceDirective:
			replace = true
		case pt == mergeDirective:
			return nil, nil, internalf("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, errBadPatchType(pt, m)
		}
	}
	if replace {
		return without, nil, nil
	}
	return original, without, nil
}

func deleteMatchingEntries(original []any, mergeKey string, value any) ([]any, error) {
	for {
		_, i, found, err := findMapInSliceBasedOnKeyValue(original, mergeKey, value)
		if err != nil {
			return nil, err
		}
		if !found {
			return original, nil
		}
		original = append(original[:i], original[i+1:]...)
	}
}

func mergeSliceWithoutSpecialElements(original, patch []any, mergeKey string, s *schema.Schema) ([]any, error) {
	for _, v := range patch {
		m := v.(map[string]any)
		mv, ok := m[mergeKey]
		if !ok {
			return nil, errNoMergeKey(m, mergeKey)
		}
		om, i, found, err := findMapInSliceBasedOnKeyValue(original, mergeKey, mv)
		if err != nil {
			return nil, err
		}
		if found {
			merged, err := mergeMap(om, m, s)
			if err != nil {
				return nil, err
			}
			original[i] = merged
		} else {
			original = append(original, v)
		}
	}
	return original, nil
}

func deleteFromSlice(current, toDelete []any) []any {
	del := map[any]bool{}
	for _, v := range toDelete {
		if comparable(v) {
			del[v] = true
		}
	}
	out := make([]any, 0, len(current))
	for _, v := range current {
		if !comparable(v) || !del[v] {
			out = append(out, v)
		}
	}
	return out
}

func findMapInSliceBasedOnKeyValue(l []any, key string, value any) (map[string]any, int, bool, error) {
	for i, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, 0, false, internalf(fmt.Sprintf("value for key %v is not a map", i))
		}
		if mv, ok := m[key]; ok && eq(mv, value) {
			return m, i, true, nil
		}
	}
	return nil, 0, false, nil
}

// deduplicateScalars removes repeats the library's way (a repeat is
// replaced by the last element, so the order changes).
func deduplicateScalars(s []any) []any {
	last := len(s) - 1
	for i := 0; i < last; i++ {
		for j := i + 1; j <= last; j++ {
			if eq(s[i], s[j]) {
				s[j] = s[last]
				s = s[:last]
				last--
				j--
			}
		}
	}
	return s
}

// sliceElementType is the one Go type of all elements (lists of lists and
// mixed lists are errors).
func sliceElementType(slices ...[]any) (reflect.Type, error) {
	var prev reflect.Type
	for _, s := range slices {
		for _, v := range s {
			cur := reflect.TypeOf(v)
			if prev == nil {
				prev = cur
				if prev == nil {
					// A null element: the library panics here (nil Kind).
					return nil, internalf(fmt.Sprintf("list element types are not identical: %v", fmt.Sprint(slices)))
				}
				if prev.Kind() == reflect.Slice {
					return nil, ErrNoListOfLists
				}
			} else if prev != cur {
				return nil, internalf(fmt.Sprintf("list element types are not identical: %v", fmt.Sprint(slices)))
			}
		}
	}
	if prev == nil {
		return nil, internalf("no elements in any of the given slices")
	}
	return prev, nil
}

func partitionPrimitivesByPresentInList(original, by []any) ([]any, []any) {
	patch := make([]any, 0, len(original))
	serverOnly := make([]any, 0, len(original))
	in := map[any]bool{}
	for _, v := range by {
		if comparable(v) {
			in[v] = true
		}
	}
	for _, v := range original {
		if comparable(v) && in[v] {
			patch = append(patch, v)
		} else {
			serverOnly = append(serverOnly, v)
		}
	}
	return patch, serverOnly
}

func partitionMapsByPresentInList(original, by []any, mergeKey string) ([]any, []any, error) {
	patch := make([]any, 0, len(original))
	serverOnly := make([]any, 0, len(original))
	for _, v := range original {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(nilMap, v)
		}
		mv, ok := m[mergeKey]
		if !ok {
			return nil, nil, errNoMergeKey(m, mergeKey)
		}
		_, _, found, err := findMapInSliceBasedOnKeyValue(by, mergeKey, mv)
		if err != nil {
			return nil, nil, err
		}
		if found {
			patch = append(patch, v)
		} else {
			serverOnly = append(serverOnly, v)
		}
	}
	return patch, serverOnly, nil
}

// normalizeElementOrder sorts the patch items by patchOrder and the
// server-only items by serverOrder, then interleaves them.
func normalizeElementOrder(patch, serverOnly, patchOrder, serverOrder []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	patch, err := normalizeSliceOrder(patch, patchOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	serverOnly, err = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind)
	if err != nil {
		return nil, err
	}
	return mergeSortedSlice(serverOnly, patch, serverOrder, mergeKey, kind), nil
}

func mergeSortedSlice(left, right, serverOrder []any, mergeKey string, kind reflect.Kind) []any {
	less := func(l, r any) (bool, bool) {
		li := index(serverOrder, l, mergeKey, kind)
		ri := index(serverOrder, r, mergeKey, kind)
		if li >= 0 && ri >= 0 {
			return li < ri, true
		}
		return false, false
	}
	size := len(left) + len(right)
	i, j := 0, 0
	s := make([]any, size)
	for k := 0; k < size; k++ {
		switch {
		case i >= len(left) && j < len(right):
			s[k] = right[j]
			j++
		case j >= len(right) && i < len(left):
			s[k] = left[i]
			i++
		default:
			if l, both := less(left[i], right[j]); both && l {
				s[k] = left[i]
				i++
			} else {
				s[k] = right[j]
				j++
			}
		}
	}
	return s
}

func index(l []any, v any, mergeKey string, kind reflect.Kind) int {
	get := func(item any) any { return item }
	if kind == reflect.Map {
		get = func(item any) any {
			m, ok := item.(map[string]any)
			if !ok {
				return nil
			}
			return m[mergeKey]
		}
	}
	want := get(v)
	for i, e := range l {
		if eq(want, get(e)) {
			return i
		}
	}
	return -1
}

func extractToDeleteItems(l []any) ([]any, []any, error) {
	var nonDelete, toDelete []any
	for _, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errBadArgType(nilMap, v)
		}
		if d, found := m[directiveMarker]; found && d == deleteDirective {
			toDelete = append(toDelete, v)
		} else {
			nonDelete = append(nonDelete, v)
		}
	}
	return nonDelete, toDelete, nil
}

func validateMergeKeyInLists(mergeKey string, lists ...[]any) error {
	for _, l := range lists {
		for _, item := range l {
			m, ok := item.(map[string]any)
			if !ok {
				return errBadArgType(nilMap, item)
			}
			if _, ok := m[mergeKey]; !ok {
				return errNoMergeKey(m, mergeKey)
			}
		}
	}
	return nil
}

func normalizeSliceOrder(toSort, order []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	var toDelete []any
	if kind == reflect.Map {
		if err := validateMergeKeyInLists(mergeKey, toSort, order); err != nil {
			return nil, err
		}
		var err error
		if toSort, toDelete, err = extractToDeleteItems(toSort); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(toSort, func(i, j int) bool {
		if ii := index(order, toSort[i], mergeKey, kind); ii >= 0 {
			if ij := index(order, toSort[j], mergeKey, kind); ij >= 0 {
				return ii < ij
			}
		}
		return true
	})
	return append(toSort, toDelete...), nil
}
