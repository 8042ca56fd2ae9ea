// Package common holds what the per-kind validation packages under
// core/builtin share: accessors over decoded JSON objects read with Go's
// zero-value semantics (an absent string is "", an absent number 0, as in
// the typed structs kube-apiserver validates), label selectors, quantities
// and the small numeric checks of k8s.io/apimachinery's validation.
//
// None of the accessors panics on a value of the wrong type: the value
// reads as absent.
package common

import (
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Obj returns m[key] when it is an object, or nil.
func Obj(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	o, _ := m[key].(map[string]any)
	return o
}

// Has reports whether m[key] is present and not null (a non-nil pointer).
func Has(m map[string]any, key string) bool {
	return m != nil && m[key] != nil
}

// Str returns m[key] when it is a string, else "".
func Str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// Int returns m[key] as an integer (0 when absent or not integral).
func Int(m map[string]any, key string) int64 {
	n, _ := IntOK(m, key)
	return n
}

// IntOK returns m[key] as an integer and whether it is one.
func IntOK(m map[string]any, key string) (int64, bool) {
	return AsInt(m[key])
}

// AsInt converts a decoded JSON number.
func AsInt(v any) (int64, bool) { return jsonx.Int64(v) }

// Bool returns m[key] when it is a boolean, else false.
func Bool(m map[string]any, key string) bool {
	b, _ := m[key].(bool)
	return b
}

// List returns m[key] when it is a list.
func List(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

// Objs returns the list m[key] with every element as an object (a
// non-object element reads as an empty object, keeping indexes aligned).
func Objs(m map[string]any, key string) []map[string]any {
	l := List(m, key)
	out := make([]map[string]any, len(l))
	for i, e := range l {
		o, _ := e.(map[string]any)
		if o == nil {
			o = map[string]any{}
		}
		out[i] = o
	}
	return out
}

// Strs returns the list m[key] as strings (non-strings read as "").
func Strs(m map[string]any, key string) []string {
	l := List(m, key)
	out := make([]string, len(l))
	for i, e := range l {
		out[i], _ = e.(string)
	}
	return out
}

// StrMap returns the object m[key] as a map of strings (non-string values
// read as ""); nil when absent.
func StrMap(m map[string]any, key string) map[string]string {
	o := Obj(m, key)
	if o == nil {
		return nil
	}
	out := make(map[string]string, len(o))
	for k, v := range o {
		out[k], _ = v.(string)
	}
	return out
}

// Keys returns the keys of m in sorted order. (kube-apiserver ranges over
// Go maps, whose order is random; sorted is one of the orders it can give.)
func Keys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Messages for the numeric checks (apimachinery's api/validation).
const (
	IsNegativeErrorMsg     = "must be greater than or equal to 0"
	IsNotPositiveErrorMsg  = "must be greater than zero"
	FieldImmutableErrorMsg = "field is immutable"
)

// NonNegative is ValidateNonnegativeField.
func NonNegative(v int64, p *field.Path) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.Invalid(p, v, IsNegativeErrorMsg)}
	}
	return nil
}

// InclusiveRangeError is apimachinery's message for a range.
func InclusiveRangeError(lo, hi int64) string {
	return "must be between " + itoa(lo) + " and " + itoa(hi) + ", inclusive"
}

func itoa(n int64) string {
	return field.FormatValue(n)
}

// IsConfigMapKey is apimachinery's IsConfigMapKey (also used for secret keys).
func IsConfigMapKey(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, "must be no more than 253 characters")
	}
	ok := v != ""
	for _, r := range v {
		if !(r == '-' || r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			ok = false
			break
		}
	}
	if !ok {
		errs = append(errs, validation.RegexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", "[-._a-zA-Z0-9]+", "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case v == ".":
		errs = append(errs, "must not be '.'")
	case v == "..":
		errs = append(errs, "must not be '..'")
	case strings.HasPrefix(v, ".."):
		errs = append(errs, "must not start with '..'")
	}
	return errs
}

// IsValidPercent is apimachinery's IsValidPercent ("[0-9]+%").
func IsValidPercent(s string) []string {
	ok := len(s) > 1 && s[len(s)-1] == '%'
	for i := 0; ok && i < len(s)-1; i++ {
		ok = s[i] >= '0' && s[i] <= '9'
	}
	if !ok {
		return []string{validation.RegexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%")}
	}
	return nil
}
