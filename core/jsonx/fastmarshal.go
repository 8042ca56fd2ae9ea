//go:build !js

package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
)

// fastMarshal is Marshal's encoding written directly for the values
// decoded JSON is made of — map[string]any, []any, string, bool, nil,
// int64, int, float64 — without encoding/json's reflection; ok false
// for any other type (and NaN, ±Inf, nesting past 1,000), which Marshal
// then hands to encoding/json. The bytes are encoding/json's with HTML
// escaping off: keys sorted, nil maps and slices null, floats in its 'f'
// / 'e' choice, strings that need escaping escaped by encoding/json
// itself (FuzzFastMarshalIsMarshal). Native only (fastmarshal_js.go):
// the browser's build keeps encoding/json's path, within its size budget.
func fastMarshal(v any) ([]byte, bool) {
	sp := scratch.Get().(*[]byte)
	b, ok := appendValue((*sp)[:0], v, 0)
	var out []byte
	if ok { // of its own size: stored objects keep these bytes
		out = make([]byte, len(b))
		copy(out, b)
	}
	if ok && cap(b) <= 1<<20 {
		*sp = b[:0]
	}
	scratch.Put(sp)
	return out, ok
}

// scratch holds the buffers fastMarshal writes into before copying out.
var scratch = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func appendValue(b []byte, v any, depth int) ([]byte, bool) {
	if depth > maxFastDepth {
		return nil, false
	}
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return append(b, "null"...), true
		}
		var stack [32]string
		keys := stack[:0]
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendString(b, k); !ok {
				return nil, false
			}
			b = append(b, ':')
			if b, ok = appendValue(b, t[k], depth+1); !ok {
				return nil, false
			}
		}
		return append(b, '}'), true
	case []any:
		if t == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, e, depth+1); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case string:
		return appendString(b, t)
	case bool:
		return strconv.AppendBool(b, t), true
	case nil:
		return append(b, "null"...), true
	case int64:
		return strconv.AppendInt(b, t, 10), true
	case int:
		return strconv.AppendInt(b, int64(t), 10), true
	case float64:
		return appendFloat(b, t)
	}
	return nil, false
}

// appendFloat is encoding/json's float64 encoding.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendString quotes s: printable ASCII other than " and \ as it is,
// anything else through encoding/json without HTML escaping.
func appendString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var buf bytes.Buffer
			e := json.NewEncoder(&buf)
			e.SetEscapeHTML(false)
			if e.Encode(s) != nil {
				return nil, false
			}
			return append(b, bytes.TrimRight(buf.Bytes(), "\n")...), true
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
