package protobuf

import (
	"reflect"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// MaxDepth bounds the nesting of messages (inline groups count too); the
// built-in kinds nest far less deeply.
const MaxDepth = 64

func decodeMessage(raw []byte, s *schema.Schema, name string) (map[string]any, error) {
	d := &decoder{}
	obj := map[string]any{}
	if err := d.message(raw, s, obj, name); err != nil {
		return nil, err
	}
	return obj, nil
}

type decoder struct{ depth int }

// message decodes the message data of schema s into obj.
func (d *decoder) message(data []byte, s *schema.Schema, obj map[string]any, msg string) error {
	t, err := tableOf(s)
	if err != nil {
		return err
	}
	return d.fields(data, s, t, obj, msg)
}

// fields decodes data with description t (a message or an inline group)
// into obj, whose properties are described by s. Singular messages and
// groups may occur more than once and are then merged, as protobuf does,
// by decoding their concatenated bytes.
func (d *decoder) fields(data []byte, s *schema.Schema, t *table, obj map[string]any, msg string) error {
	if d.depth++; d.depth > MaxDepth {
		return &Error{Code: ErrUnsupported, Msg: sprintf("protobuf message nested deeper than %d", MaxDepth)}
	}
	defer func() { d.depth-- }()
	var pending map[*field][]byte
	present := map[*field]bool{}
	for i := 0; i < len(data); {
		w, j, err := next(data, i, msg)
		if err != nil {
			return err
		}
		i = j
		f := t.byNum[w.num]
		if f == nil {
			continue // unknown fields are skipped
		}
		present[f] = true
		if f.rep == 0 && (f.kind == 'o' || f.group != nil) {
			if w.typ != wireBytes {
				return wrongWireType(w.typ, goName(f))
			}
			if pending == nil {
				pending = map[*field][]byte{}
			}
			pending[f] = append(pending[f], w.b...)
			continue
		}
		if err := d.value(w, s, f, obj); err != nil {
			return err
		}
	}
	for _, f := range t.fields {
		if err := d.finish(f, s, obj, present[f], pending[f]); err != nil {
			return err
		}
	}
	return nil
}

// value stores a field that is not a singular message.
func (d *decoder) value(w wireField, s *schema.Schema, f *field, obj map[string]any) error {
	switch f.rep {
	case '*':
		l, _ := obj[f.name].([]any)
		if w.typ == wireBytes && isNumeric(f.kind) {
			// packed
			for i := 0; i < len(w.b); {
				e := wireField{num: w.num, typ: wireVarint}
				var err error
				if f.kind == 'd' {
					if i+8 > len(w.b) {
						return errUnexpectedEOF
					}
					e.typ = wireFixed64
					e.v = leUint64(w.b[i:])
					i += 8
				} else if e.v, i, err = varint(w.b, i); err != nil {
					return err
				}
				v, err := d.scalar(e, f, items(s, f))
				if err != nil {
					return err
				}
				l = append(l, v)
			}
			obj[f.name] = l
			return nil
		}
		v, err := d.scalar(w, f, items(s, f))
		if err != nil {
			return err
		}
		obj[f.name] = append(l, v)
		return nil
	case '%':
		if w.typ != wireBytes {
			return wrongWireType(w.typ, goName(f))
		}
		m, _ := obj[f.name].(map[string]any)
		if m == nil {
			m = map[string]any{}
			obj[f.name] = m
		}
		return d.entry(w.b, s, f, m)
	}
	v, err := d.scalar(w, f, prop(s, f))
	if err != nil {
		return err
	}
	obj[f.name] = v
	return nil
}

// entry decodes a map entry {key = 1, value = 2} into m.
func (d *decoder) entry(data []byte, s *schema.Schema, f *field, m map[string]any) error {
	var key string
	var val any
	hasVal := false
	vs := values(s, f)
	for i := 0; i < len(data); {
		w, j, err := next(data, i, "MapEntry")
		if err != nil {
			return err
		}
		i = j
		switch w.num {
		case 1:
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "Key")
			}
			key = validUTF8(string(w.b))
		case 2:
			if val, err = d.scalar(w, f, vs); err != nil {
				return err
			}
			hasVal = true
		}
	}
	if !hasVal {
		var err error
		if val, err = d.zero(f, vs); err != nil {
			return err
		}
		if f.kind == 'y' {
			val = "" // gogo starts a bytes value at []byte{}
		}
	}
	m[key] = val
	return nil
}

// finish applies the presence rule of f once the message is read: fill
// the JSON zero value of an absent field, drop an omitempty zero one, and
// decode the (merged) bytes of a singular message or inline group.
func (d *decoder) finish(f *field, s *schema.Schema, obj map[string]any, present bool, data []byte) error {
	if f.group != nil {
		return d.fields(data, s, f.group, obj, goName(f))
	}
	if f.rep == 0 && f.kind == 'o' && (present || f.pres == 'z' || f.pres == 'e') {
		sub := map[string]any{}
		if err := d.message(data, prop(s, f), sub, goName(f)); err != nil {
			return err
		}
		if f.pres == 'e' && (!present || d.isZeroMessage(prop(s, f), sub)) {
			return nil
		}
		obj[f.name] = sub
		return nil
	}
	if !present {
		switch f.pres {
		case 'z':
			v, err := d.zero(f, prop(s, f))
			if err != nil {
				return err
			}
			obj[f.name] = v
		case 'n':
			obj[f.name] = nil
		}
		return nil
	}
	if f.pres == 'e' && isZero(obj[f.name]) {
		delete(obj, f.name)
	}
	return nil
}

// zero is the JSON of the Go zero value of one (element) value of f.
func (d *decoder) zero(f *field, s *schema.Schema) (any, error) {
	switch f.kind {
	case 's':
		return "", nil
	case 'b':
		return false, nil
	case 'i', 'l', 'd', 'x':
		return int64(0), nil
	case 'a':
		return "0s", nil
	case 'q':
		return "0", nil
	case 'v':
		return []any{}, nil
	case 'o':
		sub := map[string]any{}
		if err := d.message(nil, s, sub, goName(f)); err != nil {
			return nil, err
		}
		return sub, nil
	}
	return nil, nil // y t c r j: nil slices, zero times, empty raw JSON
}

func (d *decoder) isZeroMessage(s *schema.Schema, v map[string]any) bool {
	z := map[string]any{}
	if err := d.message(nil, s, z, ""); err != nil {
		return false
	}
	return reflect.DeepEqual(z, v)
}

// isZero tells an omitempty value to leave out: "", 0, false, null, an
// empty list, map or byte string.
func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case int64:
		return x == 0
	case float64:
		return x == 0
	case bool:
		return !x
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func isNumeric(kind byte) bool { return kind == 'i' || kind == 'l' || kind == 'b' || kind == 'd' }

// goName approximates the Go field name gogo's errors name:
// "replicas" -> "Replicas".
func goName(f *field) string {
	if f.name == "" {
		return "Inline"
	}
	return strings.ToUpper(f.name[:1]) + f.name[1:]
}

// prop, items and values are the schemas of a field, of its elements and
// of its map values.
func prop(s *schema.Schema, f *field) *schema.Schema {
	if s == nil {
		return nil
	}
	return s.Properties[f.name]
}

func items(s *schema.Schema, f *field) *schema.Schema {
	if p := prop(s, f); p != nil {
		return p.Items
	}
	return nil
}

func values(s *schema.Schema, f *field) *schema.Schema {
	if p := prop(s, f); p != nil {
		return p.AdditionalProperties
	}
	return nil
}
