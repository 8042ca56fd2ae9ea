package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Accessors for the hooks, printers and controllers kept with their kinds
// in this package (obj.go has the defaulters' ones). None writes or panics.

// nested walks a path of map keys: nested(obj, "spec", "replicas").
func nested(m map[string]any, path ...string) (any, bool) {
	var cur any = m
	for _, p := range path {
		c, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = c[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// nestedOr is nested without the "found".
func nestedOr(m map[string]any, path ...string) any {
	v, _ := nested(m, path...)
	return v
}

// metaStr reads metadata[key] as a string.
func metaStr(obj map[string]any, key string) string { return str(child(obj, "metadata"), key) }

func mapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }

func listOf(v any) []any { l, _ := v.([]any); return l }

func lenOf(v any) int {
	switch t := v.(type) {
	case map[string]any:
		return len(t)
	case []any:
		return len(t)
	}
	return 0
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// SelectorString renders a LabelSelector as a selector string:
// "app=web,tier in (a,b),!legacy".
func SelectorString(sel map[string]any) string {
	var parts []string
	if ml, ok := sel["matchLabels"].(map[string]any); ok {
		for _, k := range keysOf(ml) {
			parts = append(parts, k+"="+text(ml[k]))
		}
	}
	for _, e := range listOf(sel["matchExpressions"]) {
		em := mapOf(e)
		key, vals := str(em, "key"), strings.Join(jsonx.Strings(em["values"]), ",")
		switch str(em, "operator") {
		case "In":
			parts = append(parts, key+" in ("+vals+")")
		case "NotIn":
			parts = append(parts, key+" notin ("+vals+")")
		case "Exists":
			parts = append(parts, key)
		case "DoesNotExist":
			parts = append(parts, "!"+key)
		}
	}
	return strings.Join(parts, ",")
}
