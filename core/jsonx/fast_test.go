package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

var fastSamples = []string{
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"app":"x"}},"data":{"k":"v"}}`,
	` { "a" : [ 1 , -2.5e3 , 0 , true , false , null , "s" ] , "b" : { } , "c" : [ ] } `,
	`{"n":9223372036854775807,"big":9223372036854775808,"huge":1e400,"neg":-0,"f":0.1,"e":1E-2}`,
	`{"esc":"a\"b\\c\u00e9\ud83d\ude00\n","utf8":"é✓","bad":"` + "\xff" + `","lone":"\ud800"}`,
	`{"a":1,"a":{"b":2}}`,
	`"top"`, `12`, `null`, `[]`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":.5}`, `{"a":+1}`,
	`{"a":tru}`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{a:1}`, `{"a":"` + "\x01" + `"}`,
	`{} x`, `{}{}`, ``, `   `, `{"a":[1,2}`, `"\x"`, `"\u12"`,
	strings.Repeat("[", 1500) + strings.Repeat("]", 1500),
}

// TestFastDecodeIsDecode: for well-formed input and for each kind of
// malformed input, Decode (its fast path first) gives what encoding/json
// and convert give — the value, or an error with the same text.
func TestFastDecodeIsDecode(t *testing.T) {
	for _, in := range fastSamples {
		t.Run(in, func(t *testing.T) { sameAsStd(t, []byte(in)) })
	}
	t.Run("the fast path answers well-formed objects", func(t *testing.T) {
		if _, ok := fastDecode([]byte(fastSamples[0])); !ok {
			t.Fatal("fell back")
		}
	})
}

func FuzzFastDecodeIsDecode(f *testing.F) {
	for _, in := range fastSamples {
		f.Add([]byte(in))
	}
	f.Fuzz(sameAsStd)
}

func sameAsStd(t *testing.T, b []byte) {
	got, gotErr := Decode(b)
	want, wantErr := stdDecode(b)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%q: error %v, encoding/json's %v", b, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: %#v, encoding/json's %#v", b, got, want)
	}
}

// benchBody is a ~1 KiB ConfigMap, the create body of core/apiserver's
// benchmarks and tests/loadcmp.
var benchBody = []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-0000001","labels":{"app":"bench","tier":"load"}},"data":{` +
	`"key-0":"` + strings.Repeat("a", 100) + `","key-1":"` + strings.Repeat("b", 100) + `","key-2":"` + strings.Repeat("c", 100) + `","key-3":"` + strings.Repeat("d", 100) +
	`","key-4":"` + strings.Repeat("e", 100) + `","key-5":"` + strings.Repeat("f", 100) + `","key-6":"` + strings.Repeat("g", 100) + `","key-7":"` + strings.Repeat("h", 100) + `"}}`)

// BenchmarkDecode / BenchmarkDecodeEncodingJSON: the fast path against
// encoding/json on the same body (compare within one run).
func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(benchBody); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeEncodingJSON(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := stdDecode(benchBody); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFastMarshalIsMarshal: Marshal (its fast path first) writes the
// bytes encoding/json writes, or fails as it fails, for decoded JSON and
// for values decoding never makes.
func TestFastMarshalIsMarshal(t *testing.T) {
	values := map[string]any{
		"floats":       []any{0.0, -0.0, 1e-7, 1e-6, 123456789.125, 1e20, 1e21, -2.5e-300, 3.0, 0.1},
		"ints":         []any{int64(-1), int64(9223372036854775807), 7},
		"nil map":      map[string]any(nil),
		"nil slice":    []any(nil),
		"nested nil":   map[string]any{"a": nil, "b": []any(nil), "c": map[string]any(nil)},
		"strings":      []any{"<&>", "a\"b\\c", "\u2028\u2029", "tab\there\x01\x7f", "é✓", "\xff\xfe", ""},
		"keys":         map[string]any{"z": 1, "a<": 2, "é": 3, "\n": 4, "A": 5},
		"other types":  map[string]any{"n": json.Number("12"), "s": []string{"x"}, "m": map[string]string{"k": "v"}, "i32": int32(4)},
		"NaN":          math.NaN(),
		"Inf in a map": map[string]any{"x": math.Inf(1)},
		"bool":         []any{true, false},
	}
	for name, v := range values {
		t.Run(name, func(t *testing.T) { sameMarshal(t, v) })
	}
	for _, in := range fastSamples {
		if v, err := Decode([]byte(in)); err == nil {
			t.Run("decoded "+in, func(t *testing.T) { sameMarshal(t, v) })
		}
	}
}

func FuzzFastMarshalIsMarshal(f *testing.F) {
	for _, in := range fastSamples {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if v, err := Decode(b); err == nil {
			sameMarshal(t, v)
		}
	})
}

func sameMarshal(t *testing.T, v any) {
	got, gotErr := Marshal(v)
	want, wantErr := stdMarshal(v)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() || !bytes.Equal(got, want) {
		t.Fatalf("%#v: %s, %v; encoding/json: %s, %v", v, got, gotErr, want, wantErr)
	}
}

// BenchmarkMarshal / BenchmarkMarshalEncodingJSON: the fast path against
// encoding/json on the decoded benchmark body (compare within one run).
func BenchmarkMarshal(b *testing.B)             { benchMarshal(b, Marshal) }
func BenchmarkMarshalEncodingJSON(b *testing.B) { benchMarshal(b, stdMarshal) }

func benchMarshal(b *testing.B, marshal func(any) ([]byte, error)) {
	v, err := Decode(benchBody)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}
