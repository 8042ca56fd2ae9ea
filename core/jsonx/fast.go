package jsonx

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// fastDecode is Decode's value read in one pass over b, making the maps,
// slices and scalars directly instead of through encoding/json's
// reflection-driven decoder (a create's body, a stored object on every
// decoding read). It answers only well-formed input (ok false for
// anything else, which Decode then hands to encoding/json for the value
// or its exact error), and its result is encoding/json's followed by
// convert: a repeated key's last value wins, "[]" is an empty non-nil
// slice, a number is an int64, else a float64, else its text; strings
// with escapes or non-ASCII bytes are unquoted by encoding/json itself.
// FuzzFastDecodeIsDecode holds it to that.
func fastDecode(b []byte) (any, bool) {
	p := fastParser{b: b}
	p.ws()
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.ws()
	return v, p.i == len(b)
}

type fastParser struct {
	b []byte
	i int
}

// maxFastDepth is below encoding/json's nesting limit (10,000): deeper
// input takes encoding/json's path and its error.
const maxFastDepth = 1000

func (p *fastParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) value(depth int) (any, bool) {
	if p.i >= len(p.b) || depth > maxFastDepth {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, false
}

func (p *fastParser) literal(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

func (p *fastParser) object(depth int) (any, bool) {
	m := map[string]any{}
	p.i++ // {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.ws()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k.(string)] = v
		p.ws()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.ws()
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *fastParser) array(depth int) (any, bool) {
	l := []any{}
	p.i++ // [
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return l, true
	}
	for {
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		l = append(l, v)
		p.ws()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			p.ws()
		case ']':
			p.i++
			return l, true
		default:
			return nil, false
		}
	}
}

// str reads the string at p.i (its opening quote).
func (p *fastParser) str() (any, bool) {
	start := p.i
	plain := true
	for j := start + 1; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			p.i = j + 1
			if plain {
				return string(p.b[start+1 : j]), true
			}
			if !hasEscape(p.b[start+1:j]) && utf8.Valid(p.b[start+1:j]) {
				return string(p.b[start+1 : j]), true
			}
			var s string
			if json.Unmarshal(p.b[start:j+1], &s) != nil {
				return nil, false
			}
			return s, true
		case c == '\\':
			plain = false
			j++ // the escaped byte: never the closing quote
		case c < 0x20:
			return nil, false
		case c >= 0x80:
			plain = false
		}
	}
	return nil, false
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// number reads a number by JSON's grammar and converts it as convert
// converts a json.Number.
func (p *fastParser) number() (any, bool) {
	b, i := p.b, p.i
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	p.i = i
	t := string(b[start:i])
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return t, true
	}
	return f, true
}
