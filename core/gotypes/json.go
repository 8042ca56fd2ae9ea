//go:build !js

package gotypes

import (
	"encoding/json"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// InternalJSON writes v, a JSON value of the external type whose internal
// counterpart is the table's type root, as encoding/json writes that
// internal value: Go field names as keys (the internal types have no json
// tags, apimachinery's keep theirs), every field present (nil as null),
// in the internal struct's order — what a validation error shows for a
// struct value. E.g. InternalJSON(InternalPodTemplateSpec, tmpl) begins
// `{"labels":{…},"Spec":{"Volumes":null,"InitContainers":null,…`.
func InternalJSON(root int, v any) json.RawMessage {
	once.Do(load)
	var b strings.Builder
	writeJSON(&b, root, v)
	return json.RawMessage(b.String())
}

func writeJSON(b *strings.Builder, i int, v any) {
	t := &types[i]
	switch t.kind {
	case 'p':
		if v == nil {
			b.WriteString("null")
		} else {
			writeJSON(b, t.elem, v)
		}
	case 'b':
		switch t.arg {
		case "string":
			s, _ := v.(string)
			quote(b, s)
		case "bool":
			b.WriteString(scalar("bool", v))
		default:
			b.WriteString(numText(v))
		}
	case 'l':
		l, ok := v.([]any)
		if !ok {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		for j, e := range l {
			if j > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, t.elem, e)
		}
		b.WriteByte(']')
	case 'm':
		m, ok := v.(map[string]any)
		if !ok {
			b.WriteString("null")
			return
		}
		b.WriteByte('{')
		for j, k := range sortedKeys(m) {
			if j > 0 {
				b.WriteByte(',')
			}
			quote(b, k)
			b.WriteByte(':')
			writeJSON(b, t.elem, m[k])
		}
		b.WriteByte('}')
	case 's', 'S':
		b.WriteByte('{')
		first := true
		writeFields(b, i, v, &first)
		b.WriteByte('}')
	case 'x':
		if t.arg == "t" {
			if s, ok := v.(string); ok {
				quote(b, s)
				return
			}
			b.WriteString("null")
			return
		}
		if t.arg == "q" { // Quantity.MarshalJSON: the canonical spelling
			if n, ok := v.(json.Number); ok {
				v = n.String()
			}
			if q, ok := common.ParseQuantity(v); ok {
				v = q.String()
			}
		}
		if s, ok := v.(string); ok {
			quote(b, s)
		} else {
			b.WriteString(numText(v))
		}
	}
}

// writeFields writes the fields of struct type i, those of embedded
// structs promoted into the same object as encoding/json does.
func writeFields(b *strings.Builder, i int, v any, first *bool) {
	t := &types[i]
	obj, _ := v.(map[string]any)
	for j := range t.fields {
		f := &t.fields[j]
		val := f.value(obj, t.name == "-")
		switch {
		case has(*f, "x"):
			continue
		case has(*f, "e"):
			writeFields(b, f.typ, val, first)
			continue
		case t.kind == 'S' && (has(*f, "o") && empty(f.typ, val) || has(*f, "z") && val == nil):
			continue
		}
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		key := f.name
		if t.kind == 'S' {
			key = f.in
		}
		quote(b, key)
		b.WriteByte(':')
		writeJSON(b, f.typ, val)
	}
}

// empty is encoding/json's omitempty test on a decoded JSON value.
func empty(i int, v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == "" && types[i].kind == 'b'
	case bool:
		return !x
	case json.Number:
		return x == "0"
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0 && types[i].kind == 'm'
	}
	return false
}

// quote writes s as encoding/json does (HTML characters escaped).
func quote(b *strings.Builder, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}
