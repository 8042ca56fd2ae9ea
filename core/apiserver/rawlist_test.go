package apiserver

import (
	"encoding/json"
	"reflect"
	"testing"
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
		if json.Unmarshal(b, &in) != nil {
			withoutTypeMeta(b) // must not panic
			return
		}
		compact, _ := json.Marshal(in) // our stored form: compact, sorted
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
