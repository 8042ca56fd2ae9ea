package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DuplicateFields lists the object keys that appear more than once in a
// JSON document, as dotted paths ("spec.replicas", "spec.ports[0].name"),
// in document order. Invalid JSON yields no duplicates (decoding reports
// that error).
//
// Most bodies have none: a byte scan (noDuplicates) says so first, and the
// token-by-token scan runs only when it cannot.
func DuplicateFields(b []byte) []string {
	if noDuplicates(b) {
		return nil
	}
	return duplicateFieldsByTokens(b)
}

// duplicateFieldsByTokens is DuplicateFields through encoding/json's
// tokens (keys unescaped, invalid UTF-8 replaced, as the decoder sees
// them), up to the first syntax error.
func duplicateFieldsByTokens(b []byte) []string {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out []string
	scanValue(d, "", &out, 0)
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func scanValue(d *json.Decoder, path string, out *[]string, depth int) bool {
	if depth > 10000 {
		return false
	}
	tok, err := d.Token()
	if err != nil {
		return false
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return true
	}
	switch delim {
	case '{':
		seen := map[string]bool{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return false
			}
			k, _ := kt.(string)
			p := join(path, k)
			if seen[k] {
				*out = append(*out, p)
			}
			seen[k] = true
			if !scanValue(d, p, out, depth+1) {
				return false
			}
		}
		_, err := d.Token()
		return err == nil
	case '[':
		for i := 0; d.More(); i++ {
			if !scanValue(d, fmt.Sprintf("%s[%d]", path, i), out, depth+1) {
				return false
			}
		}
		_, err := d.Token()
		return err == nil
	}
	return true
}

// noDuplicates reports a document that the token scan would find no
// duplicate in: one JSON value whose structure it follows, each object's
// keys free of escapes and non-ASCII bytes (so their bytes are what the
// decoder compares) and distinct, at most 64 keys an object. Anything
// else — a duplicate, an escaped key, a malformed or trailing part —
// answers false and the token scan decides.
func noDuplicates(b []byte) bool {
	d := dupScan{b: b}
	if !d.value(0) {
		return false
	}
	d.ws()
	return d.i == len(b)
}

type dupScan struct {
	b    []byte
	i    int
	keys [][]byte // the keys of the open objects, innermost last
}

func (d *dupScan) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value passes the value at d.i; false: not followed (see noDuplicates).
func (d *dupScan) value(depth int) bool {
	d.ws()
	if d.i >= len(d.b) || depth > 1000 {
		return false
	}
	switch d.b[d.i] {
	case '{':
		return d.members(depth)
	case '[':
		d.i++
		d.ws()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return true
		}
		for {
			if !d.value(depth + 1) {
				return false
			}
			d.ws()
			if d.i >= len(d.b) {
				return false
			}
			d.i++
			switch d.b[d.i-1] {
			case ']':
				return true
			case ',':
			default:
				return false
			}
		}
	case '"':
		end := stringEnd(d.b, d.i)
		d.i = end
		return end > 0
	}
	start := d.i // a number, true, false or null: its end
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return d.i > start
		}
		d.i++
	}
	return d.i > start
}

// members passes the object at d.i, checking its keys.
func (d *dupScan) members(depth int) bool {
	d.i++
	base := len(d.keys)
	defer func() { d.keys = d.keys[:base] }()
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return true
	}
	for {
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return false
		}
		end := stringEnd(d.b, d.i)
		if end < 0 || len(d.keys)-base >= 64 {
			return false
		}
		key := d.b[d.i+1 : end-1]
		for _, c := range key {
			if c == '\\' || c >= 0x80 {
				return false
			}
		}
		for _, k := range d.keys[base:] {
			if string(k) == string(key) {
				return false
			}
		}
		d.keys = append(d.keys, key)
		d.i = end
		d.ws()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return false
		}
		d.i++
		if !d.value(depth + 1) {
			return false
		}
		d.ws()
		if d.i >= len(d.b) {
			return false
		}
		d.i++
		switch d.b[d.i-1] {
		case '}':
			return true
		case ',':
		default:
			return false
		}
	}
}

// stringEnd returns the index after the JSON string at i (the next quote
// after an even run of backslashes), or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		esc := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			esc++
		}
		if esc%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}
