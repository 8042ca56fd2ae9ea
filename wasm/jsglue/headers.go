package jsglue

import (
	"net/http"
	"strings"
)

// Headers cross between Go and JavaScript as one string, names and values
// alternating, each ending in "\n" — one string, where an array of pairs
// costs a js.Value (and its finalizer) for every name, value and pair.
// Neither a name nor a value may hold a newline (fetch's Headers refuse
// them), so the format needs no escaping:
//
//	JoinHeaders(http.Header{"Content-Type": {"application/json"}, "Vary": {"a", "b"}})
//	  == "Content-Type\napplication/json\nVary\na\nVary\nb\n"
//	SplitHeaders("Accept\n*/*\n") == [][2]string{{"Accept", "*/*"}}
//
// In JavaScript: s.split('\n') (dropping the last, empty element) gives
// the flat [name, value, name, value, …] list.

// JoinHeaders encodes h; a newline or carriage return inside a name or value
// becomes a space, as net/http writes such a header.
func JoinHeaders(h http.Header) string {
	n := 0
	for name, vs := range h {
		n += (len(name) + 2) * len(vs)
		for _, v := range vs {
			n += len(v)
		}
	}
	var b strings.Builder
	b.Grow(n)
	for name, vs := range h {
		for _, v := range vs {
			b.WriteString(oneLine(name))
			b.WriteByte('\n')
			b.WriteString(oneLine(v))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// SplitHeaders decodes s; a name without its value is dropped.
func SplitHeaders(s string) [][2]string {
	out := make([][2]string, 0, strings.Count(s, "\n")/2)
	for {
		name, rest, ok := strings.Cut(s, "\n")
		if !ok {
			return out
		}
		value, rest, ok := strings.Cut(rest, "\n")
		if !ok {
			return out
		}
		out = append(out, [2]string{name, value})
		s = rest
	}
}

func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	}
	return s
}
