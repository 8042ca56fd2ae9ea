package protobuf

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"slices"
	"time"

	"github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// Encoding writes what gogo's generated Marshal methods write for the
// typed Go value the JSON object decodes into, byte for byte (checked
// against k8s.io/api in reference/roundtrip):
//
//   - fields in ascending field number;
//   - a non-pointer scalar or struct always, its zero value when the JSON
//     leaves it out (a string "" is 0a 00);
//   - a pointer, a []byte and a message pointer only when the JSON has a
//     non-null value;
//   - repeated scalars unpacked, one tag per element; map entries
//     {key = 1, value = 2} sorted by key;
//   - Time as Timestamp {seconds, nanos} (an empty message for the zero
//     time), Quantity as its canonical string, IntOrString as {type,
//     intVal, strVal},
//     RawExtension / FieldsV1 as the JSON text of the value.
//
// For example ConfigMap {"metadata":{"name":"x"},"data":{"a":"b"}} is
//
//	0a 2b                 metadata (ObjectMeta: name "x", then every
//	   0a 01 78 12 00 …   non-pointer field, creationTimestamp 42 00 …)
//	12 06 0a 01 61 12 01 62   data entry a=b

// Raw is an already-encoded value: for a RawExtension field (the object of
// a protobuf WatchEvent is the enveloped protobuf object, not JSON), or a
// message field's encoded message (a list's items kept encoded).
type Raw []byte

// EncodeMessage encodes obj, the typed JSON of the type whose generated
// schema is s, as that type's protobuf message (no envelope).
func EncodeMessage(obj map[string]any, s *schema.Schema) ([]byte, error) {
	e := &encoder{}
	return e.message(nil, obj, s)
}

// EncodeObject encodes obj as a protobuf body: the "k8s\x00" prefix and a
// runtime.Unknown carrying obj's apiVersion and kind and its message.
func EncodeObject(obj map[string]any, s *schema.Schema) ([]byte, error) {
	raw, err := EncodeMessage(obj, s)
	if err != nil {
		return nil, err
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return Envelope(apiVersion, kind, raw), nil
}

// Envelope wraps the message raw of apiVersion/kind as runtime.Unknown
// does, behind the prefix: every field written, the empty contentEncoding
// and contentType included.
func Envelope(apiVersion, kind string, raw []byte) []byte {
	tm := appendBytes(appendBytes(nil, 1, []byte(apiVersion)), 2, []byte(kind))
	b := append([]byte(nil), Prefix...)
	b = appendBytes(b, 1, tm)
	b = appendBytes(b, 2, raw)
	b = appendBytes(b, 3, nil)
	return appendBytes(b, 4, nil)
}

// WatchFrame is one event of a protobuf watch stream: a four-byte
// big-endian length, then a metav1.WatchEvent {type = 1, object = 2}
// (raw, no envelope) whose object is the enveloped object, e.g. from
// EncodeObject.
func WatchFrame(typ string, object []byte) ([]byte, error) {
	ev, err := EncodeMessage(map[string]any{"type": typ, "object": Raw(object)}, Meta("WatchEvent"))
	if err != nil {
		return nil, err
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...), nil
}

type encoder struct{ depth int }

func (e *encoder) message(buf []byte, obj map[string]any, s *schema.Schema) ([]byte, error) {
	t, err := tableOf(s)
	if err != nil {
		return nil, err
	}
	return e.fields(buf, obj, s, t)
}

// fields appends the fields of description t (a message or an inline
// group) taken from obj, whose properties s describes.
func (e *encoder) fields(buf []byte, obj map[string]any, s *schema.Schema, t *table) ([]byte, error) {
	if e.depth++; e.depth > MaxDepth {
		return nil, &Error{Code: ErrUnsupported, Msg: sprintf("object nested deeper than %d", MaxDepth)}
	}
	defer func() { e.depth-- }()
	var err error
	for _, f := range t.sorted {
		if f.group != nil { // an embedded struct: always written
			sub, err := e.fields(nil, obj, s, f.group)
			if err != nil {
				return nil, err
			}
			buf = appendBytes(buf, f.num, sub)
			continue
		}
		v := obj[f.name]
		switch f.rep {
		case '*':
			l, ok := v.([]any)
			if !ok && v != nil {
				return nil, typeError(f, v)
			}
			for _, el := range l {
				if buf, err = e.value(buf, f.num, f, el, items(s, f)); err != nil {
					return nil, err
				}
			}
		case '%':
			m, ok := v.(map[string]any)
			if !ok && v != nil {
				return nil, typeError(f, v)
			}
			for _, k := range slices.Sorted(mapKeys(m)) {
				entry := appendBytes(nil, 1, []byte(k))
				if m[k] != nil || f.kind != 'y' {
					if entry, err = e.value(entry, 2, f, m[k], values(s, f)); err != nil {
						return nil, err
					}
				}
				buf = appendBytes(buf, f.num, entry)
			}
		default:
			if v == nil && (f.kind == 'y' || f.pres == 'p' || f.pres == 'n') {
				continue // a nil pointer or slice
			}
			if buf, err = e.value(buf, f.num, f, v, prop(s, f)); err != nil {
				return nil, err
			}
		}
	}
	return buf, nil
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// value appends field num holding v (nil: the zero value) of f's kind; s
// is the schema of a message value.
func (e *encoder) value(buf []byte, num int, f *field, v any, s *schema.Schema) ([]byte, error) {
	switch f.kind {
	case 's':
		str, ok := v.(string)
		if !ok && v != nil {
			return nil, typeError(f, v)
		}
		return appendBytes(buf, num, []byte(str)), nil
	case 'y':
		str, ok := v.(string)
		if !ok && v != nil {
			return nil, typeError(f, v)
		}
		b, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return nil, &Error{Code: ErrInvalidValue, Msg: goName(f) + ": " + err.Error()}
		}
		return appendBytes(buf, num, b), nil
	case 'i', 'l':
		n, err := integer(f, v)
		if err != nil {
			return nil, err
		}
		if f.kind == 'i' {
			n = int64(int32(n)) // negative int32s take ten bytes, as in gogo
		}
		return appendVarint(buf, num, uint64(n)), nil
	case 'b':
		b, ok := v.(bool)
		if !ok && v != nil {
			return nil, typeError(f, v)
		}
		var n uint64
		if b {
			n = 1
		}
		return appendVarint(buf, num, n), nil
	case 'd':
		var x float64
		switch n := v.(type) {
		case float64:
			x = n
		case int64:
			x = float64(n)
		case nil:
		default:
			return nil, typeError(f, v)
		}
		buf = appendUvarint(buf, uint64(num<<3|wireFixed64))
		return binary.LittleEndian.AppendUint64(buf, math.Float64bits(x)), nil
	case 'o':
		if r, ok := v.(Raw); ok {
			return appendBytes(buf, num, r), nil
		}
		m, ok := v.(map[string]any)
		if !ok && v != nil {
			return nil, typeError(f, v)
		}
		sub, err := e.message(nil, m, s)
		if err != nil {
			return nil, err
		}
		return appendBytes(buf, num, sub), nil
	case 't', 'c':
		sub, err := encodeTime(f, v)
		if err != nil {
			return nil, err
		}
		return appendBytes(buf, num, sub), nil
	case 'a':
		str, _ := v.(string)
		if _, ok := v.(string); !ok && v != nil {
			return nil, typeError(f, v)
		}
		d := time.Duration(0)
		if str != "" {
			var err error
			if d, err = time.ParseDuration(str); err != nil {
				return nil, &Error{Code: ErrInvalidValue, Msg: goName(f) + ": " + err.Error()}
			}
		}
		return appendBytes(buf, num, appendVarint(nil, 1, uint64(d))), nil
	case 'q':
		// Quantity.Marshal writes the canonical String(): "0.5" is "500m",
		// the number 1000 "1k"
		str := "0"
		if v != nil {
			q, ok := common.ParseQuantity(v)
			if !ok {
				return nil, &Error{Code: ErrInvalidValue, Msg: sprintf("%s: %v is not a quantity", goName(f), v)}
			}
			str = q.String()
		}
		return appendBytes(buf, num, appendBytes(nil, 1, []byte(str))), nil
	case 'x':
		var sub []byte
		switch x := v.(type) {
		case string:
			sub = appendBytes(appendVarint(appendVarint(nil, 1, 1), 2, 0), 3, []byte(x))
		case int64, nil:
			n, _ := x.(int64)
			sub = appendBytes(appendVarint(appendVarint(nil, 1, 0), 2, uint64(int64(int32(n)))), 3, nil)
		default:
			return nil, typeError(f, v)
		}
		return appendBytes(buf, num, sub), nil
	case 'v':
		l, ok := v.([]any)
		if !ok && v != nil {
			return nil, typeError(f, v)
		}
		var sub []byte
		for _, el := range l {
			str, ok := el.(string)
			if !ok && el != nil {
				return nil, typeError(f, el)
			}
			sub = appendBytes(sub, 1, []byte(str))
		}
		return appendBytes(buf, num, sub), nil
	case 'j', 'A', 'B', 'S':
		sub, err := e.schemaProps(f, v)
		if err != nil {
			return nil, err
		}
		return appendBytes(buf, num, sub), nil
	case 'r':
		var sub []byte
		switch x := v.(type) {
		case nil:
		case Raw:
			sub = appendBytes(nil, 1, x)
		default:
			b, err := jsonx.Marshal(x)
			if err != nil {
				return nil, &Error{Code: ErrInvalidValue, Msg: goName(f) + ": " + err.Error()}
			}
			sub = appendBytes(nil, 1, b)
		}
		return appendBytes(buf, num, sub), nil
	}
	return nil, &Error{Code: ErrUnsupported, Msg: sprintf("encoding %s as protobuf is not supported", goName(f))}
}

// encodeTime is a metav1.Time (whole seconds) or MicroTime as Timestamp
// {seconds = 1, nanos = 2}; the zero time and null are the empty message.
func encodeTime(f *field, v any) ([]byte, error) {
	str, ok := v.(string)
	if !ok && v != nil {
		return nil, typeError(f, v)
	}
	if str == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, str)
	if err != nil {
		return nil, &Error{Code: ErrInvalidValue, Msg: goName(f) + ": " + err.Error()}
	}
	if t.IsZero() {
		return nil, nil
	}
	var nanos int64
	if f.kind == 'c' {
		nanos = int64(time.Duration(t.Nanosecond()).Truncate(time.Microsecond))
	}
	return appendVarint(appendVarint(nil, 1, uint64(t.Unix())), 2, uint64(nanos)), nil
}

func integer(f *field, v any) (int64, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < 1<<63 {
			return int64(n), nil
		}
	case nil:
		return 0, nil
	}
	return 0, typeError(f, v)
}

func typeError(f *field, v any) *Error {
	return &Error{Code: ErrInvalidValue, Msg: sprintf("%s: cannot encode %T as protobuf kind %c", goName(f), v, f.kind)}
}

func appendVarint(b []byte, num int, v uint64) []byte {
	return appendUvarint(appendUvarint(b, uint64(num<<3|wireVarint)), v)
}

func appendBytes(b []byte, num int, v []byte) []byte {
	b = appendUvarint(b, uint64(num<<3|wireBytes))
	b = appendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// schemaProps encodes a JSONSchemaProps ('j') or one of its wrappers,
// whose JSON is one of two forms:
//
//	A JSONSchemaPropsOrArray        {schema = 1} or {jSONSchemas = 2 ...}
//	B JSONSchemaPropsOrBool         {allows = 1} or {allows = 1 (true), schema = 2}
//	S JSONSchemaPropsOrStringArray  {schema = 1} or {property = 2 ...}
func (e *encoder) schemaProps(f *field, v any) ([]byte, error) {
	s := schemaProps()
	if s == nil {
		return nil, &Error{Code: ErrSchema, Msg: "no protobuf description of JSONSchemaProps"}
	}
	msg := func(v any) ([]byte, error) {
		m, ok := v.(map[string]any)
		if !ok && v != nil {
			return nil, typeError(f, v)
		}
		return e.message(nil, m, s)
	}
	var sub []byte
	switch x := v.(type) {
	case map[string]any:
		b, err := msg(x)
		if err != nil {
			return nil, err
		}
		switch f.kind {
		case 'j':
			return b, nil
		case 'B':
			return appendBytes(appendVarint(nil, 1, 1), 2, b), nil
		}
		return appendBytes(nil, 1, b), nil
	case []any:
		for _, el := range x {
			switch f.kind {
			case 'A':
				b, err := msg(el)
				if err != nil {
					return nil, err
				}
				sub = appendBytes(sub, 2, b)
			case 'S':
				str, ok := el.(string)
				if !ok {
					return nil, typeError(f, el)
				}
				sub = appendBytes(sub, 2, []byte(str))
			default:
				return nil, typeError(f, v)
			}
		}
		return sub, nil
	case bool:
		if f.kind == 'B' {
			n := uint64(0)
			if x {
				n = 1
			}
			return appendVarint(nil, 1, n), nil
		}
	case nil:
		if f.kind == 'B' {
			return appendVarint(nil, 1, 0), nil
		}
		if f.kind == 'j' {
			return e.message(nil, nil, s)
		}
		return nil, nil
	}
	return nil, typeError(f, v)
}
