package apiserver

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

func TestWithoutTypeMeta(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"configmap", `{"apiVersion":"v1","data":{"kind":"x"},"kind":"ConfigMap","metadata":{"name":"a"}}`, `{"data":{"kind":"x"},"metadata":{"name":"a"}}`},
		{"strings with escapes", `{"apiVersion":"v1","a":"q\"}","kind":"K"}`, `{"a":"q\"}"}`},
		{"arrays", `{"apiVersion":"v1","items":[{"kind":"x"},[1,2]],"kind":"K","z":true}`, `{"items":[{"kind":"x"},[1,2]],"z":true}`},
		{"backslash runs before quotes", `{"a":"\\\\","apiVersion":"v1","b":"q\\\"}\\\\","kind":"K","z":[1]}`, `{"a":"\\\\","b":"q\\\"}\\\\","z":[1]}`},
		{"the rest after both, copied", `{"apiVersion":"v1","data":{"kind":"x"},"kind":"ConfigMap","metadata":{"name":"a"},"z":"}"}`, `{"data":{"kind":"x"},"metadata":{"name":"a"},"z":"}"}`},
		{"only type meta", `{"apiVersion":"v1","kind":"K"}`, `{}`},
		{"empty", `{}`, `{}`},
		{"not an object", `[1]`, `[1]`},
		{"truncated", `{"apiVersion":"v1","kind":`, `{"apiVersion":"v1","kind":`},
		// the edges jsonx.SkipValue settled: malformed input comes back unchanged
		{"value of no bytes", `{"apiVersion":"v1","a":}`, `{"apiVersion":"v1","a":}`},
		{"scalar running to the end", `{"kind":"K","a":1`, `{"kind":"K","a":1`},
		{"input after the object", `{"kind":"K","a":1}x`, `{"kind":"K","a":1}x`},
		{"members without a comma", `{"kind":"K","a":1"b":2}`, `{"kind":"K","a":1"b":2}`},
		{"key not a string", `{"kind":"K",a:1}`, `{"kind":"K",a:1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sameAsScan(t, []byte(tc.in))
			if got := string(withoutTypeMeta([]byte(tc.in))); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// FuzzWithoutTypeMeta: for any JSON object the result is the same object
// without apiVersion and kind.
func FuzzWithoutTypeMeta(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"name":"a"}}`))
	f.Add([]byte(`{"a":[{"kind":1}],"kind":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var in map[string]any
		sameAsScan(t, b)
		if json.Unmarshal(b, &in) != nil {
			return
		}
		compact, _ := json.Marshal(in) // our stored form: compact, sorted
		sameAsScan(t, compact)
		var got map[string]any
		if err := json.Unmarshal(withoutTypeMeta(compact), &got); err != nil {
			t.Fatalf("invalid output for %s: %v", compact, err)
		}
		delete(in, "apiVersion")
		delete(in, "kind")
		if !reflect.DeepEqual(in, got) {
			t.Fatalf("got %v, want %v", got, in)
		}
	})
}

// sameAsScan checks typeMetaCut against the member scan lists copied
// before the cut was kept (refAppendWithoutTypeMeta): the same bytes, and
// size says their length.
func sameAsScan(t *testing.T, b []byte) {
	t.Helper()
	want := refAppendWithoutTypeMeta(nil, b)
	c := cutTypeMeta(b)
	if got := c.append([]byte("x"), b); !bytes.Equal(got[1:], want) {
		t.Fatalf("%s: cut gives %s, the scan %s", b, got[1:], want)
	}
	if c.size(b) != len(want) {
		t.Fatalf("%s: size %d, want %d", b, c.size(b), len(want))
	}
}

// refAppendWithoutTypeMeta is appendWithoutTypeMeta as it was before
// typeMetaCut (one scan, copying as it went): the reference the fuzz
// compares with.
func refAppendWithoutTypeMeta(dst, obj []byte) []byte {
	if len(obj) < 2 || obj[0] != '{' {
		return append(dst, obj...)
	}
	base := len(dst)
	out := append(dst, '{')
	i, n := 1, len(obj)
	firstMember := true
	dropped := 0
	for i < n && obj[i] != '}' {
		if dropped == 2 { // the rest: members after the last one dropped
			if !firstMember {
				out = append(out, ',')
			}
			return append(out, obj[i:]...)
		}
		start := i
		if obj[i] != '"' {
			return append(dst[:base], obj...)
		}
		keyEnd := jsonx.SkipValue(obj, i)
		if keyEnd < 0 || keyEnd >= n || obj[keyEnd] != ':' {
			return append(dst[:base], obj...)
		}
		key := obj[start:keyEnd]
		valEnd := jsonx.SkipValue(obj, keyEnd+1)
		if valEnd < 0 {
			return append(dst[:base], obj...)
		}
		if !bytes.Equal(key, []byte(`"apiVersion"`)) && !bytes.Equal(key, []byte(`"kind"`)) {
			if !firstMember {
				out = append(out, ',')
			}
			out = append(out, obj[start:valEnd]...)
			firstMember = false
		} else {
			dropped++
		}
		i = valEnd
		if i < n && obj[i] == ',' {
			i++
		} else if i < n && obj[i] != '}' {
			return append(dst[:base], obj...) // `{"a":1"b":2}`: not a member list
		}
	}
	if i != n-1 {
		return append(dst[:base], obj...) // unterminated, or something after the object
	}
	return append(out, '}')
}
