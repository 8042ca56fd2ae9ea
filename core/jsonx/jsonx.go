// Package jsonx decodes JSON the way Kubernetes' unstructured objects hold
// it: integers become int64, other numbers float64, objects map[string]any.
package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// Decode parses one JSON value. Trailing data is an error.
func Decode(b []byte) (any, error) {
	if v, ok := fastDecode(b); ok {
		return v, nil
	}
	return stdDecode(b)
}

// stdDecode is Decode without the fast path: encoding/json, then convert
// (and the values and error texts fastDecode must match).
func stdDecode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return convert(v), nil
}

// DecodeObject parses a JSON object.
func DecodeObject(b []byte) (map[string]any, error) {
	v, err := Decode(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("expected a JSON object")
	}
	return m, nil
}

func convert(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = convert(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = convert(e)
		}
		return t
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return string(t)
		}
		return f
	}
	return v
}

// DeepCopy copies a decoded JSON value.
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = DeepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = DeepCopy(e)
		}
		return l
	}
	return v
}

// CopyObject deep-copies an object.
func CopyObject(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return DeepCopy(m).(map[string]any)
}

// Marshal encodes v compactly without HTML escaping.
func Marshal(v any) ([]byte, error) {
	if b, ok := fastMarshal(v); ok {
		return b, nil
	}
	return stdMarshal(v)
}

// stdMarshal is Marshal without the fast path (and what fastMarshal must
// write).
func stdMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Strings returns the strings of a JSON list, skipping other elements (a
// non-list gives none).
func Strings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Anys is s as a JSON list.
func Anys(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// Int64 returns v as an int64 when it is an integral number: int64 (as
// decoded), int, or a float64 with no fraction.
func Int64(v any) (int64, bool) {
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
