package apiserver

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

type object = resource.Object

// meta returns obj.metadata, creating it if needed.
func meta(obj object) map[string]any {
	m, ok := obj["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		obj["metadata"] = m
	}
	return m
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func metaStr(obj object, k string) string { return str(meta(obj), k) }

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

// setNested sets a value at a dotted path, creating maps on the way.
func setNested(obj map[string]any, v any, path ...string) {
	cur := obj
	for _, p := range path[:len(path)-1] {
		m, ok := cur[p].(map[string]any)
		if !ok {
			m = map[string]any{}
			cur[p] = m
		}
		cur = m
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

func stringSlice(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func toAnySlice(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

func int64Of(v any) (int64, bool) {
	switch t := v.(type) {
	case int64:
		return t, true
	case float64:
		if t == float64(int64(t)) {
			return int64(t), true
		}
	case int:
		return int64(t), true
	}
	return 0, false
}

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

func parseRV(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && n >= 0
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
