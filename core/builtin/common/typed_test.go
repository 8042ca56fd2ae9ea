package common

import (
	"encoding/json"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// The wanted spellings and errors are resource.Quantity's
// (json.Unmarshal then json.Marshal with k8s.io/apimachinery v0.37.2).
func TestCanonicalQuantity(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
		err  error
	}{
		{"0.5", "500m", nil},
		{float64(0.5), "500m", nil},
		{int64(1000), "1k", nil},
		{"1000", "1k", nil},
		{"1.5Gi", "1536Mi", nil},
		{"+1", "+1", nil},
		{"1e3", "1e3", nil},
		{"1E3", "1E3", nil},
		{"100m", "100m", nil},
		{"00", "0", nil},
		{"0.0", "0", nil},
		{"1024Ki", "1Mi", nil},
		{"8Ki", "8Ki", nil},
		{"1000m", "1", nil},
		{"0.1m", "100u", nil},
		{"0.0000000001", "1n", nil},
		{"2e-3", "2e-3", nil},
		{" 1 ", "1", nil},
		{"1.", "1.", nil}, // kept as written, as ParseQuantity does
		{".5", "500m", nil},
		{"12e2", "1200", nil},
		{"0.5Gi", "512Mi", nil},
		{"0100m", "0100m", nil},
		{"1ki", "", ErrQuantitySuffix},
		{"5e", "", ErrQuantitySuffix},
		{"1.5.5", "", ErrQuantityFormat},
		{"abc", "", ErrQuantityFormat},
		{"", "", ErrQuantityFormat},
		{true, "", ErrQuantityFormat},
	} {
		t.Run(jsonString(tc.in), func(t *testing.T) {
			got, err := CanonicalQuantity(tc.in)
			if err != tc.err || got != tc.want {
				t.Fatalf("CanonicalQuantity(%#v) = %q, %v; want %q, %v", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestDecodeTyped(t *testing.T) {
	var s schema.Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"resources":{"type":"object","additionalProperties":{"format":"quantity"}},
		"list":{"type":"array","items":{"type":"object","properties":{"q":{"format":"quantity"}}}},
		"data":{"type":"object","additionalProperties":{"type":"string","format":"byte"}}}}`), &s); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, in, want, err string }{
		{"quantities are canonical", `{"resources":{"cpu":0.5,"memory":"1.5Gi"},"list":[{"q":"1000"}]}`,
			`{"list":[{"q":"1k"}],"resources":{"cpu":"500m","memory":"1536Mi"}}`, ""},
		{"a bad quantity in a list", `{"list":[{"q":"x"}]}`, "", ErrQuantityFormat.Error()},
		{"base64 is kept", `{"data":{"a":"aGk="}}`, `{"data":{"a":"aGk="}}`, ""},
		{"bad base64", `{"data":{"a":"REPLACE_ME"}}`, "", "illegal base64 data at input byte 7"},
		{"null quantity stays", `{"resources":{"cpu":null}}`, `{"resources":{"cpu":null}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var obj map[string]any
			if err := json.Unmarshal([]byte(tc.in), &obj); err != nil {
				t.Fatal(err)
			}
			err := DecodeTyped(&s, obj)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonString(obj); got != tc.want {
				t.Fatalf("got %s\nwant %s", got, tc.want)
			}
		})
	}
}
