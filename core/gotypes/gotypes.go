//go:build !js

// Package gotypes prints a JSON object the way Go code of Kubernetes
// prints the typed value it decodes into, where a client can see the
// result:
//
//   - Spew is go-spew's "%#v" under k8s.io/utils/dump.ForHash — what
//     controller.ComputeHash hashes into a pod-template-hash or a
//     DaemonSet's controller-revision-hash;
//   - InternalJSON is encoding/json of the internal (k8s.io/kubernetes/pkg/apis)
//     type — what a validation message shows for a struct value, such as
//     the immutable template of a Job.
//
// Both need the Go layout (field names and order, type names, nil versus
// empty) that JSON does not carry: zz_table.go holds it for the pod
// template, generated from the real types (reference/cmd/gengotypes).
//
// Example: Spew(PodTemplateSpec, {"metadata":{"labels":{"app":"web"}},…})
// begins "(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) …
// Labels:(map[string]string)map[app:web] …".
package gotypes

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"
)

type field struct {
	name, in, flags string // in: the external JSON key ("" = lowerFirst(name))
	typ             int
}

type typ struct {
	name       string // as reflect.Type.String() prints it
	kind       byte   // s, S (apimachinery struct), p, l, m, b, x
	arg        string // b: the reflect kind; x: q, i or t
	fields     []field
	key, elem  int
	nameCached bool
}

var (
	once  sync.Once
	types []typ
)

func load() {
	lines := strings.Split(table, "\n")
	types = make([]typ, len(lines))
	for i, l := range lines {
		parts := strings.SplitN(l, " ", 3)
		t := &types[i]
		t.name, t.kind, t.arg = parts[0], parts[1][0], parts[2]
		switch t.kind {
		case 's', 'S':
			for _, f := range strings.Split(t.arg, ";") {
				p := strings.Split(f, ",")
				fl := field{name: p[0]}
				fl.typ, _ = strconv.Atoi(p[1])
				if len(p) > 2 {
					fl.flags = p[2]
				}
				if len(p) > 3 {
					fl.in = p[3]
				}
				if fl.in == "" {
					fl.in = strings.ToLower(fl.name[:1]) + fl.name[1:]
				}
				t.fields = append(t.fields, fl)
			}
		case 'p', 'l':
			t.elem, _ = strconv.Atoi(t.arg)
		case 'm':
			k, e, _ := strings.Cut(t.arg, ",")
			t.key, _ = strconv.Atoi(k)
			t.elem, _ = strconv.Atoi(e)
		}
	}
}

// typeName is the type's reflect.Type.String().
func typeName(i int) string {
	t := &types[i]
	if !t.nameCached {
		switch {
		case t.name != "":
		case t.kind == 'p':
			t.name = "*" + typeName(t.elem)
		case t.kind == 'l':
			t.name = "[]" + typeName(t.elem)
		case t.kind == 'm':
			t.name = "map[" + typeName(t.key) + "]" + typeName(t.elem)
		default:
			t.name = t.arg
		}
		t.nameCached = true
	}
	return t.name
}

// value is the JSON value a struct field reads from obj. A field of an
// internal-only type (internal) is inline in the external object when
// flagged i; its own e flag is about the internal JSON.
func (f *field) value(obj map[string]any, internal bool) any {
	switch {
	case has(*f, "x"), has(*f, "n"):
		return nil
	case has(*f, "i"), !internal && has(*f, "e"):
		return obj
	}
	return obj[f.in]
}

func has(f field, flag string) bool { return strings.Contains(f.flags, flag) }

// Spew prints v, a JSON value of the table's type root, as go-spew's
// "%#v" with dump.ForHash's settings prints the Go value decoded from it
// (an empty list or map decodes to nil, as from protobuf).
func Spew(root int, v any) string {
	once.Do(load)
	var b strings.Builder
	spew(&b, root, v, false)
	return b.String()
}

func spew(b *strings.Builder, i int, v any, noType bool) {
	t := &types[i]
	if t.kind == 'p' {
		switch {
		case v == nil && noType:
			b.WriteString("<nil>")
			return
		case v == nil:
			b.WriteString("(" + typeName(i) + ")<nil>")
			return
		case noType:
			b.WriteString("<*>")
		default:
			b.WriteString("(" + typeName(i) + ")")
		}
		spew(b, t.elem, v, true)
		return
	}
	if !noType {
		b.WriteString("(" + typeName(i) + ")")
	}
	switch t.kind {
	case 'b':
		b.WriteString(scalar(t.arg, v))
	case 'l':
		l, _ := v.([]any)
		if len(l) == 0 {
			b.WriteString("<nil>")
			return
		}
		b.WriteByte('[')
		for j, e := range l {
			if j > 0 {
				b.WriteByte(' ')
			}
			spew(b, t.elem, e, true)
		}
		b.WriteByte(']')
	case 'm':
		m, _ := v.(map[string]any)
		if len(m) == 0 {
			b.WriteString("<nil>")
			return
		}
		b.WriteString("map[")
		for j, k := range sortedKeys(m) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(k + ":")
			spew(b, t.elem, m[k], true)
		}
		b.WriteByte(']')
	case 's', 'S':
		obj, _ := v.(map[string]any)
		b.WriteByte('{')
		for j := range t.fields {
			f := &t.fields[j]
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.name + ":")
			spew(b, f.typ, f.value(obj, false), false)
		}
		b.WriteByte('}')
	case 'x':
		b.WriteString(spewSpecial(t.arg, v))
	}
}

// scalar prints a basic value (absent: its zero value) as spew does.
func scalar(kind string, v any) string {
	switch kind {
	case "string":
		s, _ := v.(string)
		return s
	case "bool":
		if v == true {
			return "true"
		}
		return "false"
	case "float32", "float64":
		f, _ := strconv.ParseFloat(numText(v), 64)
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return numText(v)
}

func numText(v any) string {
	switch n := v.(type) {
	case json.Number:
		return n.String()
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(n, 10)
	case int:
		return strconv.Itoa(n)
	}
	return "0"
}

// spewSpecial prints the values of types decoded by their own
// UnmarshalJSON: a Time (only the zero one: a set time carries its
// *time.Location, whose contents are the machine's), an IntOrString and
// a Quantity.
func spewSpecial(kind string, v any) string {
	switch kind {
	case "t":
		return "{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}"
	case "i":
		if s, ok := v.(string); ok {
			return "{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)" + s + "}"
		}
		return "{Type:(intstr.Type)0 IntVal:(int32)" + numText(v) + " StrVal:(string)}"
	}
	s, _ := v.(string)
	if n, ok := v.(json.Number); ok {
		s = n.String()
	}
	q := parseQuantity(s)
	return "{i:(resource.int64Amount){value:(int64)" + strconv.FormatInt(q.value, 10) +
		" scale:(resource.Scale)" + strconv.Itoa(int(q.scale)) +
		"} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)" + q.s + " Format:(resource.Format)" + q.format + "}"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
