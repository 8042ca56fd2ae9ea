package protobuf

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"github.com/kubesandbox/kubesandbox/core/builtin/common"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

func leUint64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// scalar decodes one value (a singular field, a list element or a map
// value) of f's kind; s is the schema of that value (for messages).
func (d *decoder) scalar(w wireField, f *field, s *schema.Schema) (any, error) {
	want := wireBytes
	switch f.kind {
	case 'i', 'l', 'b':
		want = wireVarint
	case 'd':
		want = wireFixed64
	}
	if w.typ != want {
		return nil, wrongWireType(w.typ, goName(f))
	}
	switch f.kind {
	case 's':
		return validUTF8(string(w.b)), nil
	case 'y':
		return base64.StdEncoding.EncodeToString(w.b), nil
	case 'i':
		return int64(int32(w.v)), nil
	case 'l':
		return int64(w.v), nil
	case 'b':
		return w.v != 0, nil
	case 'd':
		return float(math.Float64frombits(w.v))
	case 'o':
		sub := map[string]any{}
		if err := d.message(w.b, s, sub, goName(f)); err != nil {
			return nil, err
		}
		return sub, nil
	case 't', 'c':
		return timestamp(w.b, f.kind == 'c')
	case 'a':
		return duration(w.b)
	case 'q':
		return quantity(w.b)
	case 'x':
		return intOrString(w.b)
	case 'r':
		return rawJSON(w.b)
	case 'v':
		return stringList(w.b)
	case 'j', 'A', 'B', 'S':
		return d.schemaProps(w.b, f)
	}
	return nil, &Error{Code: ErrUnsupported, Msg: sprintf("decoding %s from protobuf is not supported", goName(f))}
}

// float is the JSON value of a double as the typed JSON encoding writes
// it and core/jsonx reads it back: 2.0 is written "2" and read as int64.
func float(f float64) (any, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return nil, &Error{Code: ErrInvalidValue, Msg: "json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64)}
	}
	if i, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return i, nil
	}
	return f, nil
}

// messageFields reads a small well-known message, calling fn with each
// field; unknown fields are skipped.
func messageFields(data []byte, msg string, fn func(w wireField) error) error {
	for i := 0; i < len(data); {
		w, j, err := next(data, i, msg)
		if err != nil {
			return err
		}
		i = j
		if err := fn(w); err != nil {
			return err
		}
	}
	return nil
}

func varintField(w wireField, goName string) (uint64, error) {
	if w.typ != wireVarint {
		return 0, wrongWireType(w.typ, goName)
	}
	return w.v, nil
}

// timestamp decodes metav1.Time / MicroTime: Timestamp {seconds = 1,
// nanos = 2}. An empty message is the zero time, JSON null. Time keeps
// whole seconds ("2024-05-01T10:00:00Z"), MicroTime microseconds
// ("2024-05-01T10:00:00.123456Z").
func timestamp(data []byte, micro bool) (any, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var secs int64
	var nanos int32
	err := messageFields(data, "Timestamp", func(w wireField) error {
		switch w.num {
		case 1:
			v, err := varintField(w, "Seconds")
			secs = int64(v)
			return err
		case 2:
			v, err := varintField(w, "Nanos")
			nanos = int32(v)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var t time.Time
	if micro {
		t = time.Unix(secs, int64(time.Duration(nanos).Truncate(time.Microsecond)))
	} else {
		t = time.Unix(secs, 0)
	}
	if t.IsZero() {
		return nil, nil
	}
	if micro {
		return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00"), nil
	}
	return t.UTC().Format(time.RFC3339), nil
}

// duration decodes metav1.Duration {duration = 1 (nanoseconds)} to its
// JSON text, e.g. "1m30s".
func duration(data []byte) (any, error) {
	var n int64
	err := messageFields(data, "Duration", func(w wireField) error {
		if w.num == 1 {
			v, err := varintField(w, "Duration")
			n = int64(v)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return time.Duration(n).String(), nil
}

// quantity decodes resource.Quantity {string = 1}. The text is kept as
// sent (clients send the canonical form) once it parses as a quantity;
// one that does not fails the decode, as the real Unmarshal does.
func quantity(data []byte) (any, error) {
	s, set := "0", false // an empty message is the zero quantity
	err := messageFields(data, "Quantity", func(w wireField) error {
		if w.num == 1 {
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "String_")
			}
			s, set = validUTF8(string(w.b)), true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if set {
		// The real decoder parses the text (Quantity.Unmarshal calls
		// ParseQuantity): "" or "500Y" fails the whole body.
		if _, ok := common.ParseQuantity(s); !ok {
			return nil, &Error{Code: ErrInvalidValue, Msg: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"}
		}
	}
	return s, nil
}

// intOrString decodes intstr.IntOrString {type = 1, intVal = 2, strVal = 3}:
// type 0 is the number intVal, type 1 the string strVal.
func intOrString(data []byte) (any, error) {
	var typ int64
	var iv int32
	var sv string
	err := messageFields(data, "IntOrString", func(w wireField) error {
		switch w.num {
		case 1:
			v, err := varintField(w, "Type")
			typ = int64(v)
			return err
		case 2:
			v, err := varintField(w, "IntVal")
			iv = int32(v)
			return err
		case 3:
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "StrVal")
			}
			sv = validUTF8(string(w.b))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch typ {
	case 0:
		return int64(iv), nil
	case 1:
		return sv, nil
	}
	return nil, &Error{Code: ErrInvalidValue, Msg: "impossible IntOrString.Type"}
}

// rawJSON decodes runtime.RawExtension / metav1.FieldsV1 {raw = 1}: the
// raw bytes are the JSON value itself. No raw bytes is null.
func rawJSON(data []byte) (any, error) {
	var raw []byte
	err := messageFields(data, "RawExtension", func(w wireField) error {
		if w.num == 1 {
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "Raw")
			}
			raw = w.b
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, nil
	}
	v, err := jsonx.Decode(raw)
	if err != nil {
		return nil, &Error{Code: ErrInvalidValue, Msg: "invalid embedded JSON: " + err.Error()}
	}
	return v, nil
}

// validUTF8 replaces each invalid byte by U+FFFD, as encoding/json does
// when it writes a Go string.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// stringList decodes a named []string (ExtraValue) {items = 1 repeated
// string}. It only occurs as a map value, which gogo starts at an empty
// ExtraValue{}: no items is [].
func stringList(data []byte) (any, error) {
	l := []any{}
	err := messageFields(data, "ExtraValue", func(w wireField) error {
		if w.num == 1 {
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "Items")
			}
			l = append(l, validUTF8(string(w.b)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// schemaProps decodes a JSONSchemaProps ('j') or one of its wrappers (see
// encoder.schemaProps) to the JSON their MarshalJSON writes: the list when
// it has elements, else the schema, else (A, S) null or (B) the bool.
func (d *decoder) schemaProps(data []byte, f *field) (any, error) {
	s := schemaProps()
	if s == nil {
		return nil, &Error{Code: ErrSchema, Msg: "no protobuf description of JSONSchemaProps"}
	}
	if f.kind == 'j' {
		sub := map[string]any{}
		return sub, d.message(data, s, sub, "JSONSchemaProps")
	}
	var schemaBytes []byte
	hasSchema, allows := false, false
	var list []any
	err := messageFields(data, goName(f), func(w wireField) error {
		switch {
		case f.kind == 'B' && w.num == 1:
			v, err := varintField(w, "Allows")
			allows = v != 0
			return err
		case (f.kind == 'B' && w.num == 2) || (f.kind != 'B' && w.num == 1):
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "Schema")
			}
			schemaBytes, hasSchema = append(schemaBytes, w.b...), true
		case f.kind != 'B' && w.num == 2:
			if w.typ != wireBytes {
				return wrongWireType(w.typ, "Items")
			}
			if f.kind == 'S' {
				list = append(list, validUTF8(string(w.b)))
				return nil
			}
			sub := map[string]any{}
			if err := d.message(w.b, s, sub, "JSONSchemaProps"); err != nil {
				return err
			}
			list = append(list, sub)
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case len(list) > 0:
		return list, nil
	case hasSchema:
		sub := map[string]any{}
		return sub, d.message(schemaBytes, s, sub, "JSONSchemaProps")
	case f.kind == 'B':
		return allows, nil
	}
	return nil, nil
}
