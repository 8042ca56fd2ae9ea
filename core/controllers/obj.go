package controllers

import (
	"bytes"
	"sort"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Objects are handled as decoded JSON (map[string]any with int64 and
// float64 numbers, as jsonx decodes them). These helpers behave as those
// of core/apiserver (object.go) and core/builtin: reads never write and
// never panic — a missing, null or mistyped value reads as the zero
// value; integers are int64, int or integral float64s; ensure creates a
// missing or null object and leaves a mistyped value alone (the write
// goes nowhere).

type obj = map[string]any

func child(o obj, path ...string) obj {
	cur := o
	for _, p := range path {
		next, ok := cur[p].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

func ensure(o obj, path ...string) obj {
	cur := o
	for _, p := range path {
		switch next := cur[p].(type) {
		case map[string]any:
			cur = next
		case nil:
			created := map[string]any{}
			cur[p] = created
			cur = created
		default:
			return obj{} // mistyped: left alone
		}
	}
	return cur
}

func str(o obj, path ...string) string {
	if len(path) == 0 {
		return ""
	}
	m := child(o, path[:len(path)-1]...)
	s, _ := m[path[len(path)-1]].(string)
	return s
}

// num reads an integer field; ok is false when it is absent.
func num(o obj, path ...string) (int64, bool) {
	if len(path) == 0 {
		return 0, false
	}
	m := child(o, path[:len(path)-1]...)
	switch v := m[path[len(path)-1]].(type) {
	case int64:
		return v, true
	case float64:
		if v == float64(int64(v)) {
			return int64(v), true
		}
	case int:
		return int64(v), true
	}
	return 0, false
}

func numOr(o obj, def int64, path ...string) int64 {
	if v, ok := num(o, path...); ok {
		return v
	}
	return def
}

func boolean(o obj, path ...string) bool {
	if len(path) == 0 {
		return false
	}
	b, _ := child(o, path[:len(path)-1]...)[path[len(path)-1]].(bool)
	return b
}

func list(o obj, path ...string) []any {
	if len(path) == 0 {
		return nil
	}
	l, _ := child(o, path[:len(path)-1]...)[path[len(path)-1]].([]any)
	return l
}

func strMap(o obj, path ...string) map[string]string {
	out := map[string]string{}
	for k, v := range child(o, path...) {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

func meta(o obj) obj { return ensure(o, "metadata") }

func name(o obj) string      { return str(o, "metadata", "name") }
func namespace(o obj) string { return str(o, "metadata", "namespace") }
func uid(o obj) string       { return str(o, "metadata", "uid") }
func rv(o obj) string        { return str(o, "metadata", "resourceVersion") }
func deleting(o obj) bool    { return str(o, "metadata", "deletionTimestamp") != "" }
func generation(o obj) int64 { return numOr(o, 0, "metadata", "generation") }

func finalizers(o obj) []string {
	var out []string
	for _, f := range list(o, "metadata", "finalizers") {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func hasFinalizer(o obj, f string) bool {
	for _, x := range finalizers(o) {
		if x == f {
			return true
		}
	}
	return false
}

// ownerRef is one metadata.ownerReferences entry.
type ownerRef struct {
	APIVersion, Kind, Name, UID string
	Controller, Block           bool
}

func (r ownerRef) group() string {
	if i := strings.IndexByte(r.APIVersion, '/'); i >= 0 {
		return r.APIVersion[:i]
	}
	return ""
}

func (r ownerRef) version() string {
	if i := strings.IndexByte(r.APIVersion, '/'); i >= 0 {
		return r.APIVersion[i+1:]
	}
	return r.APIVersion
}

func ownerRefs(o obj) []ownerRef {
	var out []ownerRef
	for _, e := range list(o, "metadata", "ownerReferences") {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		out = append(out, ownerRef{APIVersion: str(m, "apiVersion"), Kind: str(m, "kind"), Name: str(m, "name"),
			UID: str(m, "uid"), Controller: boolean(m, "controller"), Block: boolean(m, "blockOwnerDeletion")})
	}
	return out
}

// controllerOf is the owner reference with controller: true.
func controllerOf(o obj) (ownerRef, bool) {
	for _, r := range ownerRefs(o) {
		if r.Controller {
			return r, true
		}
	}
	return ownerRef{}, false
}

// controllerRef builds metav1.NewControllerRef(owner, gvk).
func controllerRef(owner obj, apiVersion, kind string) map[string]any {
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "name": name(owner), "uid": uid(owner),
		"controller": true, "blockOwnerDeletion": true}
}

func decode(b []byte) obj {
	o, err := jsonx.DecodeObject(b)
	if err != nil {
		return nil
	}
	return o
}

func copyObj(o obj) obj { return jsonx.CopyObject(o) }

// sameJSON compares two values as JSON (map keys sorted).
func sameJSON(a, b any) bool {
	x, err1 := jsonx.Marshal(a)
	y, err2 := jsonx.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// byCreation sorts objects oldest first, then by name (as
// controller.ReplicaSetsByCreationTimestamp).
func byCreation(l []obj) {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := str(l[i], "metadata", "creationTimestamp"), str(l[j], "metadata", "creationTimestamp")
		if a != b {
			return a < b
		}
		return name(l[i]) < name(l[j])
	})
}

// matchesSelector evaluates a metav1.LabelSelector (matchLabels and
// matchExpressions) against labels. A nil selector matches nothing, an
// empty one everything, as metav1.LabelSelectorAsSelector.
func matchesSelector(sel obj, labels map[string]string) bool {
	if sel == nil {
		return false
	}
	for k, v := range child(sel, "matchLabels") {
		if s, _ := v.(string); labels[k] != s {
			return false
		}
	}
	for _, e := range list(sel, "matchExpressions") {
		em, _ := e.(map[string]any)
		key, op := str(em, "key"), str(em, "operator")
		var vals []string
		for _, v := range list(em, "values") {
			if s, ok := v.(string); ok {
				vals = append(vals, s)
			}
		}
		val, has := labels[key]
		in := false
		for _, v := range vals {
			if v == val {
				in = true
			}
		}
		switch op {
		case "In":
			if !has || !in {
				return false
			}
		case "NotIn":
			if has && in {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// emptySelector: a selector with no requirement (matches everything).
func emptySelector(sel obj) bool {
	return len(child(sel, "matchLabels")) == 0 && len(list(sel, "matchExpressions")) == 0
}
