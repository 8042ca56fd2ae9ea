package builtin

// Small accessors over decoded JSON objects, with the behaviour of those
// of core/apiserver (object.go) and core/controllers: reads never write
// and never panic — a missing, null or mistyped value reads as the zero
// value; integers are int64, int or integral float64s; ensure creates a
// missing or null object and leaves a mistyped value alone (it returns
// nil, and the setters skip a nil map), for validation to report later.

// child returns m[key] when it is an object, or nil.
func child(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	c, _ := m[key].(map[string]any)
	return c
}

// ensure returns m[key] as an object, creating it when absent or null. It
// returns nil when m is nil or m[key] holds something else.
func ensure(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	switch v := m[key].(type) {
	case map[string]any:
		return v
	case nil:
		c := map[string]any{}
		m[key] = c
		return c
	}
	return nil
}

// items returns the objects of the list m[key], skipping other elements.
func items(m map[string]any, key string) []map[string]any {
	l, _ := m[key].([]any)
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		if o, ok := e.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// absent reports whether m has no value for key: missing or null, as a
// nil pointer in the Go types.
func absent(m map[string]any, key string) bool {
	return m[key] == nil
}

// setPtr defaults a pointer field: set when absent or null.
func setPtr(m map[string]any, key string, v any) {
	if m != nil && m[key] == nil {
		m[key] = v
	}
}

// setStr defaults a string field: set when absent, null or "" (the Go zero
// value the real defaulters test for).
func setStr(m map[string]any, key, v string) {
	if m == nil {
		return
	}
	if s, ok := m[key].(string); (ok && s == "") || m[key] == nil {
		m[key] = v
	}
}

// str returns m[key] when it is a string.
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// num returns m[key] as an int64 when it is an integral number.
func num(m map[string]any, key string) (int64, bool) {
	switch v := m[key].(type) {
	case int64:
		return v, true
	case float64:
		if v == float64(int64(v)) {
			return int64(v), true
		}
	case int:
		return int64(v), true
	}
	return 0, false
}
