package jsonx

// SkipValue returns the index just past the JSON value starting at b[i]:
// a string (escapes skipped), an object or array (to the bracket that
// closes it, strings inside taken whole), or a scalar (up to the next
// white space or structural byte — , : { } [ ] or a quote — or the end of
// b: `1"b"` is the scalar 1, what follows is the caller's to reject). It returns -1 when there
// is no value there: i at or past the end, a string or nesting never
// closed, or a scalar of no bytes (`{"a":}`). It finds bounds only — what
// lies inside is left to a decoder — and serves both the catalogue's
// lazy split (core/schema) and the raw list's type-meta removal
// (core/apiserver). E.g.
//
//	SkipValue([]byte(`{"a":[1,"]"]},2`), 0)  = 13
//	SkipValue([]byte(`{"a":[1,"]"]},2`), 14) = 15 (the scalar runs to the end)
//	SkipValue([]byte(`[1,]`), 3)             = -1
func SkipValue(b []byte, i int) int {
	if i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i) // dup.go: IndexByte, a list's bytes are mostly strings
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := SkipValue(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !IsSpace(b[j]) && !structural(b[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func structural(c byte) bool {
	switch c {
	case ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}

// IsSpace reports JSON's white space: space, tab, newline, carriage return.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
