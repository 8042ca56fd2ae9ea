package apiserver

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

type object = resource.Object

// The accessors over decoded objects here, in core/controllers (obj.go)
// and in core/builtin (obj.go) share one behaviour: reads never write and
// never panic — a missing, null or mistyped value (a non-object on the
// way) reads as the zero value; integers are int64, int or integral
// float64s; a writer creates a missing or null object and leaves a
// mistyped value alone (the write goes nowhere; validation reports it).

// meta returns obj.metadata for writing, creating it when missing or null.
func meta(obj object) map[string]any {
	switch m := obj["metadata"].(type) {
	case map[string]any:
		return m
	case nil:
		created := map[string]any{}
		obj["metadata"] = created
		return created
	}
	return map[string]any{} // mistyped: left alone
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// metaStr reads metadata.k; it never adds a metadata to obj.
func metaStr(obj object, k string) string {
	m, _ := obj["metadata"].(map[string]any)
	return str(m, k)
}

// nested walks a dotted path of map keys: nested(obj, "spec", "replicas").
func nested(obj map[string]any, path ...string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[p]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

// setNested sets a value at a dotted path, creating missing or null maps
// on the way; a mistyped value on the way is left alone (no write).
func setNested(obj map[string]any, v any, path ...string) {
	if len(path) == 0 {
		return
	}
	cur := obj
	for _, p := range path[:len(path)-1] {
		switch m := cur[p].(type) {
		case map[string]any:
			cur = m
		case nil:
			created := map[string]any{}
			cur[p] = created
			cur = created
		default:
			return
		}
	}
	cur[path[len(path)-1]] = v
}

// jsonPathFields splits ".spec.replicas" into [spec replicas].
func jsonPathFields(p string) []string {
	p = strings.TrimPrefix(p, ".")
	if p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

func parseRV(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
}

// rvError is the storage layer's text for a resourceVersion that is not a
// number (APIObjectVersioner.ParseResourceVersion), e.g.
// `resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`.
func rvError(s string) string {
	detail := "strconv.ParseUint: parsing " + strconv.Quote(s) + ": value out of range"
	if _, err := strconv.ParseUint(s, 10, 64); err != nil {
		detail = err.Error()
	}
	return field.Invalid(field.NewPath("resourceVersion"), s, detail).Error()
}

func labelsOf(obj object) map[string]string {
	out := map[string]string{}
	if m, ok := meta(obj)["labels"].(map[string]any); ok {
		for k, v := range m {
			if s, ok := v.(string); ok {
				out[k] = s
			}
		}
	}
	return out
}

func hasString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

func joinComma(s []string) string { return strings.Join(s, ",") }
