package fieldmanager

import (
	"encoding/json"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// decodeFieldsV1 is jsonx.Decode of a field set's JSON (fieldpath.Set's
// ToJSON): objects of objects down to empty ones, e.g.
//
//	{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{"k:{\"name\":\"c\"}":{}}}}
//
// read by one pass that makes the maps directly instead of through
// encoding/json's decoder (a create encodes one such set, and decoding it
// was ~6% of the create). Anything else — whitespace, a scalar, a
// repeated key — goes to jsonx.Decode, so the result is always
// jsonx.Decode's (FuzzDecodeFieldsV1).
func decodeFieldsV1(b []byte) (any, error) {
	if m, n, ok := fieldsObject(b, 0, 0); ok && n == len(b) {
		return m, nil
	}
	return jsonx.Decode(b)
}

// fieldsObject reads the object at b[i:]: the map and the index after it;
// false for anything but compact objects of objects with unique keys.
func fieldsObject(b []byte, i, depth int) (map[string]any, int, bool) {
	if depth > 64 || i >= len(b) || b[i] != '{' {
		return nil, 0, false
	}
	m := map[string]any{}
	i++
	if i < len(b) && b[i] == '}' {
		return m, i + 1, true
	}
	for {
		key, next, ok := fieldsKey(b, i)
		if !ok || next >= len(b) || b[next] != ':' {
			return nil, 0, false
		}
		v, after, ok := fieldsObject(b, next+1, depth+1)
		if !ok {
			return nil, 0, false
		}
		if _, twice := m[key]; twice {
			return nil, 0, false
		}
		m[key] = v
		if after >= len(b) {
			return nil, 0, false
		}
		switch b[after] {
		case ',':
			i = after + 1
		case '}':
			return m, after + 1, true
		default:
			return nil, 0, false
		}
	}
}

// fieldsKey reads the JSON string at b[i:]: its value and the index after
// it. A string with escapes (a key's "k:{\"name\":…}") is unquoted by
// encoding/json.
func fieldsKey(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	escaped := false
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '\\':
			escaped = true
			j++
		case c < 0x20 || c >= 0x80:
			return "", 0, false // control bytes and UTF-8 (its validity): encoding/json's
		case c == '"':
			if !escaped {
				return string(b[i+1 : j]), j + 1, true
			}
			var s string
			if json.Unmarshal(b[i:j+1], &s) != nil {
				return "", 0, false
			}
			return s, j + 1, true
		}
	}
	return "", 0, false
}
