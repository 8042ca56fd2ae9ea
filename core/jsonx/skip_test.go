package jsonx

import "testing"

// The edges the two scanners it replaced disagreed on (core/schema's
// failed a scalar of no bytes and stopped a scalar at white space;
// core/apiserver's took both), settled once.
func TestSkipValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		at   int
		want int
	}{
		{"string", `"ab"`, 0, 4},
		{"escaped quote", `"a\"b",1`, 0, 6},
		{"escaped backslash before the end", `"a\\",1`, 0, 5},
		{"object with a bracket in a string", `{"a":[1,"]"]},2`, 0, 13},
		{"array of objects", `[{"a":{}},[]]x`, 0, 13},
		{"scalar to a comma", `12,3`, 0, 2},
		{"scalar to a brace", `true}`, 0, 4},
		{"scalar to the end of the input", `{"a":1},null`, 8, 12},
		{"scalar stops at white space", `1 ,2`, 0, 1},
		{"scalar stops at a quote", `1"b":2`, 0, 1},
		{"scalar stops at a colon or an opening", `a:1`, 0, 1},
		{"a closing where a value should be", `]`, 0, -1},
		{"scalar of no bytes: a comma", `[1,]`, 3, -1},
		{"scalar of no bytes: a close", `{"a":}`, 5, -1},
		{"scalar of no bytes: white space", `{"a": }`, 5, -1},
		{"at the end", `[1]`, 3, -1},
		{"past the end", `[1]`, 9, -1},
		{"negative", `[1]`, -1, -1},
		{"empty input", ``, 0, -1},
		{"unterminated string", `"ab`, 0, -1},
		{"unterminated string inside", `{"a":"b}`, 0, -1},
		{"unterminated object", `{"a":[1]`, 0, -1},
		{"escape at the very end", `"a\`, 0, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SkipValue([]byte(tc.in), tc.at); got != tc.want {
				t.Errorf("SkipValue(%s, %d) = %d, want %d", tc.in, tc.at, got, tc.want)
			}
		})
	}
}
